import { describe, expect, it } from 'vitest';
import { requestClaims } from './db.ts';

const USER = '6f1c2f6e-3b7a-4d1e-9a55-0f2f7b8c9d10';
const GUEST = '0b8f8f3e-1111-4a4a-8b8b-222222222222';
const PLAN = '9d9d9d9d-3333-4c4c-9d9d-444444444444';

describe('requestClaims', () => {
  it('is anon with nothing but the role when nobody is identified', () => {
    expect(requestClaims({})).toEqual({ role: 'anon', claims: { role: 'anon' } });
  });

  it('is authenticated with sub for a verified user', () => {
    expect(requestClaims({ userId: USER })).toEqual({
      role: 'authenticated',
      claims: { role: 'authenticated', sub: USER },
    });
  });

  it('carries guest_id only without a user: a valid token wins', () => {
    expect(requestClaims({ guestId: GUEST }).claims).toEqual({ role: 'anon', guest_id: GUEST });
    expect(requestClaims({ userId: USER, guestId: GUEST }).claims).toEqual({ role: 'authenticated', sub: USER });
  });

  it('names the plan by id or slug', () => {
    expect(requestClaims({ guestId: GUEST, planId: PLAN }).claims).toEqual({ role: 'anon', guest_id: GUEST, plan_id: PLAN });
    expect(requestClaims({ planSlug: 'abcdEFGH12' }).claims).toEqual({ role: 'anon', plan_slug: 'abcdEFGH12' });
  });

  it('never yields a privileged role whatever it is given', () => {
    const hostile = { userId: USER, role: 'service_role' } as unknown as Parameters<typeof requestClaims>[0];
    expect(requestClaims(hostile).role).toBe('authenticated');
  });
});

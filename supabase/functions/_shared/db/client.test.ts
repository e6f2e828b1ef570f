import { describe, expect, it } from 'vitest';
import { sha256Hex, newSecretToken, requestClaims } from './client.ts';

const USER = '6f1c2f6e-3b7a-4d1e-9a55-0f2f7b8c9d10';
const GUEST = '0b8f8f3e-1111-4a4a-8b8b-222222222222';
const PLAN = '9d9d9d9d-3333-4c4c-9d9d-444444444444';
const SESSION = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const HASH = 'a'.repeat(64);

describe('requestClaims', () => {
  it('is anon with nothing but the role when nobody is identified', () => {
    expect(requestClaims({})).toEqual({ role: 'anon', claims: { role: 'anon' } });
  });

  it('is authenticated with sub and session_id for a verified user', () => {
    expect(requestClaims({ userId: USER, sessionId: SESSION })).toEqual({
      role: 'authenticated',
      claims: { role: 'authenticated', sub: USER, session_id: SESSION },
    });
  });

  it('carries guest_id with the hash of its secret; with a user only when the handler names both (the transfer)', () => {
    expect(requestClaims({ guestId: GUEST, guestSecretHash: HASH }).claims).toEqual({
      role: 'anon',
      guest_id: GUEST,
      guest_secret_hash: HASH,
    });
    expect(requestClaims({ guestId: GUEST }).claims).toEqual({ role: 'anon', guest_id: GUEST });
    expect(requestClaims({ userId: USER, sessionId: SESSION, guestId: GUEST, guestSecretHash: HASH }).claims).toEqual({
      role: 'authenticated',
      sub: USER,
      session_id: SESSION,
      guest_id: GUEST,
      guest_secret_hash: HASH,
    });
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

describe('guest secrets', () => {
  it('are 32 random bytes in base64url (43 characters), different every time', () => {
    const secrets = Array.from({ length: 50 }, () => newSecretToken());
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(50);
  });

  it('are stored as their lower-case hex SHA-256', async () => {
    // sha256("abc"), the FIPS 180-2 test vector.
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

import { describe, expect, it } from 'vitest';
import { canInvite, isPlanHost } from './plan-access';

describe('plan access', () => {
  const closed = { hostId: 'u1', isOpenInvite: false };

  it('knows the host by id', () => {
    expect(isPlanHost(closed, 'u1')).toBe(true);
    expect(isPlanHost(closed, 'u2')).toBe(false);
    expect(isPlanHost(closed, undefined)).toBe(false);
  });

  it('lets only the host invite unless invitations are open', () => {
    expect(canInvite(closed, 'u1')).toBe(true);
    expect(canInvite(closed, 'u2')).toBe(false);
    expect(canInvite({ ...closed, isOpenInvite: true }, 'u2')).toBe(true);
  });
});

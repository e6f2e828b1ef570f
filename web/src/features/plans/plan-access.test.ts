import { describe, expect, it } from 'vitest';
import { canInvite, isPlanHost, planRoleOf } from './plan-access';

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

  it('knows a co-host by the participants list, and nobody else', () => {
    const people = [
      { userId: 'u1', role: 'host' as const },
      { userId: 'u2', role: 'cohost' as const },
      { userId: 'u3', role: null },
      { userId: null, role: null },
    ];
    expect(planRoleOf(closed, people, 'u1')).toBe('host');
    expect(planRoleOf(closed, undefined, 'u1')).toBe('host');
    expect(planRoleOf(closed, people, 'u2')).toBe('cohost');
    expect(planRoleOf(closed, undefined, 'u2')).toBeNull();
    expect(planRoleOf(closed, people, 'u3')).toBeNull();
    expect(planRoleOf(closed, people, undefined)).toBeNull();
  });
});

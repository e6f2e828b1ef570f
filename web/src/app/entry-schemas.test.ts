import { beforeAll, describe, expect, it, vi } from 'vitest';

// The app's entry carries these schema modules; building a zod schema is most
// of what parsing with it once costs, so none is built when the app's code is
// evaluated, only when an answer is first parsed (docs/performance.md).
const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('zod/mini', async (importOriginal) => {
  const zod = await importOriginal<typeof import('zod/mini')>();
  const object: typeof zod.z.object = (...args) => {
    built.count += 1;
    return zod.z.object(...args);
  };
  return { ...zod, z: { ...zod.z, object } };
});

describe("the entry's answer schemas", () => {
  let modules: {
    auth: typeof import('../../../supabase/functions/_shared/contract/auth');
    signIn: typeof import('../features/auth/schema');
    guests: typeof import('../../../supabase/functions/_shared/contract/guests');
    plans: typeof import('../../../supabase/functions/_shared/contract/plans');
  };

  beforeAll(async () => {
    modules = {
      auth: await import('../../../supabase/functions/_shared/contract/auth'),
      signIn: await import('../features/auth/schema'),
      guests: await import('../../../supabase/functions/_shared/contract/guests'),
      plans: await import('../../../supabase/functions/_shared/contract/plans'),
    };
  });

  it('are not built when their modules load', () => {
    expect(built.count).toBe(0);
  });

  it('are built on first use, once, and parse as before', () => {
    const plan = { id: 'p1', slug: 's', title: 'Bowling', isOpenInvite: true, status: 'planning', hostId: 'h', participantCount: 2 };
    expect(modules.plans.planSchema.parse(plan)).toEqual(plan);
    const afterFirst = built.count;
    expect(afterFirst).toBeGreaterThan(0);
    expect(modules.plans.planSchema.parse({ ...plan, lockedTimeSlot: { id: 't', date: '2026-12-01', period: null } }).lockedTimeSlot?.date).toBe('2026-12-01');
    expect(built.count).toBe(afterFirst);
    expect(modules.plans.planSchema.safeParse({ ...plan, status: 'paused' }).success).toBe(false);
    expect(modules.plans.planSummaryListSchema.parse([{ ...plan, participants: [{ id: 'u', name: 'Ann', isGuest: false }] }])[0].participants).toHaveLength(1);
    expect(modules.guests.guestCredentialsSchema.safeParse({ id: 'g', name: 'Bo', planId: 'p1', secret: '' }).success).toBe(false);
    expect(modules.auth.userSchema.parse({ id: 'u', email: 'a@b.co' })).toEqual({ id: 'u', email: 'a@b.co' });
    expect(modules.signIn.checkEmail(' not-an-address ')).toEqual({ ok: false, error: 'Enter a valid email address' });
    expect(modules.signIn.checkEmail(' ann@example.com ')).toEqual({ ok: true, email: 'ann@example.com' });
  });
});

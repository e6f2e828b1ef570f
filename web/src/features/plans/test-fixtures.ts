import type { Participant, Plan, PlanSummary } from '../../../../supabase/functions/_shared/contract/plans';

// API-shaped data for component tests (what the network answers, not props).

export const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };
export const ben = { id: 'u2', email: 'ben@example.com', firstName: 'Ben', lastName: null };

export function planJson(overrides: Partial<Plan> = {}): Plan {
  return {
    id: 'p1',
    slug: 'abcDEF12',
    title: 'Friday night',
    description: null,
    isOpenInvite: true,
    status: 'planning',
    hostId: ada.id,
    location: null,
    eventTime: null,
    lockedIdeaId: null,
    lockedTimeSlotId: null,
    lockedTimeSlotDate: null,
    participantCount: 1,
    ...overrides,
  };
}

export function planSummaryJson(overrides: Partial<PlanSummary> = {}): PlanSummary {
  return { ...planJson(), lockedIdeaText: null, lockedTimeSlot: null, participants: [], ...overrides };
}

export function participantJson(name: string, index: number, isGuest = false): Participant {
  return {
    id: `pp${index}`,
    name,
    userId: isGuest ? null : `user${index}`,
    guestId: isGuest ? `guest${index}` : null,
    isGuest,
    role: null,
  };
}

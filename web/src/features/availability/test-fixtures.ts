import type { MyDateAnswers, TimeSlot, Voter } from '../../../../supabase/functions/_shared/contract/dates';

// API-shaped slots and voters for component tests.

export function slotJson(id: string, date: string, voteCount: number, period: string | null = null): TimeSlot {
  return { id, date, period, voteCount };
}

/** Voters by name; 'Cy (guest)' is the guest Cy. */
export function votersJson(...names: string[]): Voter[] {
  return names.map((name, index) => ({ id: `v${index}`, name: name.replace(/ \(guest\)$/, ''), isGuest: name.endsWith(' (guest)') }));
}

/** GET my-votes?answers=true: the slots said yes to, those said "if need be" to, and "none of these dates work". */
export function myAnswersJson(yes: string[] = [], ifNeedBe: string[] = [], noDates = false): MyDateAnswers {
  return {
    answers: [
      ...yes.map((timeSlotId) => ({ timeSlotId, answer: 'yes' as const })),
      ...ifNeedBe.map((timeSlotId) => ({ timeSlotId, answer: 'ifneedbe' as const })),
    ],
    noDates,
  };
}

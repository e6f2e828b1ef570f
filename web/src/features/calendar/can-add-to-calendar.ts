import type { CalendarPlan } from './calendar-plan';

// Kept apart from plan-event.ts so that deciding whether to show the menu
// never loads the calendar code (and `ics`) with the plan page.

/** Spec §2: 'Add to Calendar' exists once an idea and a time slot are both locked. */
export function canAddToCalendar(
  plan: Pick<CalendarPlan, 'lockedIdeaId' | 'lockedTimeSlotId' | 'lockedTimeSlotDate' | 'lockedTimeSlot'>,
): boolean {
  return Boolean(plan.lockedIdeaId && plan.lockedTimeSlotId && (plan.lockedTimeSlot?.date ?? plan.lockedTimeSlotDate));
}

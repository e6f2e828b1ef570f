import { formatLongDate, formatShortDate } from '../../lib/local-date';
import { formatPeriod } from '../../lib/shared-periods';
import type { Plan, PlanSummary } from '../../../../supabase/functions/_shared/contract/plans';

/**
 * The home card's time, 'Sat, Mar 14 · 7:00 PM': only for a completed plan
 * with a locked slot (spec §4). The host's event time wins over the slot's period.
 */
export function formatCardTime(plan: Pick<PlanSummary, 'status' | 'eventTime' | 'lockedTimeSlot'>): string | null {
  if (plan.status !== 'completed' || !plan.lockedTimeSlot) return null;
  const time = plan.eventTime?.trim() || formatPeriod(plan.lockedTimeSlot.period);
  const date = formatShortDate(plan.lockedTimeSlot.date);
  return time ? `${date} · ${time}` : date;
}

/** The status card's 'When': 'Saturday, March 14, 2026 at 7:00 PM', the date alone, or null. */
export function formatMeetingTime(plan: Pick<Plan, 'lockedTimeSlotDate' | 'eventTime'>): string | null {
  if (!plan.lockedTimeSlotDate) return null;
  const date = formatLongDate(plan.lockedTimeSlotDate);
  const time = plan.eventTime?.trim();
  return time ? `${date} at ${time}` : date;
}

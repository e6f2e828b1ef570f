import { formatLongDate } from '../../lib/local-date';
import { formatPeriod } from '../../lib/shared-periods';
import { planLinkUrl } from '../../lib/share-links';
import type { Plan } from '../plans';

/** The text 'Share Details' sends (spec §2 Final Time Set): what, when, where and the plan's link. */
export function eventDetailsText(
  plan: Pick<Plan, 'id' | 'title' | 'slug' | 'location' | 'lockedIdeaText' | 'lockedTimeSlot' | 'lockedTimeSlotDate'>,
  origin: string,
): string {
  const date = plan.lockedTimeSlot?.date ?? plan.lockedTimeSlotDate;
  const period = formatPeriod(plan.lockedTimeSlot?.period);
  const lines = [plan.title.trim(), `What: ${plan.lockedIdeaText?.trim() || plan.title.trim()}`];
  if (date) lines.push(`When: ${formatLongDate(date)}${period ? ` at ${period}` : ''}`);
  const location = plan.location?.trim();
  if (location) lines.push(`Where: ${location}`);
  lines.push(planLinkUrl(origin, plan));
  return lines.join('\n');
}

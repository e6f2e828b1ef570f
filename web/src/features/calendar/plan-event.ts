// The "Add to Calendar" event of a plan (spec §3 Calendar event, §9 calendar
// hours; docs/api.md "Dates, times and calendar"). The event itself, the .ics
// and the Google link come from the API's own pure module
// (supabase/functions/_shared/contract/calendar.ts, which uses `ics`), so the file a
// visitor downloads is the one the "time is set" e-mail attaches.
import {
  buildCalendarEvent,
  type CalendarEvent,
  googleCalendarUrl,
  icsFileName,
  planEventUid,
  toIcs,
} from '../../../../supabase/functions/_shared/contract/calendar.ts';
import { planLinkUrl } from '../../lib/share-links';
import type { CalendarPlan } from './calendar-plan';
import { canAddToCalendar } from './can-add-to-calendar';

export type { CalendarEvent };
export { canAddToCalendar, googleCalendarUrl, icsFileName };

/** The event, or null while the plan has no locked idea and slot. */
export function planCalendarEvent(plan: CalendarPlan, origin: string): CalendarEvent | null {
  const date = plan.lockedTimeSlot?.date ?? plan.lockedTimeSlotDate;
  if (!canAddToCalendar(plan) || !date) return null;
  return buildCalendarEvent({
    planTitle: plan.title,
    ideaText: plan.lockedIdeaText,
    location: plan.location,
    planUrl: planLinkUrl(origin, plan),
    date,
    eventTime: plan.eventTime,
    period: plan.lockedTimeSlot?.period ?? null,
    timeZone: plan.timeZone,
    // A cancelled plan's file cancels the event a calendar already has (same UID, higher SEQUENCE).
    status: plan.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED',
  });
}

/**
 * The same UID as the e-mailed invite and the personal feed, with the plan's
 * current calendar sequence, so a calendar updates one event (and a later
 * e-mail or the feed updates the one downloaded here).
 */
export function planIcs(plan: Pick<CalendarPlan, 'id' | 'calendarSequence'>, event: CalendarEvent): string {
  return toIcs(event, {
    uid: planEventUid(plan.id),
    ...(typeof plan.calendarSequence === 'number' ? { sequence: plan.calendarSequence } : {}),
  });
}

/** Saves the .ics through a Blob link (works in every browser, no server round trip). */
export function downloadIcs(ics: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL dies.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

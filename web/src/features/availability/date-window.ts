// Which days a visitor can vote on (docs/api.md
// "Time slots and the lock flow"): the 'Next 2 Weeks' picker offers today and the 13 days after it; the
// Date Picker reaches further, up to the server's limit. "Today" is the
// visitor's local day, as 'YYYY-MM-DD' (a calendar date with no time zone).
import { addDays, formatIsoDate, parseCalendarDate } from '../../lib/shared-periods';

/** Spec §9 'Next 2 Weeks': today + 13 days. */
const NEXT_TWO_WEEKS_DAYS = 14;
/**
 * The server accepts dates up to 366 days after ITS today; 365 after the
 * visitor's today stays inside that in every time zone.
 */
const MAX_DAYS_AHEAD = 365;

/** The visitor's local calendar day. */
export function localToday(now: Date = new Date()): string {
  return formatIsoDate({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });
}

/** The device's IANA time zone, whose days localToday() counts. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** 'YYYY-MM-DD' `days` after `date` (which must be a real calendar date). */
export function plusDays(date: string, days: number): string {
  const parts = parseCalendarDate(date);
  if (!parts) throw new Error(`Not a calendar date: ${date}`);
  return formatIsoDate(addDays(parts, days));
}

/** The 14 days of the 'Next 2 Weeks' picker, starting today. */
export function nextTwoWeeks(today: string): string[] {
  return Array.from({ length: NEXT_TWO_WEEKS_DAYS }, (_, index) => plusDays(today, index));
}

/** The Date Picker's window: today up to MAX_DAYS_AHEAD days ahead. */
export function votingWindow(today: string): { minDate: string; maxDate: string } {
  return { minDate: today, maxDate: plusDays(today, MAX_DAYS_AHEAD) };
}

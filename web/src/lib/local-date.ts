// Calendar dates travel as 'YYYY-MM-DD' with no time zone (the group's local
// day). `new Date('2026-03-14')` would read them as UTC midnight, which is the
// previous day west of Greenwich, so they are always built from their parts.

import { TIME_ZONE_NAME } from '../../../supabase/functions/_shared/contract/zoned-time';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local-midnight Date of 'YYYY-MM-DD', or null when it is not a real date. */
export function parseLocalDate(value: string): Date | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  // Rejects 2026-02-30 and the like, which Date would roll into March.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

function format(value: string, options: Intl.DateTimeFormatOptions): string {
  const date = parseLocalDate(value);
  return date ? date.toLocaleDateString('en-US', options) : value;
}

/** 'Sat, Mar 14' (spec §1: US English). An unreadable value is shown as is. */
export function formatShortDate(value: string): string {
  return format(value, { weekday: 'short', month: 'short', day: 'numeric' });
}

const momentFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A moment (an ISO timestamp) in the viewer's time zone: 'Mar 14, 7:05 PM'; '' when unreadable. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : momentFormat.format(date);
}

/** 'Saturday, March 14, 2026': the API's own (e-mails and calendar files say it the same way). */
export { formatLongDate } from './shared-periods';

const clockFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** Some ICU versions put a narrow no-break space before AM/PM; the app's texts use a plain one. */
export const plainSpaces = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/** '7:42 PM'. */
export function formatClock(moment: Date): string {
  return plainSpaces(clockFormat.format(moment));
}

const isSameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** '7:42 PM', 'yesterday at 7:42 PM', 'tomorrow at 7:42 AM', else 'Nov 28 at 7:42 PM'. */
function relativeClock(moment: Date, now: Date): { day: string; time: string } {
  const time = formatClock(moment);
  if (isSameDay(moment, now)) return { day: '', time };
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (isSameDay(moment, yesterday)) return { day: 'yesterday', time };
  if (isSameDay(moment, tomorrow)) return { day: 'tomorrow', time };
  return { day: plainSpaces(moment.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })), time };
}

/** 'at 7:42 PM', 'yesterday at 7:42 PM', 'tomorrow at 7:42 AM', 'Nov 28 at 7:42 PM'. */
export const atClock = (moment: Date, now: Date): string => {
  const { day, time } = relativeClock(moment, now);
  return day ? `${day} at ${time}` : `at ${time}`;
};

/**
 * The IANA zone of this device's clock ('Europe/Berlin'), sent with the time
 * the host sets so that calendars place it at the host's hour
 * (docs/decisions/0074); null when the browser names none.
 */
export function deviceTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && TIME_ZONE_NAME.test(zone) ? zone : null;
  } catch {
    return null;
  }
}

// The visitor's own calendar in their availability (docs/calendars.md "Your
// calendar in your availability", decisions 0073 and 0088): what an imported
// .ics file leaves behind, the busy hours of each local day, and how they are
// said. This file has no iCalendar parser: busy-calendar-parse.ts (ical.js)
// runs only in the calendar worker (busy-calendar-worker.ts), started when a
// file is picked.

// The sentences of a file that gives no busy days, said by the page and by the worker.
export const NOT_A_CALENDAR = "That file isn't a calendar (.ics) file.";
export const UNREADABLE_CALENDAR = "That calendar file couldn't be read. It may be damaged: try exporting it again.";
/** Over the reading budget (decision 0088): too many repeats to expand, or too long in all. */
export const CALENDAR_TOO_SLOW = 'That calendar file takes too long to read: try exporting a shorter period or fewer calendars.';
/** The device could not hand the file over (moved, or no permission). */
export const FILE_UNREADABLE = "Couldn't read that file. Try picking it again.";

/** Minutes after the day's local midnight, [start, end): 0–1440. */
export type BusyRange = readonly [start: number, end: number];

/** The busy ranges of each local day ('YYYY-MM-DD'), sorted and merged; only days with some. */
export type BusyDays = Readonly<Record<string, readonly BusyRange[]>>;

export const MINUTES_PER_DAY = 1440;

/** What the device keeps for a plan after an import: no event, title or place, only busy hours. */
export interface CalendarImport {
  fileName: string;
  /** ISO timestamp. */
  importedAt: string;
  /** The window the busy days were computed for, 'YYYY-MM-DD' both ends. */
  from: string;
  to: string;
  days: BusyDays;
}

export const isAllDay = (ranges: readonly BusyRange[]) =>
  ranges.length === 1 && ranges[0]![0] === 0 && ranges[0]![1] === MINUTES_PER_DAY;

/** '7 PM', '7:30 PM', '12 AM' (midnight), '12 PM' (noon). */
export function clockLabel(minutes: number): string {
  const hour24 = Math.floor(minutes / 60) % 24;
  const minute = minutes % 60;
  const hour = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour}${minute ? `:${String(minute).padStart(2, '0')}` : ''} ${hour24 < 12 ? 'AM' : 'PM'}`;
}

function rangeLabel([start, end]: BusyRange): string {
  if (start === 0) return `until ${clockLabel(end)}`;
  if (end === MINUTES_PER_DAY) return `from ${clockLabel(start)}`;
  return `${clockLabel(start)}–${clockLabel(end)}`;
}

const joinList = (items: string[]) =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * How a day's busy hours are said in its accessible name: 'busy all day',
 * 'busy 9 AM–5 PM', 'busy until 1 AM and 7 PM–9 PM', 'busy from 10 PM'
 * (a range that runs past midnight is cut at it, so each day says its own).
 */
export function busyLabel(ranges: readonly BusyRange[]): string {
  if (ranges.length === 0) return '';
  if (isAllDay(ranges)) return 'busy all day';
  return `busy ${joinList(ranges.map(rangeLabel))}`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Busy days in [from, to] of an import. */
export function busyDayCount(days: BusyDays, from: string, to: string): number {
  return Object.keys(days).filter((date) => date >= from && date <= to).length;
}

/**
 * The summary after an import: 'From work.ics: 3 busy days in the next 2
 * weeks, 41 in the next year.' ('no busy days in the next year' when none).
 */
export function importSummary(
  calendar: Pick<CalendarImport, 'fileName' | 'days'>,
  { today, twoWeeksEnd, yearEnd }: { today: string; twoWeeksEnd: string; yearEnd: string },
): string {
  const soon = busyDayCount(calendar.days, today, twoWeeksEnd);
  const year = busyDayCount(calendar.days, today, yearEnd);
  if (year === 0) return `From ${calendar.fileName}: no busy days in the next year.`;
  const soonText = soon === 0 ? 'no busy days in the next 2 weeks' : `${count(soon, 'busy day', 'busy days')} in the next 2 weeks`;
  return `From ${calendar.fileName}: ${soonText}, ${year} in the next year.`;
}

// Calendar dates and periods of the day: parsing, validation and display
// (spec §3 Time slot, §9; docs/api.md "Time slots and the lock flow",
// "Dates, times and calendar").
//
// Pure on purpose: no Deno, Node or DOM API and no imports, so the API and the
// web app can share the exact same rules (the web app may import this file or
// copy it). Calendar dates are plain 'YYYY-MM-DD' values with no time zone (the
// group's local day): they are never turned into a `Date` at local midnight,
// only into UTC dates for arithmetic and formatting, which cannot shift a day.

/** The named periods of a time slot, in the order of the day. */
const NAMED_PERIODS = ['Morning', 'Afternoon', 'Evening', 'Night'] as const;
type NamedPeriod = (typeof NAMED_PERIODS)[number];

/** A time of day, 0-23 hours and 0-59 minutes. */
export interface ClockTime {
  hour: number;
  minute: number;
}

/** A calendar date's parts (month 1-12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Spec §9: how a named period is shown, and the hour it starts at. */
const PERIOD_DISPLAY: Record<NamedPeriod, string> = {
  Morning: '9AM',
  Afternoon: '2PM',
  Evening: '7PM',
  Night: '9PM',
};

/** Spec §9 calendar hours of a named period: [start hour, end hour). */
const PERIOD_HOURS: Record<NamedPeriod, [number, number]> = {
  Morning: [9, 12],
  Afternoon: [13, 17],
  Evening: [18, 22],
  Night: [19, 23],
};

/** Where a period sorts within its day (minutes after midnight; -1 = whole day). */
const PERIOD_SORT_MINUTES: Record<NamedPeriod, number> = {
  Morning: 9 * 60,
  Afternoon: 14 * 60,
  Evening: 19 * 60,
  Night: 21 * 60,
};

/** The hours of a slot without a usable period (spec §9 "default 9-12"). */
const DEFAULT_PERIOD_HOURS: [number, number] = [9, 12];
/** A clock time gives an event of this length (spec §9). */
const CLOCK_EVENT_HOURS = 2;
/** The start when a time string cannot be read (spec §9). */
const DEFAULT_EVENT_TIME: ClockTime = { hour: 19, minute: 0 };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** 24-hour 'H:mm' or 'HH:mm'. */
const CLOCK_24 = /^([01]?\d|2[0-3]):([0-5]\d)$/;
/** 12-hour '7PM', '7 pm', '7:30PM', '7:30 PM', '12:05 a.m.'. */
const CLOCK_12 = /^(0?[1-9]|1[0-2])(?::([0-5]\d))?\s*([ap])\.?\s*m\.?$/i;

function isNamedPeriod(value: unknown): value is NamedPeriod {
  return typeof value === 'string' && (NAMED_PERIODS as readonly string[]).includes(value);
}

/** 'HH:mm' / 'H:mm' 24-hour, else null. */
export function parse24HourTime(value: string): ClockTime | null {
  const match = CLOCK_24.exec(value.trim());
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

/**
 * Any time a person or the API writes: 24-hour 'H:mm'/'HH:mm' (a slot's
 * period), or 12-hour 'h:mm AM/PM' (a plan's eventTime) with or without
 * minutes or a space ('7PM', '7:30 pm'). Null when unreadable.
 */
export function parseClockTime(value: string | null | undefined): ClockTime | null {
  if (!value) return null;
  const text = value.trim();
  const h24 = parse24HourTime(text);
  if (h24) return h24;
  const match = CLOCK_12.exec(text);
  if (!match) return null;
  const hour12 = Number(match[1]);
  const pm = match[3].toLowerCase() === 'p';
  return { hour: (hour12 % 12) + (pm ? 12 : 0), minute: Number(match[2] ?? 0) };
}

/** The period form of a clock time: 'H:mm' 24-hour, no leading zero ('7:05', '19:30'). */
export function toPeriodTime({ hour, minute }: ClockTime): string {
  return `${hour}:${String(minute).padStart(2, '0')}`;
}

/**
 * A period as stored: a named period (any letter case in, canonical out), a
 * clock time normalised to 'H:mm', or null for blank / absent (whole day).
 * `undefined` when the value is not a period at all.
 */
export function normalizePeriod(value: string | null | undefined): string | null | undefined {
  if (value == null) return null;
  const text = value.trim();
  if (!text) return null;
  const named = NAMED_PERIODS.find((p) => p.toLowerCase() === text.toLowerCase());
  if (named) return named;
  const time = parse24HourTime(text);
  return time ? toPeriodTime(time) : undefined;
}

/** '7PM' for 19:00, '7:30PM' for 19:30, '12AM' for 0:00 (spec §9 "7PM"). */
function formatCompactTime({ hour, minute }: ClockTime): string {
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  const suffix = hour < 12 ? 'AM' : 'PM';
  return minute === 0 ? `${hour12}${suffix}` : `${hour12}:${String(minute).padStart(2, '0')}${suffix}`;
}

/**
 * How a slot's period is shown (spec §9): Morning '9AM', Afternoon '2PM',
 * Evening '7PM', Night '9PM'; a clock time in compact 12-hour form ('19:00' is
 * '7PM', '19:30' is '7:30PM'); '' for a whole-day slot; anything else as is.
 */
export function formatPeriod(period: string | null | undefined): string {
  if (!period) return '';
  if (isNamedPeriod(period)) return PERIOD_DISPLAY[period];
  const time = parse24HourTime(period);
  return time ? formatCompactTime(time) : period;
}

/** 'h:mm AM/PM', e.g. '7:00 PM', '12:30 AM' (the plan's eventTime, spec §3/§5). */
export function format12HourTime({ hour, minute }: ClockTime): string {
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** 'HH:mm' 24-hour → 'h:mm AM/PM' ('19:30' → '7:30 PM'); null when not a 24-hour time. */
export function to12HourTime(value: string): string | null {
  const time = parse24HourTime(value);
  return time ? format12HourTime(time) : null;
}

/** Minutes after midnight where a period sorts in its day; whole day (null) first. */
export function periodSortMinutes(period: string | null | undefined): number {
  if (!period) return -1;
  if (isNamedPeriod(period)) return PERIOD_SORT_MINUTES[period];
  const time = parse24HourTime(period);
  return time ? time.hour * 60 + time.minute : 24 * 60;
}

/**
 * The start and end of a calendar event for a slot's period (spec §9): named
 * periods by the table, a clock time for CLOCK_EVENT_HOURS, anything else
 * (whole day, unknown) DEFAULT_PERIOD_HOURS. `end` may pass midnight
 * (hour >= 24): the caller moves it to the next day.
 */
export function periodHours(period: string | null | undefined): { start: ClockTime; end: ClockTime } {
  if (isNamedPeriod(period)) {
    const [from, to] = PERIOD_HOURS[period];
    return { start: { hour: from, minute: 0 }, end: { hour: to, minute: 0 } };
  }
  const time = period ? parse24HourTime(period) : null;
  if (time) return clockTimeHours(time);
  const [from, to] = DEFAULT_PERIOD_HOURS;
  return { start: { hour: from, minute: 0 }, end: { hour: to, minute: 0 } };
}

/** A clock time's event: CLOCK_EVENT_HOURS long (the end hour may be >= 24). */
function clockTimeHours(start: ClockTime): { start: ClockTime; end: ClockTime } {
  return { start, end: { hour: start.hour + CLOCK_EVENT_HOURS, minute: start.minute } };
}

/** The hours of an event time text ('7:00 PM', '19:30'); unreadable text starts at 19:00 (spec §9). */
export function eventTimeHours(eventTime: string | null | undefined): { start: ClockTime; end: ClockTime } {
  return clockTimeHours(parseClockTime(eventTime) ?? DEFAULT_EVENT_TIME);
}

// ---------------------------------------------------------------------------
// Calendar dates 'YYYY-MM-DD'
// ---------------------------------------------------------------------------

/** The parts of a real calendar date 'YYYY-MM-DD' (year 1-9999), else null: '2026-02-30' is null. */
export function parseCalendarDate(value: string): CalendarDate | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  return day <= daysInMonth(year, month) ? { year, month, day } : null;
}

export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && parseCalendarDate(value) !== null;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** A UTC Date for the date's parts: arithmetic and formatting without any local shift. */
function utcDate({ year, month, day }: CalendarDate): Date {
  const date = new Date(Date.UTC(2000, 0, 1));
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 1-99 as they are
  return date;
}

/** The date `days` later (or earlier when negative). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = utcDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 'YYYY-MM-DD'. */
export function formatIsoDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 'Saturday, March 14, 2026' (en-US, docs/api.md "Dates, times and calendar"); an unreadable value is returned as is. */
export function formatLongDate(value: string): string {
  const date = parseCalendarDate(value);
  if (!date) return value;
  return utcDate(date).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

// Reads an iCalendar file (RFC 5545) into the busy hours of each of the
// visitor's local days in a window (decision 0073). Runs in the calendar
// worker (busy-calendar-worker.ts, decision 0088), on a file the visitor
// picked; nothing here touches the network or storage, and no page imports it
// (it carries ical.js).
import ICAL from 'ical.js';
import { addDays, formatIsoDate, parseCalendarDate, type CalendarDate } from '../../lib/shared-periods';
import {
  CALENDAR_TOO_SLOW,
  FILE_UNREADABLE,
  MINUTES_PER_DAY,
  NOT_A_CALENDAR,
  UNREADABLE_CALENDAR,
  type BusyDays,
  type BusyRange,
} from './busy-calendar';
import { WINDOWS_TIME_ZONES } from './windows-zones';
import { instantOf, isKnownTimeZone, wallClockAt, type WallClock } from '../../../../supabase/functions/_shared/contract/zoned-time.ts';

type Time = InstanceType<typeof ICAL.Time>;
type Component = InstanceType<typeof ICAL.Component>;
type CalEvent = InstanceType<typeof ICAL.Event>;

export { CALENDAR_TOO_SLOW, NOT_A_CALENDAR, UNREADABLE_CALENDAR };

/** The file is not an iCalendar file, one ical.js cannot read, or one over the budget: its message is the sentence to show. */
export class CalendarFileError extends Error {
  constructor(message: typeof NOT_A_CALENDAR | typeof UNREADABLE_CALENDAR | typeof CALENDAR_TOO_SLOW) {
    super(message);
    this.name = 'CalendarFileError';
  }
}

export interface BusyWindow {
  /** The first and last local day to mark, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  /** The device's IANA time zone: the visitor's days are its days. */
  timeZone: string;
}

/**
 * How much expanding a file may take (decision 0088; docs/calendars.md). A
 * series is expanded this far at most, in or out of the window (an hourly
 * series since 2010 is cut short: it adds nothing); the whole file steps
 * through at most `total` occurrences (every single event and every step of
 * every series), past which it is refused with CALENDAR_TOO_SLOW. The time
 * budget is the page's (read-calendar-file.ts): ical.js can loop without end
 * inside one step, which only ending the worker stops.
 */
export interface ExpansionBudget {
  perSeries: number;
  total: number;
}
export const EXPANSION_BUDGET: ExpansionBudget = { perSeries: 50_000, total: 500_000 };
const DAY_MS = 86_400_000;

/**
 * The IANA zone a TZID stands for: an IANA name the browser knows, a Windows
 * name (Outlook), or an IANA name behind a prefix
 * ('/mozilla.org/20050126_1/Europe/Berlin'); undefined otherwise.
 */
export function ianaZoneOf(tzid: unknown): string | undefined {
  if (typeof tzid !== 'string') return undefined;
  const name = tzid.trim();
  if (!name) return undefined;
  if (isKnownTimeZone(name)) return name;
  const windows = WINDOWS_TIME_ZONES[name];
  if (windows) return windows;
  const segments = name.split('/').filter(Boolean);
  for (let index = 1; index < segments.length - 1; index++) {
    const candidate = segments.slice(index).join('/');
    if (isKnownTimeZone(candidate)) return candidate;
  }
  return undefined;
}

const dateOf = (time: Time): CalendarDate => ({ year: time.year, month: time.month, day: time.day });
const clockOf = (time: Time): WallClock => ({
  year: time.year,
  month: time.month,
  day: time.day,
  hour: time.hour,
  minute: time.minute,
  second: time.second,
});

/** Sorted, overlapping or touching ranges joined, empty ones dropped, clamped to the day. */
export function mergeRanges(ranges: readonly BusyRange[]): BusyRange[] {
  const sorted = ranges
    .map(([start, end]) => [Math.max(0, start), Math.min(MINUTES_PER_DAY, end)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Days and minutes collected before merging. */
class BusyCollector {
  readonly #days = new Map<string, BusyRange[]>();
  readonly #startMs: number;
  readonly #endMs: number;

  constructor(readonly window: BusyWindow) {
    const from = parseCalendarDate(window.from);
    const to = parseCalendarDate(window.to);
    if (!from || !to) throw new Error(`Not a window: ${window.from}–${window.to}`);
    this.#startMs = instantOf({ ...from, hour: 0, minute: 0, second: 0 }, window.timeZone);
    this.#endMs = instantOf({ ...addDays(to, 1), hour: 0, minute: 0, second: 0 }, window.timeZone);
  }

  /** The window as instants, [start, end). */
  get startMs() {
    return this.#startMs;
  }
  get endMs() {
    return this.#endMs;
  }

  #add(date: string, range: BusyRange) {
    if (date < this.window.from || date > this.window.to) return;
    const ranges = this.#days.get(date);
    if (ranges) ranges.push(range);
    else this.#days.set(date, [range]);
  }

  /** Whole days, `start` to `endExclusive` (DATE values: DTEND is the day after the last). */
  addDates(start: CalendarDate, endExclusive: CalendarDate) {
    let day = start;
    let last = formatIsoDate(addDays(endExclusive, -1));
    if (last < formatIsoDate(start)) last = formatIsoDate(start); // an all-day event ending where it starts: one day
    if (last > this.window.to) last = this.window.to;
    if (formatIsoDate(day) < this.window.from) day = parseCalendarDate(this.window.from)!;
    for (let iso = formatIsoDate(day); iso <= last; day = addDays(day, 1), iso = formatIsoDate(day)) {
      this.#add(iso, [0, MINUTES_PER_DAY]);
    }
  }

  /** The instants [startMs, endMs), cut at each local midnight of the device's zone. */
  addInstants(startMs: number, endMs: number) {
    const start = Math.max(startMs, this.#startMs);
    const end = Math.min(endMs, this.#endMs);
    if (end <= start) return;
    const a = wallClockAt(start, this.window.timeZone);
    const b = wallClockAt(end, this.window.timeZone);
    const startDate = formatIsoDate(a);
    const endDate = formatIsoDate(b);
    const startMinute = a.hour * 60 + a.minute;
    const endMinute = b.hour * 60 + b.minute + (b.second > 0 ? 1 : 0);
    let day: CalendarDate = a;
    for (let iso = startDate; iso <= endDate; day = addDays(day, 1), iso = formatIsoDate(day)) {
      const from = iso === startDate ? startMinute : 0;
      const to = iso === endDate ? endMinute : MINUTES_PER_DAY;
      if (to > from) this.#add(iso, [from, to]);
    }
  }

  result(): BusyDays {
    const days: Record<string, BusyRange[]> = {};
    for (const date of [...this.#days.keys()].sort()) days[date] = mergeRanges(this.#days.get(date)!);
    return days;
  }
}

/** STATUS:CANCELLED, or TRANSP:TRANSPARENT (the person marked it "free"): not busy. */
function isNotBusy(component: Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const transparency = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  return status === 'CANCELLED' || transparency === 'TRANSPARENT';
}

/** Occurrences stepped through so far, against the file's budget. */
class Steps {
  #taken = 0;
  constructor(readonly budget: ExpansionBudget) {}

  /** One more occurrence; over the file's budget the whole file is refused. */
  take() {
    if (++this.#taken > this.budget.total) throw new CalendarFileError(CALENDAR_TOO_SLOW);
  }
}

interface CalendarContext {
  collector: BusyCollector;
  steps: Steps;
  /** The zone of floating times and of TZIDs neither the file nor the browser knows. */
  fallbackZone: string;
}

/**
 * The instant of a date-time. A zone the file defines (VTIMEZONE) or UTC is
 * ical.js's; a TZID it does not define is looked up in the browser's zones
 * (ical.js has none of its own); a floating time is read in the fallback zone.
 */
function instantOfTime(time: Time, tzid: unknown, context: CalendarContext): number {
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  return instantOf(clockOf(time), ianaZoneOf(tzid) ?? context.fallbackZone);
}

/** The TZID parameter of a component's property, if any. */
function tzidOf(component: Component, property: 'dtstart' | 'dtend'): unknown {
  return component.getFirstProperty(property)?.getParameter('tzid');
}

/** One occurrence (of a single event, a series, or an exception) into the collector. */
function addOccurrence(item: CalEvent, start: Time, end: Time | null, context: CalendarContext) {
  context.steps.take();
  if (isNotBusy(item.component)) return;
  if (start.isDate) {
    const endDate = end ? (end.isDate ? dateOf(end) : addDays(dateOf(end), 1)) : addDays(dateOf(start), 1);
    context.collector.addDates(dateOf(start), endDate);
    return;
  }
  const startTzid = tzidOf(item.component, 'dtstart');
  const startMs = instantOfTime(start, startTzid, context);
  const endMs = end ? instantOfTime(end, tzidOf(item.component, 'dtend') ?? startTzid, context) : startMs;
  // A zero-length event (a reminder at 9 AM) takes no time: not busy.
  context.collector.addInstants(startMs, endMs);
}

/** A rough instant of a time, ±14 hours (a floating time read as UTC): enough to skip and stop early. */
const roughMs = (time: Time) => time.toUnixTime() * 1000;

function addSeries(event: CalEvent, context: CalendarContext) {
  const { collector } = context;
  const durationMs = Math.max(0, event.duration.toSeconds() * 1000);
  const used = new Set<CalEvent>();
  const iterator = event.iterator();
  for (let count = 0; count < context.steps.budget.perSeries; count++) {
    const next = iterator.next();
    if (!next) break;
    const rough = roughMs(next);
    if (rough > collector.endMs + 2 * DAY_MS) break;
    if (rough + durationMs < collector.startMs - 2 * DAY_MS) {
      context.steps.take(); // a step before the window costs as much as one in it
      continue;
    }
    const details = event.getOccurrenceDetails(next);
    if (details.item !== event) used.add(details.item);
    addOccurrence(details.item, details.startDate, details.endDate, context);
  }
  // An exception whose original time was not reached (moved into the window
  // from beyond it, or off the series) is an event of its own.
  for (const exception of Object.values(event.exceptions)) {
    if (!used.has(exception)) addOccurrence(exception, exception.startDate, exception.endDate, context);
  }
}

function addEvent(event: CalEvent, context: CalendarContext) {
  if (!event.startDate) return; // no DTSTART: nothing to place
  if (event.isRecurring()) addSeries(event, context);
  else {
    addOccurrence(event, event.startDate, event.endDate, context);
    // Exceptions of an event that does not recur (its RRULE lost): each on its own.
    for (const exception of Object.values(event.exceptions)) addOccurrence(exception, exception.startDate, exception.endDate, context);
  }
}

function addCalendar(calendar: Component, collector: BusyCollector, steps: Steps) {
  const context: CalendarContext = {
    collector,
    steps,
    // Google and Apple name the calendar's zone in X-WR-TIMEZONE; a floating time is in it.
    fallbackZone: ianaZoneOf(calendar.getFirstPropertyValue('x-wr-timezone')) ?? collector.window.timeZone,
  };
  const events = calendar.getAllSubcomponents('vevent');
  // Exceptions (RECURRENCE-ID) go with the series of their UID, and only it.
  const exceptionsByUid = new Map<string, Component[]>();
  const orphans: Component[] = [];
  const masterUids = new Set<string>();
  for (const component of events) {
    const uid = component.getFirstPropertyValue('uid');
    if (!component.hasProperty('recurrence-id')) {
      if (typeof uid === 'string') masterUids.add(uid);
    } else if (typeof uid === 'string') {
      exceptionsByUid.set(uid, [...(exceptionsByUid.get(uid) ?? []), component]);
    } else orphans.push(component);
  }
  for (const [uid, exceptions] of exceptionsByUid) if (!masterUids.has(uid)) orphans.push(...exceptions);

  for (const component of events) {
    try {
      if (component.hasProperty('recurrence-id')) continue;
      const uid = component.getFirstPropertyValue('uid');
      const exceptions = typeof uid === 'string' ? (exceptionsByUid.get(uid) ?? []) : [];
      addEvent(new ICAL.Event(component, { strictExceptions: true, exceptions }), context);
    } catch (error) {
      skipUnreadable(error);
    }
  }
  // An exception whose series is not in the file (shared calendars export them so): an event of its own.
  for (const component of orphans) {
    try {
      const event = new ICAL.Event(component);
      addOccurrence(event, event.startDate, event.endDate, context);
    } catch (error) {
      skipUnreadable(error);
    }
  }
}

/** One unreadable event (a broken RRULE, a bad date) leaves the others; the budget ends the file. */
function skipUnreadable(error: unknown) {
  if (error instanceof CalendarFileError) throw error;
  console.warn('Skipped an event the calendar import could not read.', error);
}

/** The VCALENDAR components of a file, or a CalendarFileError. */
function readCalendars(text: string): Component[] {
  const source = text.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR\s*$/im.test(source)) throw new CalendarFileError(NOT_A_CALENDAR);
  let parsed: unknown;
  try {
    parsed = ICAL.parse(source);
  } catch {
    // ical.js reads the whole file at once: a broken line (an unknown FREQ, a bad date) stops it.
    throw new CalendarFileError(UNREADABLE_CALENDAR);
  }
  // One component is returned as it is, several as a list.
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : (parsed as unknown[])) as unknown[];
  const calendars = roots.map((jcal) => new ICAL.Component(jcal as never)).filter((root) => root.name === 'vcalendar');
  if (calendars.length === 0) throw new CalendarFileError(NOT_A_CALENDAR);
  return calendars;
}

/**
 * The busy hours of each local day in the window, from the text of an .ics
 * file: single, all-day and multi-day events, recurring series expanded
 * (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides), each time read in its own
 * zone and placed on the device's days. Cancelled and "free" (transparent)
 * events are left out. Throws a CalendarFileError for a file that is not one, or
 * that cannot be read.
 */
export function busyDaysFromIcs(text: string, window: BusyWindow, budget: ExpansionBudget = EXPANSION_BUDGET): BusyDays {
  const calendars = readCalendars(text);
  const collector = new BusyCollector(window);
  const steps = new Steps(budget);
  for (const calendar of calendars) addCalendar(calendar, collector, steps);
  return collector.result();
}

/** What the page asks the calendar worker: the picked file and the window to mark. */
export interface CalendarReadRequest {
  file: Blob;
  window: BusyWindow;
}

/** The worker's answer: the busy days, or the sentence to show. */
export type CalendarReadReply = { days: BusyDays } | { error: string };

/** The calendar worker's work (busy-calendar-worker.ts): read the file, then its busy days. */
export async function readCalendarRequest({ file, window }: CalendarReadRequest): Promise<CalendarReadReply> {
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { error: FILE_UNREADABLE };
  }
  try {
    return { days: busyDaysFromIcs(text, window) };
  } catch (failure) {
    if (failure instanceof CalendarFileError) return { error: failure.message };
    console.warn('The calendar import failed.', failure);
    return { error: UNREADABLE_CALENDAR };
  }
}

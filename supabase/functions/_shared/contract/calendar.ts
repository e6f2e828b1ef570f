// The calendar event of a plan whose time is set (spec §3 "Calendar event",
// §9 calendar hours; docs/api.md "Dates, times and calendar"), as an .ics
// file (the `ics` package) or a Google Calendar link.
//
// Pure: no Deno, Node or DOM API, only `ics`, ./periods.ts and ./text.ts, so the web app
// can build the same event for its "Add to Calendar" menu.
//
// Times are FLOATING local times: DTSTART:20260314T190000 with no 'Z' and no
// TZID, i.e. "7 PM wherever the group is". The plan stores a calendar date and
// a clock time with no time zone, so any conversion would only invent a shift.
import { createEvent } from 'ics';
import {
  type CalendarDate,
  type ClockTime,
  addDays,
  eventTimeHours,
  formatIsoDate,
  parseCalendarDate,
  periodHours,
} from './periods.ts';
import { plainText } from './text.ts';

/** A floating local date and time (no time zone). */
export interface LocalDateTime {
  date: CalendarDate;
  time: ClockTime;
}

export interface CalendarEvent {
  title: string;
  description: string;
  /** The plan's location, or null. */
  location: string | null;
  /** The plan's page. */
  url: string;
  start: LocalDateTime;
  end: LocalDateTime;
}

export interface CalendarEventInput {
  planTitle: string;
  /** The picked idea's text: the event's title when set. */
  ideaText?: string | null;
  location?: string | null;
  /** Link to the plan, e.g. `${APP_ORIGIN}/plan/{id}`. */
  planUrl: string;
  /** The locked date 'YYYY-MM-DD'. */
  date: string;
  /** The plan's eventTime ('7:00 PM'); wins over `period`. Unreadable: 19:00 (spec §9). */
  eventTime?: string | null;
  /** The locked slot's period (named, 'H:mm', or null); used when there is no eventTime. */
  period?: string | null;
}

/** Minutes from 00:00 of `date` (may be >= 24 h) → a date and time, the day moved as needed. */
function at(date: CalendarDate, time: ClockTime): LocalDateTime {
  const minutes = time.hour * 60 + time.minute;
  const days = Math.floor(minutes / (24 * 60));
  const rest = minutes - days * 24 * 60;
  return { date: addDays(date, days), time: { hour: Math.floor(rest / 60), minute: rest % 60 } };
}

/**
 * The event of a plan (docs/api.md "Dates, times and calendar"): title = the picked idea's text, else the
 * plan title; description names the plan and links to it; location = the
 * plan's location; hours: the event time for 2 hours, else the period's hours.
 * Throws on a date that is not 'YYYY-MM-DD' (a plan's locked date always is).
 */
export function buildCalendarEvent(input: CalendarEventInput): CalendarEvent {
  const date = parseCalendarDate(input.date);
  if (!date) throw new Error(`Not a calendar date: ${input.date}`);
  const hours = input.eventTime?.trim() ? eventTimeHours(input.eventTime) : periodHours(input.period);
  // User text on one line, with no CR or other control character (the `ics`
  // package escapes only \n; a bare CR would start a new property for some
  // readers) and no invisible bidi or zero-width character (./text.ts).
  const planTitle = plainText(input.planTitle);
  const idea = input.ideaText ? plainText(input.ideaText) : '';
  const location = input.location ? plainText(input.location) : '';
  const planUrl = plainText(input.planUrl);
  return {
    title: idea || planTitle,
    description: `Plan: ${planTitle}\nSee the plan on Hangplan: ${planUrl}`,
    location: location || null,
    url: planUrl,
    start: at(date, hours.start),
    end: at(date, hours.end),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '20260314T190000': the iCalendar floating DATE-TIME form (no 'Z', no TZID). */
export function icsDateTime({ date, time }: LocalDateTime): string {
  return `${formatIsoDate(date).replaceAll('-', '')}T${pad(time.hour)}${pad(time.minute)}00`;
}

interface IcsOptions {
  /** Stable per plan, so a calendar can recognise a later update of the same event. */
  uid?: string;
  /** DTSTAMP, ms since the epoch (default now). */
  timestamp?: number;
}

/**
 * The event as an iCalendar file (text/calendar, METHOD:PUBLISH). Start and
 * end are handed to `ics` as ready-made strings, which it writes verbatim: the
 * runtime's time zone can never shift them.
 */
export function toIcs(event: CalendarEvent, options: IcsOptions = {}): string {
  // Keys are only set when defined: `ics` merges its defaults (uid, DTSTAMP)
  // with Object.assign, so an explicit `undefined` would erase the default.
  const { error, value } = createEvent({
    productId: 'hangplan/calendar',
    ...(options.uid ? { uid: options.uid } : {}),
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    title: event.title,
    description: event.description,
    ...(event.location ? { location: event.location } : {}),
    url: event.url,
    start: icsDateTime(event.start),
    end: icsDateTime(event.end),
    status: 'CONFIRMED',
    busyStatus: 'BUSY',
  });
  if (error || !value) throw error ?? new Error('The calendar file could not be built');
  return value;
}

/** A Google Calendar "add event" link for the same event (floating times, as in the .ics). */
export function googleCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${icsDateTime(event.start)}/${icsDateTime(event.end)}`,
    details: event.description,
  });
  if (event.location) params.set('location', event.location);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** A file name for the .ics: the title in lower-case words, e.g. 'bowling-night.ics'. */
export function icsFileName(event: CalendarEvent): string {
  const slug = event.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'hangplan-event'}.ics`;
}

// The calendar event of a plan whose time is set (spec §3 "Calendar event",
// §9 calendar hours; docs/api.md "Dates, times and calendar"), as an .ics
// file (the `ics` package) or a Google Calendar link.
//
// Pure: no Deno, Node or DOM API, only `ics`, Intl and this folder, so the web
// app can build the same event for its "Add to Calendar" menu.
//
// The plan's time is the host's wall clock ("7:00 PM") in the zone of the
// browser that set it (the plan's timeZone, docs/decisions/0074): a timed
// event is written as the UTC instant that is, DTSTART:20260314T180000Z, which
// every calendar shows at the right hour in its viewer's own zone. A plan
// whose time came with no zone (an API client that sent none) keeps a
// FLOATING time, DTSTART:20260314T190000, "7 PM wherever the calendar is". An
// all-day event is a DATE in every case.
//
// One event per plan everywhere: the e-mailed invite, the download and the
// personal feed (toIcsFeed) all carry UID plan-{id}@hangplan and the plan's
// calendar sequence, so a calendar updates the event it already has.
import { createEvents, type EventAttributes } from 'ics';
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
import { instantOf, isKnownTimeZone } from './zoned-time.ts';

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
  /**
   * A whole day (the feed's plan with a locked date and no time): `start` is
   * the day at 00:00 and `end` the next day at 00:00, written as DATE values.
   */
  allDay: boolean;
  start: LocalDateTime;
  end: LocalDateTime;
  /** The IANA zone `start` and `end` are wall-clock times in, or null: floating times. */
  timeZone: string | null;
  /**
   * STATUS: CONFIRMED, TENTATIVE (the feed's plan the member answered Maybe)
   * or CANCELLED (a cancelled plan; docs/decisions/0101-calendars-follow-the-answer.md).
   */
  status: CalendarEventStatus;
}

/** An event's STATUS (RFC 5545 3.8.1.11). */
export type CalendarEventStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';

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
  /**
   * The plan's timeZone: the IANA zone of the browser that set the time, in
   * which eventTime and period are wall-clock times. Null, absent or unknown
   * to this runtime: floating times.
   */
  timeZone?: string | null;
  /**
   * The title: 'idea' (default, docs/api.md "Dates, times and calendar"): the
   * picked idea's text, else the plan title; 'plan-and-idea' (the personal
   * feed, docs/calendars.md): 'Friday night: Bowling', else the plan title.
   */
  title?: 'idea' | 'plan-and-idea';
  /**
   * With neither an event time nor a period: an all-day event (the personal
   * feed, docs/calendars.md) instead of spec §9's default 9-12.
   */
  allDayWithoutTime?: boolean;
  /** The event's STATUS (default CONFIRMED). */
  status?: CalendarEventStatus;
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
 * plan title (or both, `title: 'plan-and-idea'`); description names the plan and links to it; location = the
 * plan's location; hours: the event time for 2 hours, else the period's hours
 * (else the whole day, with `allDayWithoutTime`).
 * Throws on a date that is not 'YYYY-MM-DD' (a plan's locked date always is).
 */
export function buildCalendarEvent(input: CalendarEventInput): CalendarEvent {
  const date = parseCalendarDate(input.date);
  if (!date) throw new Error(`Not a calendar date: ${input.date}`);
  const hasTime = Boolean(input.eventTime?.trim());
  const allDay = Boolean(input.allDayWithoutTime) && !hasTime && !input.period?.trim();
  const hours = hasTime ? eventTimeHours(input.eventTime) : periodHours(input.period);
  // User text on one line, with no CR or other control character (the `ics`
  // package escapes only \n; a bare CR would start a new property for some
  // readers) and no invisible bidi or zero-width character (./text.ts).
  const planTitle = plainText(input.planTitle);
  const idea = input.ideaText ? plainText(input.ideaText) : '';
  const location = input.location ? plainText(input.location) : '';
  const planUrl = plainText(input.planUrl);
  const midnight: ClockTime = { hour: 0, minute: 0 };
  return {
    title: input.title === 'plan-and-idea' ? (idea && idea !== planTitle ? `${planTitle}: ${idea}` : planTitle) : idea || planTitle,
    description: `Plan: ${planTitle}\nSee the plan on Hangplan: ${planUrl}`,
    location: location || null,
    url: planUrl,
    allDay,
    start: allDay ? { date, time: midnight } : at(date, hours.start),
    end: allDay ? { date: addDays(date, 1), time: midnight } : at(date, hours.end),
    timeZone: !allDay && input.timeZone && isKnownTimeZone(input.timeZone) ? input.timeZone : null,
    status: input.status ?? 'CONFIRMED',
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '20260314T190000': the iCalendar floating DATE-TIME form (no 'Z', no TZID). */
export function icsDateTime({ date, time }: LocalDateTime): string {
  return `${icsDate({ date, time })}T${pad(time.hour)}${pad(time.minute)}00`;
}

/**
 * A timed event's start or end as iCalendar writes it: the UTC form
 * '20260314T180000Z' of the wall clock `at` in the event's zone, or the
 * floating form when the event has none.
 */
export function icsEventTime(event: Pick<CalendarEvent, 'timeZone'>, at: LocalDateTime): string {
  if (!event.timeZone) return icsDateTime(at);
  const { date, time } = at;
  const instant = new Date(instantOf({ year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute, second: 0 }, event.timeZone));
  return `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** '20260314': the iCalendar DATE form (an all-day event's start and end). */
export function icsDate({ date }: LocalDateTime): string {
  return formatIsoDate(date).replaceAll('-', '');
}

/** The plan's one UID, in every calendar file and feed (a calendar updates the event it has). */
export function planEventUid(planId: string): string {
  return `plan-${planId}@hangplan`;
}

interface IcsOptions {
  /** Stable per plan (planEventUid), so a calendar can recognise a later update of the same event. */
  uid?: string;
  /** DTSTAMP, ms since the epoch (default now). */
  timestamp?: number;
  /**
   * SEQUENCE: the plan's calendar sequence (app.plans.calendar_sequence),
   * which rises with every change of the event, so that a calendar holding
   * an older copy takes this one.
   */
  sequence?: number;
  /** LAST-MODIFIED, ms since the epoch (the feed: when the event last changed). */
  lastModified?: number;
  /**
   * The file's METHOD: PUBLISH (default), or CANCEL for the e-mailed notice
   * that a plan was cancelled, which a calendar applies to the event of the
   * same UID (RFC 5546 3.2.5).
   */
  method?: 'PUBLISH' | 'CANCEL';
}

const PRODUCT_ID = 'hangplan/calendar';

/** The `ics` attributes of one event. Start and end are ready-made strings (or a date's parts), never a time to convert. */
function eventAttributes(event: CalendarEvent, options: IcsOptions): EventAttributes {
  // Keys are only set when defined: `ics` merges its defaults (uid, DTSTAMP)
  // with Object.assign, so an explicit `undefined` would erase the default.
  const day = ({ date }: LocalDateTime): [number, number, number] => [date.year, date.month, date.day];
  return {
    productId: PRODUCT_ID,
    ...(options.uid ? { uid: options.uid } : {}),
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    ...(options.sequence !== undefined ? { sequence: options.sequence } : {}),
    ...(options.lastModified !== undefined ? { lastModified: options.lastModified } : {}),
    title: event.title,
    description: event.description,
    ...(event.location ? { location: event.location } : {}),
    url: event.url,
    // `ics` writes a date's three parts as VALUE=DATE (an all-day event).
    start: event.allDay ? day(event.start) : icsEventTime(event, event.start),
    end: event.allDay ? day(event.end) : icsEventTime(event, event.end),
    status: event.status,
    // A day with a plan but no time yet, and a cancelled plan, do not block
    // the day's hours; a maybe shows as tentative.
    ...(event.allDay || event.status === 'CANCELLED'
      ? { transp: 'TRANSPARENT' as const, busyStatus: 'FREE' as const }
      : { busyStatus: event.status === 'TENTATIVE' ? ('TENTATIVE' as const) : ('BUSY' as const) }),
  } as EventAttributes;
}

/**
 * The event as an iCalendar file (text/calendar, METHOD:PUBLISH, or CANCEL). Start and
 * end are handed to `ics` as ready-made strings, which it writes verbatim: the
 * runtime's own time zone can never shift them.
 */
export function toIcs(event: CalendarEvent, options: IcsOptions = {}): string {
  const { error, value } = createEvents([eventAttributes(event, options)], {
    productId: PRODUCT_ID,
    method: options.method ?? 'PUBLISH',
  });
  if (error || !value) throw error ?? new Error('The calendar file could not be built');
  return value;
}

/** One event of the personal feed: the plan's UID, its sequence, and when it last changed (DTSTAMP, LAST-MODIFIED). */
export interface FeedEntry {
  event: CalendarEvent;
  uid: string;
  sequence: number;
  changedAt: number;
}

/** How often a calendar should fetch the feed again: the hint in REFRESH-INTERVAL and X-PUBLISHED-TTL. */
export const FEED_REFRESH = 'PT1H';
/** The calendar's name in the subscribing app (X-WR-CALNAME). */
export const FEED_NAME = 'Hangplan';

/**
 * The personal feed (docs/calendars.md "Calendar feed"): a VCALENDAR named
 * Hangplan, with the refresh hints of RFC 7986 (REFRESH-INTERVAL) and of
 * Outlook and Google (X-PUBLISHED-TTL), and one VEVENT per entry. Nothing but
 * the entries' own text: no ORGANIZER or ATTENDEE, so no one's e-mail address.
 * Given the same entries it answers the same text (no "now" in it), which is
 * what lets the feed's ETag come from the database.
 */
export function toIcsFeed(entries: FeedEntry[]): string {
  const { error, value } = createEvents(
    entries.map(({ event, uid, sequence, changedAt }) => eventAttributes(event, { uid, sequence, timestamp: changedAt, lastModified: changedAt })),
    { productId: PRODUCT_ID, method: 'PUBLISH', calName: FEED_NAME },
  );
  if (error || !value) throw error ?? new Error('The calendar feed could not be built');
  const header = value.indexOf('BEGIN:VEVENT');
  const head = header < 0 ? value.slice(0, value.lastIndexOf('END:VCALENDAR')) : value.slice(0, header);
  const rest = value.slice(head.length);
  // `ics` writes X-PUBLISHED-TTL:PT1H itself; the standard hint goes next to it.
  const hints = head.replace(/X-PUBLISHED-TTL:[^\r\n]*\r\n/, '') + `X-PUBLISHED-TTL:${FEED_REFRESH}\r\nREFRESH-INTERVAL;VALUE=DURATION:${FEED_REFRESH}\r\n`;
  return hints + rest;
}

/** A Google Calendar "add event" link for the same event (the same times as the .ics). */
export function googleCalendarUrl(event: CalendarEvent): string {
  const dates = event.allDay
    ? `${icsDate(event.start)}/${icsDate(event.end)}`
    : `${icsEventTime(event, event.start)}/${icsEventTime(event, event.end)}`;
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates,
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

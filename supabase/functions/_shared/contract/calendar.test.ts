import { describe, expect, it } from 'vitest';
import {
  buildCalendarEvent,
  type CalendarEventInput,
  googleCalendarUrl,
  icsDateTime,
  icsFileName,
  planEventUid,
  toIcs,
} from './calendar.ts';

const PLAN_URL = 'https://hangplan.example/plan/0b6f2a4e-8c1d-4e5f-9a7b-3c2d1e0f9a8b';

const input = (extra: Partial<CalendarEventInput> = {}): CalendarEventInput => ({
  planTitle: 'Friday hangout',
  planUrl: PLAN_URL,
  date: '2026-03-14',
  ...extra,
});

/** Unfold (RFC 5545 §3.1) and read an .ics back: the VEVENT's properties, text values unescaped. */
function parseIcs(ics: string): { lines: string[]; event: Record<string, { params: string; value: string }> } {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n').filter(Boolean);
  const start = lines.indexOf('BEGIN:VEVENT');
  const end = lines.indexOf('END:VEVENT');
  const event: Record<string, { params: string; value: string }> = {};
  for (const line of lines.slice(start + 1, end)) {
    const colon = line.indexOf(':');
    const [name, ...params] = line.slice(0, colon).split(';');
    const value = line
      .slice(colon + 1)
      .replace(/\\([\\;,nN])/g, (_, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));
    event[name] = { params: params.join(';'), value };
  }
  return { lines, event };
}

describe('buildCalendarEvent (docs/api.md "Dates, times and calendar")', () => {
  it('title is the picked idea, else the plan title; description names and links the plan', () => {
    const withIdea = buildCalendarEvent(input({ ideaText: '  Bowling  ', eventTime: '7:00 PM' }));
    expect(withIdea.title).toBe('Bowling');
    expect(withIdea.description).toContain('Friday hangout');
    expect(withIdea.description).toContain(PLAN_URL);
    expect(withIdea.url).toBe(PLAN_URL);
    expect(buildCalendarEvent(input({ ideaText: null })).title).toBe('Friday hangout');
    expect(buildCalendarEvent(input({ ideaText: '   ' })).title).toBe('Friday hangout');
  });

  it('location is the plan location, or null', () => {
    expect(buildCalendarEvent(input({ location: " Joe's Lanes " })).location).toBe("Joe's Lanes");
    expect(buildCalendarEvent(input({ location: '' })).location).toBeNull();
    expect(buildCalendarEvent(input()).location).toBeNull();
  });

  it('an event time gives 2 hours and wins over the period', () => {
    const e = buildCalendarEvent(input({ eventTime: '7:30 PM', period: 'Morning' }));
    expect(icsDateTime(e.start)).toBe('20260314T193000');
    expect(icsDateTime(e.end)).toBe('20260314T213000');
  });

  it('period hours when there is no event time (spec §9)', () => {
    const hours = (period: string | null) => {
      const e = buildCalendarEvent(input({ period }));
      return `${icsDateTime(e.start)}-${icsDateTime(e.end)}`;
    };
    expect(hours('Morning')).toBe('20260314T090000-20260314T120000');
    expect(hours('Afternoon')).toBe('20260314T130000-20260314T170000');
    expect(hours('Evening')).toBe('20260314T180000-20260314T220000');
    expect(hours('Night')).toBe('20260314T190000-20260314T230000');
    expect(hours('18:15')).toBe('20260314T181500-20260314T201500');
    expect(hours(null)).toBe('20260314T090000-20260314T120000');
  });

  it('an unparsable event time starts at 19:00', () => {
    const e = buildCalendarEvent(input({ eventTime: 'after work' }));
    expect(icsDateTime(e.start)).toBe('20260314T190000');
    expect(icsDateTime(e.end)).toBe('20260314T210000');
  });

  it('an event that runs past midnight ends the next day (also across a year)', () => {
    const e = buildCalendarEvent(input({ date: '2026-12-31', eventTime: '11:30 PM' }));
    expect(icsDateTime(e.start)).toBe('20261231T233000');
    expect(icsDateTime(e.end)).toBe('20270101T013000');
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => buildCalendarEvent(input({ date: '2026-02-30' }))).toThrow();
  });
});

describe('toIcs', () => {
  const event = buildCalendarEvent(
    input({ ideaText: 'Bowling, pizza; & more', location: "Joe's Lanes, 12 Main St", eventTime: '7:00 PM' }),
  );
  const ics = toIcs(event, { uid: 'plan-1@hangplan', timestamp: Date.UTC(2026, 2, 1, 12, 0, 0) });
  const { lines, event: props } = parseIcs(ics);

  it('is one VEVENT in a VCALENDAR, CRLF line ends, lines at most 75 characters', () => {
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(ics.endsWith('\r\n')).toBe(true);
    for (const raw of ics.split('\r\n')) expect(raw.length).toBeLessThanOrEqual(75);
  });

  it('DTSTART/DTEND are floating local times (no Z, no TZID)', () => {
    expect(props.DTSTART).toEqual({ params: '', value: '20260314T190000' });
    expect(props.DTEND).toEqual({ params: '', value: '20260314T210000' });
  });

  it('SUMMARY, LOCATION and DESCRIPTION (with the link) read back exactly', () => {
    expect(props.SUMMARY.value).toBe('Bowling, pizza; & more');
    expect(props.LOCATION.value).toBe("Joe's Lanes, 12 Main St");
    expect(props.DESCRIPTION.value).toContain('Friday hangout');
    expect(props.DESCRIPTION.value).toContain(PLAN_URL);
    expect(props.URL.value).toBe(PLAN_URL);
  });

  it('keeps the given UID and DTSTAMP', () => {
    expect(props.UID.value).toBe('plan-1@hangplan');
    expect(props.DTSTAMP.value).toBe('20260301T120000Z');
  });

  it('has a UID of its own when none is given, and no LOCATION without a location', () => {
    const { event: plain } = parseIcs(toIcs(buildCalendarEvent(input({ period: 'Evening' }))));
    expect(plain.UID.value).not.toBe('');
    expect(plain.LOCATION).toBeUndefined();
    expect(plain.SUMMARY.value).toBe('Friday hangout');
    expect(plain.DTSTART.value).toBe('20260314T180000');
  });

  it('does not depend on the time zone of the machine, floating or in the host\'s zone', () => {
    const zoned = buildCalendarEvent(input({ eventTime: '7:00 PM', timeZone: 'Europe/Berlin' }));
    const files = () => [toIcs(event, { uid: 'x', timestamp: 0 }), toIcs(zoned, { uid: 'x', timestamp: 0 })];
    const before = files();
    const previous = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(files()).toEqual(before);
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });
});

describe('hostile text in the calendar file', () => {
  const hostile = buildCalendarEvent(
    input({
      planTitle: 'Trip\rATTENDEE:mailto:evil@example.com',
      ideaText: 'Bowling\r\nnight\u0000\u0007 \u202Eexe.txt\u200B',
      location: 'Lanes\rX-EVIL:1\u001B[31m',
      eventTime: '7:00 PM',
    }),
  );
  const ics = toIcs(hostile, { uid: 'plan-1@hangplan', timestamp: 0 });
  const { lines, event: props } = parseIcs(ics);

  it('no CR but the line ends, and no other control character anywhere', () => {
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(lines.some((line) => line.startsWith('ATTENDEE') || line.startsWith('X-EVIL'))).toBe(false);
  });

  it('user text is one line, without invisible bidi or zero-width characters', () => {
    expect(props.SUMMARY.value).toBe('Bowling night exe.txt');
    expect(props.LOCATION.value).toBe('Lanes X-EVIL:1[31m');
    expect(props.DESCRIPTION.value).toBe(`Plan: Trip ATTENDEE:mailto:evil@example.com\nSee the plan on Hangplan: ${PLAN_URL}`);
  });

  it('the Google Calendar link carries the same clean text', () => {
    const url = new URL(googleCalendarUrl(hostile));
    expect(url.searchParams.get('text')).toBe('Bowling night exe.txt');
    expect(url.searchParams.get('location')).toBe('Lanes X-EVIL:1[31m');
  });
});

describe('googleCalendarUrl and icsFileName', () => {
  const event = buildCalendarEvent(input({ ideaText: 'Bowling Night!', location: 'Lanes', eventTime: '7:00 PM' }));
  it('links to Google Calendar with the same floating times', () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.origin).toBe('https://calendar.google.com');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Bowling Night!');
    expect(url.searchParams.get('dates')).toBe('20260314T190000/20260314T210000');
    expect(url.searchParams.get('location')).toBe('Lanes');
    expect(url.searchParams.get('details')).toContain(PLAN_URL);
  });
  it('names the file after the title', () => {
    expect(icsFileName(event)).toBe('bowling-night.ics');
    expect(icsFileName({ ...event, title: '🎳🎳' })).toBe('hangplan-event.ics');
  });
});

describe('the personal feed\'s rules (docs/calendars.md)', () => {
  it('titles the event with the plan and the picked idea, else the plan', () => {
    const feed = (extra: Partial<CalendarEventInput>) => buildCalendarEvent(input({ title: 'plan-and-idea', ...extra })).title;
    expect(feed({ ideaText: 'Bowling' })).toBe('Friday hangout: Bowling');
    expect(feed({ ideaText: null })).toBe('Friday hangout');
    expect(feed({ ideaText: 'Friday hangout' })).toBe('Friday hangout');
  });

  it('a date without a time or period is all day; a time keeps the 2-hour rule', () => {
    const allDay = buildCalendarEvent(input({ allDayWithoutTime: true }));
    expect(allDay.allDay).toBe(true);
    expect(allDay.start.date).toEqual({ year: 2026, month: 3, day: 14 });
    expect(allDay.end.date).toEqual({ year: 2026, month: 3, day: 15 });
    const timed = buildCalendarEvent(input({ allDayWithoutTime: true, eventTime: '7:30 PM' }));
    expect(timed.allDay).toBe(false);
    expect(`${icsDateTime(timed.start)}-${icsDateTime(timed.end)}`).toBe('20260314T193000-20260314T213000');
    // Without the option the spec's default hours stay (the e-mail and the download).
    expect(buildCalendarEvent(input()).allDay).toBe(false);
    // The last day of a year ends on the next year's first.
    expect(buildCalendarEvent(input({ allDayWithoutTime: true, date: '2026-12-31' })).end.date).toEqual({ year: 2027, month: 1, day: 1 });
  });

  it('an all-day event is written as DATE values and links Google with whole days', () => {
    const event = buildCalendarEvent(input({ allDayWithoutTime: true }));
    const { event: props } = parseIcs(toIcs(event, { uid: 'x' }));
    expect(props.DTSTART).toEqual({ params: 'VALUE=DATE', value: '20260314' });
    expect(props.DTEND).toEqual({ params: 'VALUE=DATE', value: '20260315' });
    expect(props.TRANSP.value).toBe('TRANSPARENT');
    expect(new URL(googleCalendarUrl(event)).searchParams.get('dates')).toBe('20260314/20260315');
  });

  it('writes the plan\'s sequence as SEQUENCE', () => {
    const event = buildCalendarEvent(input({ eventTime: '7:00 PM' }));
    expect(parseIcs(toIcs(event, { uid: planEventUid('p1'), sequence: 4 })).event.SEQUENCE.value).toBe('4');
    expect(parseIcs(toIcs(event, { uid: planEventUid('p1') })).event.SEQUENCE).toBeUndefined();
    expect(planEventUid('p1')).toBe('plan-p1@hangplan');
  });
});

describe("the host's time zone (docs/decisions/0074)", () => {
  const at = (extra: Partial<CalendarEventInput>) => {
    const { event } = parseIcs(toIcs(buildCalendarEvent(input({ eventTime: '7:00 PM', ...extra })), { uid: 'x', timestamp: 0 }));
    return `${event.DTSTART.params}|${event.DTSTART.value}-${event.DTEND.value}`;
  };

  it("writes the host's 7 PM as the UTC instant it is there, in winter and in summer time", () => {
    // Berlin: UTC+1 in March before the change, UTC+2 in July.
    expect(at({ timeZone: 'Europe/Berlin' })).toBe('|20260314T180000Z-20260314T200000Z');
    expect(at({ timeZone: 'Europe/Berlin', date: '2026-07-04' })).toBe('|20260704T170000Z-20260704T190000Z');
    // New York: its own change on March 8, 2026 (EDT, UTC-4).
    expect(at({ timeZone: 'America/New_York' })).toBe('|20260314T230000Z-20260315T010000Z');
    // Half-hour zones and the date line.
    expect(at({ timeZone: 'Asia/Kolkata' })).toBe('|20260314T133000Z-20260314T153000Z');
    expect(at({ timeZone: 'Pacific/Auckland', date: '2026-01-01', eventTime: '12:30 AM' })).toBe(
      '|20251231T113000Z-20251231T133000Z',
    );
    // The period's hours when there is no time: Evening 18:00–22:00 in Berlin.
    expect(at({ timeZone: 'Europe/Berlin', eventTime: null, period: 'Evening' })).toBe('|20260314T170000Z-20260314T210000Z');
  });

  it('keeps a floating time with no zone, or one this runtime does not know', () => {
    expect(at({})).toBe('|20260314T190000-20260314T210000');
    expect(at({ timeZone: null })).toBe('|20260314T190000-20260314T210000');
    expect(at({ timeZone: 'Mars/Olympus_Mons' })).toBe('|20260314T190000-20260314T210000');
  });

  it('an all-day event stays whole days in any zone', () => {
    const event = buildCalendarEvent(input({ allDayWithoutTime: true, timeZone: 'Asia/Tokyo' }));
    expect(event.timeZone).toBeNull();
    expect(parseIcs(toIcs(event, { uid: 'x' })).event.DTSTART).toEqual({ params: 'VALUE=DATE', value: '20260314' });
  });

  it('links Google Calendar with the same instants', () => {
    const event = buildCalendarEvent(input({ eventTime: '7:00 PM', timeZone: 'Europe/Berlin' }));
    expect(new URL(googleCalendarUrl(event)).searchParams.get('dates')).toBe('20260314T180000Z/20260314T200000Z');
  });
});

describe('a cancelled plan and the answer (docs/decisions/0101-calendars-follow-the-answer.md)', () => {
  const read = (ics: string) => {
    const { lines, event } = parseIcs(ics);
    return { method: lines.find((l) => l.startsWith('METHOD:')), event };
  };

  it('CONFIRMED and BUSY by default; TENTATIVE for a maybe; CANCELLED and free for a cancelled plan', () => {
    const plain = read(toIcs(buildCalendarEvent(input({ eventTime: '7:00 PM' }))));
    expect([plain.method, plain.event.STATUS.value, plain.event['X-MICROSOFT-CDO-BUSYSTATUS']?.value]).toEqual(['METHOD:PUBLISH', 'CONFIRMED', 'BUSY']);
    const maybe = read(toIcs(buildCalendarEvent(input({ eventTime: '7:00 PM', status: 'TENTATIVE' }))));
    expect(maybe.event.STATUS.value).toBe('TENTATIVE');
    const cancelled = read(toIcs(buildCalendarEvent(input({ eventTime: '7:00 PM', status: 'CANCELLED' }))));
    expect([cancelled.event.STATUS.value, cancelled.event.TRANSP.value]).toEqual(['CANCELLED', 'TRANSPARENT']);
  });

  it('the cancel notice is METHOD:CANCEL with the same UID and the given (higher) SEQUENCE', () => {
    const event = buildCalendarEvent(input({ eventTime: '7:00 PM', status: 'CANCELLED' }));
    const { method, event: props } = read(toIcs(event, { uid: planEventUid('p1'), sequence: 5, method: 'CANCEL' }));
    expect(method).toBe('METHOD:CANCEL');
    expect([props.UID.value, props.SEQUENCE.value, props.STATUS.value]).toEqual(['plan-p1@hangplan', '5', 'CANCELLED']);
  });
});

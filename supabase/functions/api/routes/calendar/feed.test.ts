// The personal feed's text (contract/calendar.ts toIcsFeed) and the server's
// side of it (./calendar-feed.ts), read back by an independent iCalendar
// parser, ical.js (the contract's own tests may use no other package).
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedBody, feedEtag, knownFeedTag } from './feed.ts';
import { buildCalendarEvent, type CalendarEventInput, planEventUid, toIcsFeed } from '../../../_shared/contract/calendar.ts';
import { webcalUrl } from '../../../_shared/contract/calendar-feed.ts';

const PLAN_URL = 'https://hangplan.example/l/abcDEF12';

const input = (extra: Partial<CalendarEventInput> = {}): CalendarEventInput => ({
  planTitle: 'Friday hangout',
  planUrl: PLAN_URL,
  date: '2026-03-14',
  ...extra,
});

describe('toIcsFeed, read back by an independent parser (ical.js)', () => {
  const changedAt = Date.UTC(2026, 2, 1, 12, 0, 0);
  const timed = buildCalendarEvent(input({ title: 'plan-and-idea', ideaText: 'Bowling', location: 'Lanes, 5th Ave', eventTime: '7:30 PM', allDayWithoutTime: true }));
  const allDay = buildCalendarEvent(input({ title: 'plan-and-idea', planTitle: 'Picnic', date: '2026-04-02', allDayWithoutTime: true }));
  const text = toIcsFeed([
    { event: timed, uid: planEventUid('a'), sequence: 3, changedAt },
    { event: allDay, uid: planEventUid('b'), sequence: 1, changedAt },
  ]);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));

  it('is one calendar named Hangplan with the refresh hints', () => {
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Hangplan');
    expect(String(calendar.getFirstPropertyValue('x-published-ttl'))).toBe('PT1H');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(calendar.getFirstProperty('refresh-interval')?.type).toBe('duration');
    expect(text.match(/X-PUBLISHED-TTL/g)).toHaveLength(1);
  });

  it('has each event with its UID, SEQUENCE, floating or all-day times, title, place and link', () => {
    expect(events.map((e) => e.uid)).toEqual(['plan-a@hangplan', 'plan-b@hangplan']);
    expect(events.map((e) => e.sequence)).toEqual([3, 1]);
    const [a, b] = events;
    expect(a.summary).toBe('Friday hangout: Bowling');
    expect(a.location).toBe('Lanes, 5th Ave');
    expect(a.startDate.toString()).toBe('2026-03-14T19:30:00');
    expect(a.startDate.isDate).toBe(false);
    expect(a.startDate.zone?.tzid).toBe('floating');
    expect(a.endDate.toString()).toBe('2026-03-14T21:30:00');
    expect(a.component.getFirstPropertyValue('url')).toBe(PLAN_URL);
    expect(b.summary).toBe('Picnic');
    expect(b.startDate.isDate).toBe(true);
    expect(b.startDate.toString()).toBe('2026-04-02');
    expect(b.endDate.toString()).toBe('2026-04-03');
    expect(String(a.component.getFirstPropertyValue('dtstamp'))).toBe('2026-03-01T12:00:00Z');
    expect(String(a.component.getFirstPropertyValue('last-modified'))).toBe('2026-03-01T12:00:00Z');
  });

  it('names nobody: no ORGANIZER, no ATTENDEE', () => {
    expect(text).not.toMatch(/^(ORGANIZER|ATTENDEE)/m);
  });

  it('is the same text for the same entries (the ETag comes from the database)', () => {
    expect(toIcsFeed([{ event: timed, uid: planEventUid('a'), sequence: 3, changedAt }])).toBe(
      toIcsFeed([{ event: timed, uid: planEventUid('a'), sequence: 3, changedAt }]),
    );
  });

  it('an empty feed is still a calendar with its name and hints', () => {
    const empty = new ICAL.Component(ICAL.parse(toIcsFeed([])));
    expect(empty.name).toBe('vcalendar');
    expect(empty.getAllSubcomponents('vevent')).toHaveLength(0);
    expect(String(empty.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
  });
});

describe('feedBody: the events private.calendar_feed answers, by the feed\'s rules', () => {
  let origin: string | undefined;
  beforeEach(() => {
    origin = process.env.APP_ORIGIN;
    process.env.APP_ORIGIN = 'https://hangplan.example';
  });
  afterEach(() => {
    if (origin === undefined) delete process.env.APP_ORIGIN;
    else process.env.APP_ORIGIN = origin;
  });

  const row = {
    planId: '0b6f2a4e-8c1d-4e5f-9a7b-3c2d1e0f9a8b',
    slug: 'abcDEF12',
    title: 'Friday hangout',
    ideaText: 'Bowling',
    location: null,
    date: '2026-03-14',
    eventTime: '7:00 PM',
    timeZone: null,
    period: '19:00',
    sequence: 2,
    changedAt: Date.UTC(2026, 2, 1) / 1000,
  };

  it('links each event to the plan\'s public page and titles it with the plan and the idea', () => {
    const [event] = new ICAL.Component(ICAL.parse(feedBody([row]))).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(event.uid).toBe(`plan-${row.planId}@hangplan`);
    expect(event.summary).toBe('Friday hangout: Bowling');
    expect(event.component.getFirstPropertyValue('url')).toBe('https://hangplan.example/l/abcDEF12');
    expect(event.sequence).toBe(2);
  });

  it("places a timed event at the host's hour in the host's zone, as an instant every calendar shows right", () => {
    const text = feedBody([
      { ...row, planId: 'berlin', timeZone: 'Europe/Berlin' },
      // Summer time in New York: 7 PM EDT is 23:00 UTC.
      { ...row, planId: 'new-york', date: '2026-07-04', timeZone: 'America/New_York' },
      { ...row, planId: 'floating' },
    ]);
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    const byUid = new Map(events.map((e) => [e.uid, e] as const));
    const berlin = byUid.get('plan-berlin@hangplan')!;
    expect(berlin.startDate.zone?.tzid).toBe('UTC');
    expect(berlin.startDate.toJSDate().toISOString()).toBe('2026-03-14T18:00:00.000Z');
    expect(berlin.endDate.toJSDate().toISOString()).toBe('2026-03-14T20:00:00.000Z');
    const newYork = byUid.get('plan-new-york@hangplan')!;
    expect(newYork.startDate.toJSDate().toISOString()).toBe('2026-07-04T23:00:00.000Z');
    expect(newYork.endDate.toJSDate().toISOString()).toBe('2026-07-05T01:00:00.000Z');
    // A time set with no zone stays floating: 7 PM wherever the calendar is.
    const floating = byUid.get('plan-floating@hangplan')!;
    expect(floating.startDate.zone?.tzid).toBe('floating');
    expect(floating.startDate.toString()).toBe('2026-03-14T19:00:00');
  });

  it('leaves out a plan whose event cannot be built, not the whole feed', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const text = feedBody([row, { ...row, planId: 'broken', date: 'not a date' }]);
      expect(new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent')).toHaveLength(1);
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the feed\'s ETag and links', () => {
  it('reads back its own tag from If-None-Match, weak or strong, in a list; nothing else', () => {
    const tag = 'a'.repeat(32);
    expect(feedEtag(tag)).toBe(`W/"c${tag}"`);
    expect(knownFeedTag(feedEtag(tag))).toBe(tag);
    expect(knownFeedTag(`"x", "c${tag}"`)).toBe(tag);
    expect(knownFeedTag(undefined)).toBeNull();
    expect(knownFeedTag('W/"v12"')).toBeNull();
    expect(knownFeedTag(`W/"c${tag.slice(1)}"`)).toBeNull();
  });

  it('offers the same URL as webcal://', () => {
    expect(webcalUrl('https://hangplan.example/api/calendar/feed/x.ics')).toBe('webcal://hangplan.example/api/calendar/feed/x.ics');
    expect(webcalUrl('http://localhost:5173/api/calendar/feed/x.ics')).toBe('webcal://localhost:5173/api/calendar/feed/x.ics');
  });
});

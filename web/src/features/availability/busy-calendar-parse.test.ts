import { describe, expect, it } from 'vitest';
import apple from './test-calendars/apple.ics?raw';
import google from './test-calendars/google.ics?raw';
import meetup from './test-calendars/meetup.ics?raw';
import outlook from './test-calendars/outlook.ics?raw';
import { FILE_UNREADABLE } from './busy-calendar';
import {
  busyDaysFromIcs,
  CALENDAR_TOO_SLOW,
  CalendarFileError,
  ianaZoneOf,
  mergeRanges,
  NOT_A_CALENDAR,
  readCalendarRequest,
  UNREADABLE_CALENDAR,
} from './busy-calendar-parse';

// Every call names the device's zone, so the results do not depend on the
// machine's: the same file is read on a phone in Berlin, New York, Los
// Angeles and UTC. Minutes are [start, end) after local midnight.
const h = (hour: number, minute = 0) => hour * 60 + minute;
const ALL_DAY = [[0, 1440]];

const lateNovember = { from: '2026-11-23', to: '2026-12-31' };

/** A one-event calendar around `lines`. */
const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Hangplan tests//EN', ...lines, 'END:VCALENDAR'].join('\r\n');
/** A VEVENT of `lines`, with UID test-1 unless they name one. */
const event = (...lines: string[]) => [
  'BEGIN:VEVENT',
  ...(lines.some((line) => line.startsWith('UID:')) ? [] : ['UID:test-1']),
  'DTSTAMP:20261120T000000Z',
  ...lines,
  'END:VEVENT',
];

describe('Google Calendar export (VTIMEZONE, weekly series with EXDATE and a moved instance)', () => {
  it('marks the days in Berlin, its own zone', () => {
    expect(busyDaysFromIcs(google, { ...lateNovember, timeZone: 'Europe/Berlin' })).toEqual({
      // Climbing, Tuesdays 18:30–20:00, from Nov 3 (before the window).
      '2026-11-24': [[h(18, 30), h(20)]],
      // Dinner, 18:00–20:00 UTC.
      '2026-11-27': [[h(19), h(21)]],
      // This Tuesday's climbing moved to 20:00–21:30 (RECURRENCE-ID).
      '2026-12-01': [[h(20), h(21, 30)]],
      // The night train, 22:30 to 01:30: both days.
      '2026-12-05': [[h(22, 30), 1440]],
      '2026-12-06': [[0, h(1, 30)]],
      // Dec 8 is an EXDATE: no climbing.
      '2026-12-15': [[h(18, 30), h(20)]],
      '2026-12-22': [[h(18, 30), h(20)]],
      '2026-12-24': ALL_DAY,
      '2026-12-29': [[h(18, 30), h(20)]],
      // Focus time (TRANSP:TRANSPARENT) on Nov 25 and the cancelled lunch on Nov 26 are not busy.
    });
  });

  it('moves timed events to a phone in New York; all-day events keep their dates', () => {
    const days = busyDaysFromIcs(google, { ...lateNovember, timeZone: 'America/New_York' });
    expect(days['2026-11-24']).toEqual([[h(12, 30), h(14)]]);
    expect(days['2026-11-27']).toEqual([[h(13), h(15)]]);
    expect(days['2026-12-01']).toEqual([[h(14), h(15, 30)]]);
    expect(days['2026-12-05']).toEqual([[h(16, 30), h(19, 30)]]);
    expect(days['2026-12-06']).toBeUndefined();
    expect(days['2026-12-24']).toEqual(ALL_DAY);
    expect(Object.keys(days)).toHaveLength(8);
  });

  it('in UTC', () => {
    const days = busyDaysFromIcs(google, { ...lateNovember, timeZone: 'UTC' });
    expect(days['2026-11-24']).toEqual([[h(17, 30), h(19)]]);
    expect(days['2026-12-05']).toEqual([[h(21, 30), 1440]]);
    expect(days['2026-12-06']).toEqual([[0, h(0, 30)]]);
  });

  it('ends the series at its UNTIL', () => {
    const days = busyDaysFromIcs(google, { from: '2027-01-01', to: '2027-02-28', timeZone: 'Europe/Berlin' });
    expect(Object.keys(days)).toEqual(['2027-01-05', '2027-01-12', '2027-01-19', '2027-01-26']);
  });
});

describe('Apple Calendar export (X-WR-TIMEZONE, all-day and multi-day events)', () => {
  it('marks the days in New York', () => {
    expect(busyDaysFromIcs(apple, { ...lateNovember, timeZone: 'America/New_York' })).toEqual({
      // Thanksgiving, all day (DTEND is the next day, exclusive).
      '2026-11-26': ALL_DAY,
      // Dentist, 9:30–10:30 New York time.
      '2026-11-30': [[h(9, 30), h(10, 30)]],
      // Yoga has a floating time: read in the calendar's X-WR-TIMEZONE.
      '2026-12-02': [[h(7), h(8)]],
      // Physio, daily, COUNT=3.
      '2026-12-03': [[h(8), h(8, 45)]],
      '2026-12-04': [[h(8), h(8, 45)]],
      '2026-12-05': [[h(8), h(8, 45)]],
      // The ski week: Dec 17 to Dec 22 exclusive, every day it touches.
      '2026-12-17': ALL_DAY,
      '2026-12-18': ALL_DAY,
      '2026-12-19': ALL_DAY,
      '2026-12-20': ALL_DAY,
      '2026-12-21': ALL_DAY,
      // Sam's birthday (yearly since 2014, TRANSP:TRANSPARENT) is not busy.
    });
  });

  it('in Berlin: the floating time stays in the calendar zone, then moves with the others', () => {
    const days = busyDaysFromIcs(apple, { ...lateNovember, timeZone: 'Europe/Berlin' });
    expect(days['2026-11-30']).toEqual([[h(15, 30), h(16, 30)]]);
    expect(days['2026-12-02']).toEqual([[h(13), h(14)]]);
    expect(days['2026-12-03']).toEqual([[h(14), h(14, 45)]]);
    expect(days['2026-11-26']).toEqual(ALL_DAY);
  });

  it('cuts a multi-day event at the window', () => {
    const days = busyDaysFromIcs(apple, { from: '2026-12-19', to: '2026-12-20', timeZone: 'America/New_York' });
    expect(days).toEqual({ '2026-12-19': ALL_DAY, '2026-12-20': ALL_DAY });
  });
});

describe('Outlook export (Windows zone names with their VTIMEZONE)', () => {
  it('marks the days in Los Angeles', () => {
    expect(busyDaysFromIcs(outlook, { ...lateNovember, timeZone: 'America/Los_Angeles' })).toEqual({
      // Standup, Mondays and Wednesdays 9:00–9:30, Dec 2 excluded, until Dec 16.
      '2026-11-23': [[h(9), h(9, 30)]],
      '2026-11-25': [[h(9), h(9, 30)]],
      '2026-11-30': [[h(9), h(9, 30)]],
      // Team drinks: tentative, but not "free", so busy.
      '2026-12-04': [[h(16), h(18)]],
      '2026-12-07': [[h(9), h(9, 30)]],
      '2026-12-09': [[h(9), h(9, 30)]],
      '2026-12-14': [[h(9), h(9, 30)]],
      '2026-12-16': [[h(9), h(9, 30)]],
      // The free lunch walk, the free Thanksgiving holiday and the cancelled review are not busy.
    });
  });

  it('in Berlin, nine hours ahead', () => {
    const days = busyDaysFromIcs(outlook, { ...lateNovember, timeZone: 'Europe/Berlin' });
    expect(days['2026-11-23']).toEqual([[h(18), h(18, 30)]]);
    expect(days['2026-12-04']).toBeUndefined();
    expect(days['2026-12-05']).toEqual([[h(1), h(3)]]);
  });
});

describe('IANA TZIDs with no VTIMEZONE (an event site export)', () => {
  const autumn = { from: '2026-10-19', to: '2026-11-30' };

  it('reads them with the browser’s zones, across the change from summer time', () => {
    expect(busyDaysFromIcs(meetup, { ...autumn, timeZone: 'UTC' })).toEqual({
      // 18:00 in Chicago: 23:00 UTC in October (CDT), midnight UTC once DST ended on Nov 1.
      '2026-10-22': [[h(23), 1440]],
      '2026-10-29': [[h(23), 1440]],
      '2026-11-06': [[0, h(1)]],
      '2026-11-13': [[0, h(1)]],
      // 19:00–22:00 in Tokyo.
      '2026-11-28': [[h(10), h(13)]],
    });
  });

  it('in the zone of the events themselves', () => {
    const days = busyDaysFromIcs(meetup, { ...autumn, timeZone: 'America/Chicago' });
    expect(days['2026-10-22']).toEqual([[h(18), h(19)]]);
    expect(days['2026-11-12']).toEqual([[h(18), h(19)]]);
    expect(days['2026-11-28']).toEqual([[h(4), h(7)]]);
  });
});

describe('busyDaysFromIcs', () => {
  const december = { from: '2026-12-01', to: '2026-12-31', timeZone: 'Europe/Berlin' };

  it('reads a Windows zone name, a prefixed IANA name, and an unknown name in the device zone', () => {
    const text = calendar(
      ...event('DTSTART;TZID=W. Europe Standard Time:20261201T100000', 'DTEND;TZID=W. Europe Standard Time:20261201T110000'),
      ...event('UID:test-2', 'DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20261202T100000', 'DURATION:PT1H'),
      ...event('UID:test-3', 'DTSTART;TZID=Mars/Olympus_Mons:20261203T100000', 'DTEND;TZID=Mars/Olympus_Mons:20261203T110000'),
    );
    expect(busyDaysFromIcs(text, december)).toEqual({
      '2026-12-01': [[h(10), h(11)]],
      '2026-12-02': [[h(16), h(17)]],
      '2026-12-03': [[h(10), h(11)]],
    });
    expect(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })['2026-12-01']).toEqual([[h(9), h(10)]]);
  });

  it('joins overlapping events and lists separate ones', () => {
    const text = calendar(
      ...event('DTSTART:20261201T090000Z', 'DTEND:20261201T110000Z'),
      ...event('DTSTART:20261201T100000Z', 'DTEND:20261201T120000Z'),
      ...event('DTSTART:20261201T180000Z', 'DTEND:20261201T190000Z'),
    );
    expect(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })).toEqual({ '2026-12-01': [[h(9), h(12)], [h(18), h(19)]] });
  });

  it('leaves out zero-length events, and takes an all-day event with no DTEND as one day', () => {
    const text = calendar(
      ...event('DTSTART:20261201T090000Z'),
      ...event('UID:test-2', 'DTSTART;VALUE=DATE:20261202'),
    );
    expect(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })).toEqual({ '2026-12-02': ALL_DAY });
  });

  it('skips a cancelled instance of a series, and a cancelled series with all its instances', () => {
    const text = calendar(
      ...event('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=DAILY;COUNT=3'),
      ...event('RECURRENCE-ID:20261202T090000Z', 'DTSTART:20261202T090000Z', 'DTEND:20261202T100000Z', 'STATUS:CANCELLED'),
      ...event('UID:test-2', 'STATUS:CANCELLED', 'DTSTART:20261210T090000Z', 'DTEND:20261210T100000Z', 'RRULE:FREQ=DAILY;COUNT=3'),
    );
    expect(Object.keys(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' }))).toEqual(['2026-12-01', '2026-12-03']);
  });

  it('keeps a moved instance that lands in the window from beyond it, and an instance whose series is not in the file', () => {
    const text = calendar(
      ...event('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=MONTHLY;COUNT=3'),
      ...event('RECURRENCE-ID:20270201T090000Z', 'DTSTART:20261220T090000Z', 'DTEND:20261220T100000Z'),
      ...event('UID:elsewhere', 'RECURRENCE-ID:20261105T090000Z', 'DTSTART:20261222T090000Z', 'DTEND:20261222T100000Z'),
    );
    expect(Object.keys(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' }))).toEqual(['2026-12-01', '2026-12-20', '2026-12-22']);
  });

  it('relates a moved instance only to the series of its UID', () => {
    const text = calendar(
      ...event('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...event('UID:test-2', 'DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...event('RECURRENCE-ID:20261202T090000Z', 'DTSTART:20261205T090000Z', 'DTEND:20261205T100000Z'),
    );
    expect(Object.keys(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' }))).toEqual(['2026-12-01', '2026-12-02', '2026-12-05']);
  });

  it('expands a series that began decades ago up to the window, and stops at its end', () => {
    const text = calendar(...event('DTSTART;VALUE=DATE:19900101', 'RRULE:FREQ=DAILY'));
    const days = busyDaysFromIcs(text, { from: '2026-11-26', to: '2027-11-26', timeZone: 'UTC' });
    expect(Object.keys(days)).toHaveLength(366);
    expect(Object.keys(days).sort()[0]).toBe('2026-11-26');
    expect(Object.keys(days).sort().at(-1)).toBe('2027-11-26');
  });

  it('skips an event with no start and keeps the others', () => {
    const text = calendar(...event('SUMMARY:Someday'), ...event('UID:test-2', 'DTSTART:20261203T090000Z', 'DTEND:20261203T100000Z'));
    expect(Object.keys(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' }))).toEqual(['2026-12-03']);
  });

  it('refuses a calendar ical.js cannot read, saying so', () => {
    const text = calendar(...event('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=SOMETIMES'));
    expect(() => busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })).toThrow(UNREADABLE_CALENDAR);
  });

  it('reads several calendars in one file and a file with LF line ends', () => {
    const text = `${calendar(...event('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z'))}\n${calendar(
      ...event('DTSTART:20261202T090000Z', 'DTEND:20261202T100000Z'),
    )}`.replace(/\r\n/g, '\n');
    expect(Object.keys(busyDaysFromIcs(text, { ...december, timeZone: 'UTC' }))).toEqual(['2026-12-01', '2026-12-02']);
  });

  it('gives an empty result for a calendar with nothing in the window', () => {
    expect(busyDaysFromIcs(calendar(), { ...december, timeZone: 'UTC' })).toEqual({});
    expect(busyDaysFromIcs(google, { from: '2028-01-01', to: '2028-12-31', timeZone: 'UTC' })).toEqual({});
  });

  it.each([
    ['a contact card', 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n'],
    ['plain text', 'Dinner on Friday at 7'],
    ['an empty file', ''],
    ['JSON', '{"events": []}'],
    ['a task list', 'BEGIN:VTODO\r\nSUMMARY:Call Ada\r\nEND:VTODO\r\n'],
  ])('refuses %s with one sentence', (_name, text) => {
    expect(() => busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })).toThrow(CalendarFileError);
    expect(() => busyDaysFromIcs(text, { ...december, timeZone: 'UTC' })).toThrow(NOT_A_CALENDAR);
  });

  it('refuses a calendar cut short', () => {
    expect(() => busyDaysFromIcs('BEGIN:VCALENDAR\r\nthis is not a property line\r\n', { ...december, timeZone: 'UTC' })).toThrow(
      CalendarFileError,
    );
  });
});

// The expansion budget (decision 0088), with small numbers: the same code
// runs with 50,000 per series and 500,000 for the file (EXPANSION_BUDGET).
describe('the expansion budget', () => {
  const window = { from: '2026-12-01', to: '2026-12-31', timeZone: 'UTC' };
  const daily = (uid: string, start: string) => event(`UID:${uid}`, `DTSTART:${start}T090000Z`, 'DTEND:' + start + 'T100000Z', 'RRULE:FREQ=DAILY');

  it('cuts a series short after its share, in or out of the window: it marks nothing past the cut, and the file is still read', () => {
    // 40 days before the window, then every day: 40 steps to reach December 1.
    const text = calendar(...daily('early', '20261022'), ...event('UID:single', 'DTSTART:20261215T120000Z', 'DTEND:20261215T130000Z'));
    const days = (perSeries: number) => Object.keys(busyDaysFromIcs(text, window, { perSeries, total: 10_000 }));
    expect(days(30)).toEqual(['2026-12-15']);
    // 45 steps: the first five days of December, then the single event.
    expect(days(45)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-15']);
  });

  it('refuses the whole file, in one sentence, past its total: thousands of MINUTELY series', () => {
    const minutely = Array.from({ length: 2000 }, (_, n) =>
      event(`UID:minutely-${n}`, 'DTSTART:20100101T000000Z', 'DTEND:20100101T000100Z', 'RRULE:FREQ=MINUTELY'),
    );
    const text = calendar(...minutely.flat());
    const read = () => busyDaysFromIcs(text, window, { perSeries: 50, total: 5_000 });
    expect(read).toThrow(CalendarFileError);
    expect(read).toThrow(CALENDAR_TOO_SLOW);
    // Just within it: 100 series cut at 50 steps each (nothing reaches December).
    expect(busyDaysFromIcs(calendar(...minutely.slice(0, 100).flat()), window, { perSeries: 50, total: 5_000 })).toEqual({});
  });

  it('counts single events and moved instances too', () => {
    const singles = Array.from({ length: 20 }, (_, n) =>
      event(`UID:single-${n}`, 'DTSTART:20261203T090000Z', 'DTEND:20261203T100000Z'),
    ).flat();
    expect(Object.keys(busyDaysFromIcs(calendar(...singles), window, { perSeries: 50, total: 20 }))).toEqual(['2026-12-03']);
    expect(() => busyDaysFromIcs(calendar(...singles), window, { perSeries: 50, total: 19 })).toThrow(CALENDAR_TOO_SLOW);
  });
});

describe('readCalendarRequest (the calendar worker)', () => {
  const window = { from: '2026-12-01', to: '2026-12-31', timeZone: 'UTC' };
  it('answers the busy days, or the sentence', async () => {
    const file = new Blob([calendar(...event('DTSTART:20261203T090000Z', 'DTEND:20261203T100000Z'))]);
    expect(await readCalendarRequest({ file, window })).toEqual({ days: { '2026-12-03': [[h(9), h(10)]] } });
    expect(await readCalendarRequest({ file: new Blob(['Dinner on Friday']), window })).toEqual({ error: NOT_A_CALENDAR });
    const unreadable = new Blob(['x']);
    unreadable.text = () => Promise.reject(new DOMException('The file was moved', 'NotReadableError'));
    expect(await readCalendarRequest({ file: unreadable, window })).toEqual({ error: FILE_UNREADABLE });
  });
});

describe('mergeRanges', () => {
  it('merges overlapping and touching ranges, drops empty ones, clamps to the day', () => {
    expect(
      mergeRanges([
        [h(18), h(19)],
        [h(9), h(10)],
        [h(9, 30), h(11)],
        [h(11), h(12)],
        [h(14), h(14)],
        [-30, h(1)],
        [h(23), 1500],
      ]),
    ).toEqual([
      [0, h(1)],
      [h(9), h(12)],
      [h(18), h(19)],
      [h(23), 1440],
    ]);
  });
});

describe('ianaZoneOf', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['/citadel.org/20190914_1/Europe/Paris', 'Europe/Paris'],
    ['Mars/Olympus_Mons', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (tzid, zone) => expect(ianaZoneOf(tzid)).toBe(zone));
});

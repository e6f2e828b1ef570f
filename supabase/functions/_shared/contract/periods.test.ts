import { describe, expect, it } from 'vitest';
import {
  addDays,
  eventTimeHours,
  format12HourTime,
  formatIsoDate,
  formatLongDate,
  formatPeriod,
  isCalendarDate,
  normalizePeriod,
  parseCalendarDate,
  parseClockTime,
  periodHours,
  periodSortMinutes,
  to12HourTime,
} from './periods.ts';

describe('formatPeriod (spec §9 display)', () => {
  it('shows named periods as their hour', () => {
    expect(formatPeriod('Morning')).toBe('9AM');
    expect(formatPeriod('Afternoon')).toBe('2PM');
    expect(formatPeriod('Evening')).toBe('7PM');
    expect(formatPeriod('Night')).toBe('9PM');
  });
  it('shows clock times in compact 12-hour form', () => {
    expect(formatPeriod('19:00')).toBe('7PM');
    expect(formatPeriod('19:30')).toBe('7:30PM');
    expect(formatPeriod('7:05')).toBe('7:05AM');
    expect(formatPeriod('0:00')).toBe('12AM');
    expect(formatPeriod('12:15')).toBe('12:15PM');
  });
  it("is '' for a whole-day slot and shows anything unknown as is", () => {
    expect(formatPeriod(null)).toBe('');
    expect(formatPeriod(undefined)).toBe('');
    expect(formatPeriod('Brunch')).toBe('Brunch');
    expect(formatPeriod('25:00')).toBe('25:00');
  });
});

describe('12-hour conversion', () => {
  it("turns 'HH:mm' into 'h:mm AM/PM'", () => {
    expect(to12HourTime('19:30')).toBe('7:30 PM');
    expect(to12HourTime('07:05')).toBe('7:05 AM');
    expect(to12HourTime('7:05')).toBe('7:05 AM');
    expect(to12HourTime('00:30')).toBe('12:30 AM');
    expect(to12HourTime('12:00')).toBe('12:00 PM');
    expect(to12HourTime('23:59')).toBe('11:59 PM');
  });
  it('refuses what is not a 24-hour time', () => {
    for (const bad of ['24:00', '7:5', '19:60', '7pm', '', '1930', ' : ']) expect(to12HourTime(bad)).toBeNull();
  });
  it('format12HourTime matches the database (to_char FMHH12:MI AM)', () => {
    expect(format12HourTime({ hour: 0, minute: 0 })).toBe('12:00 AM');
    expect(format12HourTime({ hour: 13, minute: 7 })).toBe('1:07 PM');
  });
});

describe('parseClockTime', () => {
  it('reads 24-hour and 12-hour texts', () => {
    expect(parseClockTime('19:30')).toEqual({ hour: 19, minute: 30 });
    expect(parseClockTime('7:00 PM')).toEqual({ hour: 19, minute: 0 });
    expect(parseClockTime('7PM')).toEqual({ hour: 19, minute: 0 });
    expect(parseClockTime('7:30pm')).toEqual({ hour: 19, minute: 30 });
    expect(parseClockTime('12:00 AM')).toEqual({ hour: 0, minute: 0 });
    expect(parseClockTime('12:30 PM')).toEqual({ hour: 12, minute: 30 });
    expect(parseClockTime('11 a.m.')).toEqual({ hour: 11, minute: 0 });
  });
  it('null for unreadable text', () => {
    for (const bad of [null, undefined, '', 'soon', '13 PM', '0 AM', '7:61 PM']) expect(parseClockTime(bad)).toBeNull();
  });
});

describe('normalizePeriod', () => {
  it('canonical named periods, H:mm clock times, null for blank', () => {
    expect(normalizePeriod('evening')).toBe('Evening');
    expect(normalizePeriod(' NIGHT ')).toBe('Night');
    expect(normalizePeriod('07:30')).toBe('7:30');
    expect(normalizePeriod('19:30')).toBe('19:30');
    expect(normalizePeriod('')).toBeNull();
    expect(normalizePeriod('  ')).toBeNull();
    expect(normalizePeriod(null)).toBeNull();
    expect(normalizePeriod(undefined)).toBeNull();
  });
  it('undefined for anything else', () => {
    expect(normalizePeriod('Brunch')).toBeUndefined();
    expect(normalizePeriod('7pm')).toBeUndefined();
    expect(normalizePeriod('24:00')).toBeUndefined();
  });
});

describe('calendar hours (spec §9)', () => {
  const hours = (p: string | null) => {
    const { start, end } = periodHours(p);
    return [start.hour, start.minute, end.hour, end.minute];
  };
  it('named periods', () => {
    expect(hours('Morning')).toEqual([9, 0, 12, 0]);
    expect(hours('Afternoon')).toEqual([13, 0, 17, 0]);
    expect(hours('Evening')).toEqual([18, 0, 22, 0]);
    expect(hours('Night')).toEqual([19, 0, 23, 0]);
  });
  it('a clock time gives 2 hours; whole day and unknown 9-12', () => {
    expect(hours('19:30')).toEqual([19, 30, 21, 30]);
    expect(hours('23:00')).toEqual([23, 0, 25, 0]);
    expect(hours(null)).toEqual([9, 0, 12, 0]);
    expect(hours('Brunch')).toEqual([9, 0, 12, 0]);
  });
  it('an event time gives 2 hours; unparsable starts at 19:00', () => {
    expect(eventTimeHours('7:30 PM')).toEqual({ start: { hour: 19, minute: 30 }, end: { hour: 21, minute: 30 } });
    expect(eventTimeHours('8:00 AM').start).toEqual({ hour: 8, minute: 0 });
    expect(eventTimeHours('whenever')).toEqual({ start: { hour: 19, minute: 0 }, end: { hour: 21, minute: 0 } });
    expect(eventTimeHours(null).start).toEqual({ hour: 19, minute: 0 });
  });
});

describe('periodSortMinutes', () => {
  it('orders a day: whole day, then by time of day', () => {
    const periods = ['Night', '19:30', null, 'Morning', '8:00', 'Evening', 'Afternoon'];
    const sorted = [...periods].sort((a, b) => periodSortMinutes(a) - periodSortMinutes(b));
    expect(sorted).toEqual([null, '8:00', 'Morning', 'Afternoon', 'Evening', '19:30', 'Night']);
  });
});

describe('calendar dates', () => {
  it('accepts real dates only', () => {
    expect(parseCalendarDate('2026-03-14')).toEqual({ year: 2026, month: 3, day: 14 });
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-02-30', '2100-02-29', '2026-13-01', '2026-04-31', '2026-00-10', '0000-01-01', '2026-3-14', '2026-03-14T00:00', ' 2026-03-14', 14]) {
      expect(isCalendarDate(bad), String(bad)).toBe(false);
    }
  });
  it('adds days across months and years, without time zones', () => {
    expect(formatIsoDate(addDays({ year: 2026, month: 12, day: 31 }, 1))).toBe('2027-01-01');
    expect(formatIsoDate(addDays({ year: 2028, month: 2, day: 28 }, 1))).toBe('2028-02-29');
    expect(formatIsoDate(addDays({ year: 2026, month: 3, day: 1 }, -1))).toBe('2026-02-28');
  });
  it("formats the long en-US date ('Saturday, March 14, 2026')", () => {
    expect(formatLongDate('2026-03-14')).toBe('Saturday, March 14, 2026');
    expect(formatLongDate('2027-01-01')).toBe('Friday, January 1, 2027');
    expect(formatLongDate('not a date')).toBe('not a date');
  });
});

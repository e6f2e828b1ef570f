import { describe, expect, it } from 'vitest';
import { to12HourTime } from './shared-periods';
import { formatPeriod } from './time-of-day';

describe("the host's time in 12-hour form (spec §5 'h:mm AM/PM')", () => {
  it.each([
    ['19:30', '7:30 PM'],
    ['07:05', '7:05 AM'],
    ['00:00', '12:00 AM'],
    ['12:00', '12:00 PM'],
    ['23:59', '11:59 PM'],
  ])('%s is %s', (input, expected) => {
    expect(to12HourTime(input)).toBe(expected);
  });

  it('is null for what a time input never gives', () => {
    expect(to12HourTime('')).toBeNull();
    expect(to12HourTime('24:00')).toBeNull();
    expect(to12HourTime('7pm')).toBeNull();
  });
});

describe('period display (spec §9), the same on the web and in the e-mail', () => {
  it.each([
    ['Morning', '9AM'],
    ['Afternoon', '2PM'],
    ['Evening', '7PM'],
    ['Night', '9PM'],
    ['19:00', '7PM'],
    ['19:30', '7:30PM'],
    ['0:15', '12:15AM'],
    [null, ''],
  ])('%s is shown as %s', (period, expected) => {
    expect(formatPeriod(period)).toBe(expected);
  });
});

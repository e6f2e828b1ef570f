import { describe, expect, it } from 'vitest';
import { formatPeriod, to12HourTime } from './shared-periods';

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
    ['12:00', '12PM'],
    ['9:05', '9:05AM'],
    [null, ''],
    [undefined, ''],
    // Unknown values are shown as they are.
    ['Brunch', 'Brunch'],
    ['25:00', '25:00'],
  ])('%s is shown as %s', (period, expected) => {
    expect(formatPeriod(period)).toBe(expected);
  });
});

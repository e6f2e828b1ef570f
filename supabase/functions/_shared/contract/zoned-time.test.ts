import { describe, expect, it } from 'vitest';
import { instantOf, isKnownTimeZone, wallClockAt } from './zoned-time.ts';

const clock = (year: number, month: number, day: number, hour = 0, minute = 0) => ({ year, month, day, hour, minute, second: 0 });

describe('zoned time', () => {
  it('reads the wall clock of an instant in a zone', () => {
    expect(wallClockAt(Date.UTC(2026, 10, 27, 18), 'Europe/Berlin')).toEqual(clock(2026, 11, 27, 19));
    expect(wallClockAt(Date.UTC(2026, 10, 27, 3), 'America/New_York')).toEqual(clock(2026, 11, 26, 22));
    expect(wallClockAt(Date.UTC(2026, 10, 27, 0), 'UTC')).toEqual(clock(2026, 11, 27, 0));
  });

  it('finds the instant of a wall clock, in summer and winter time', () => {
    expect(instantOf(clock(2026, 7, 1, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 10));
    expect(instantOf(clock(2026, 12, 1, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 11, 1, 11));
    expect(instantOf(clock(2026, 12, 1, 12), 'Asia/Kolkata')).toBe(Date.UTC(2026, 11, 1, 6, 30));
  });

  it('places a skipped time an hour later and a repeated time at its first', () => {
    // New York springs forward at 2:00 on March 8, 2026, and falls back at 2:00 on November 1.
    expect(instantOf(clock(2026, 3, 8, 2, 30), 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(instantOf(clock(2026, 11, 1, 1, 30), 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 5, 30));
  });

  it('knows the browser’s zones', () => {
    expect(isKnownTimeZone('America/Los_Angeles')).toBe(true);
    expect(isKnownTimeZone('Pacific Standard Time')).toBe(false);
  });
});

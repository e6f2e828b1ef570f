import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLongDate, formatShortDate, parseLocalDate } from './local-date';

afterEach(() => vi.unstubAllEnvs());

describe('parseLocalDate', () => {
  it('gives local midnight of that calendar day', () => {
    const date = parseLocalDate('2026-03-14')!;
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours()]).toEqual([2026, 2, 14, 0]);
  });

  it('rejects what is not a real YYYY-MM-DD date', () => {
    for (const value of ['2026-02-30', '2026-13-01', '2026-3-14', '14/03/2026', '2026-03-14T00:00:00Z', '']) {
      expect(parseLocalDate(value)).toBeNull();
    }
  });
});

describe('formatShortDate / formatLongDate', () => {
  it('formats in US English', () => {
    expect(formatShortDate('2026-03-14')).toBe('Sat, Mar 14');
    expect(formatLongDate('2026-03-14')).toBe('Saturday, March 14, 2026');
  });

  it('keeps the calendar day west of Greenwich, where UTC parsing would show the day before', () => {
    // The time zone is read when a Date is used, so this applies to the
    // formatting below (jsdom and Node honour a late TZ change).
    vi.stubEnv('TZ', 'America/Los_Angeles');
    expect(formatShortDate('2026-03-14')).toBe('Sat, Mar 14');
    expect(formatLongDate('2026-01-01')).toBe('Thursday, January 1, 2026');
  });

  it('shows an unreadable value as it came', () => {
    expect(formatShortDate('soon')).toBe('soon');
  });
});

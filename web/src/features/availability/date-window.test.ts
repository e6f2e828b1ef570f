import { describe, expect, it } from 'vitest';
import { localToday, nextTwoWeeks, plusDays, votingWindow } from './date-window';

describe('the voting window', () => {
  it("is the visitor's local day, never shifted to UTC", () => {
    // 23:30 on March 14 local time is still March 14, whatever UTC says.
    expect(localToday(new Date(2026, 2, 14, 23, 30))).toBe('2026-03-14');
    expect(localToday(new Date(2026, 0, 1, 0, 5))).toBe('2026-01-01');
  });

  it("offers today and the 13 days after it as 'Next 2 Weeks'", () => {
    const days = nextTwoWeeks('2026-03-14');
    expect(days).toHaveLength(14);
    expect(days[0]).toBe('2026-03-14');
    expect(days[13]).toBe('2026-03-27');
    expect(new Set(days).size).toBe(14);
  });

  it('crosses months, years and leap days', () => {
    expect(nextTwoWeeks('2026-12-25').slice(6, 9)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
    expect(nextTwoWeeks('2028-02-20')).toContain('2028-02-29');
    expect(nextTwoWeeks('2027-02-20')).not.toContain('2027-02-29');
    expect(plusDays('2026-03-31', 1)).toBe('2026-04-01');
  });

  it('lets the Date Picker reach 365 days ahead, inside the server limit of 366', () => {
    expect(votingWindow('2026-03-14')).toEqual({ minDate: '2026-03-14', maxDate: '2027-03-14' });
    expect(votingWindow('2028-01-01')).toEqual({ minDate: '2028-01-01', maxDate: '2028-12-31' });
  });

  it('refuses a date that is not a real calendar date', () => {
    expect(() => plusDays('2026-02-30', 1)).toThrow();
  });
});

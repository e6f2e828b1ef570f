import { describe, expect, it } from 'vitest';
import { formatPeriod } from './time-of-day';

describe('formatPeriod', () => {
  it('shows named periods as their hour', () => {
    expect(['Morning', 'Afternoon', 'Evening', 'Night'].map(formatPeriod)).toEqual(['9AM', '2PM', '7PM', '9PM']);
  });

  it('shows clock times in 12-hour form', () => {
    expect(formatPeriod('19:00')).toBe('7PM');
    expect(formatPeriod('19:30')).toBe('7:30PM');
    expect(formatPeriod('0:15')).toBe('12:15AM');
    expect(formatPeriod('12:00')).toBe('12PM');
    expect(formatPeriod('9:05')).toBe('9:05AM');
  });

  it('gives nothing for a whole-day slot and keeps unknown values', () => {
    expect(formatPeriod(null)).toBe('');
    expect(formatPeriod(undefined)).toBe('');
    expect(formatPeriod('Brunch')).toBe('Brunch');
    expect(formatPeriod('25:00')).toBe('25:00');
  });
});

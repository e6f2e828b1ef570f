import { describe, expect, it } from 'vitest';
import { formatCardTime, formatMeetingTime } from './plan-time';

const slot = { id: 's1', date: '2026-03-14', period: '19:00' };

describe('formatCardTime', () => {
  it('shows the short date and the event time of a completed plan', () => {
    expect(formatCardTime({ status: 'completed', eventTime: '7:00 PM', lockedTimeSlot: slot })).toBe('Sat, Mar 14 · 7:00 PM');
  });

  it("falls back to the slot's period", () => {
    expect(formatCardTime({ status: 'completed', eventTime: null, lockedTimeSlot: slot })).toBe('Sat, Mar 14 · 7PM');
    expect(formatCardTime({ status: 'completed', eventTime: null, lockedTimeSlot: { ...slot, period: null } })).toBe(
      'Sat, Mar 14',
    );
  });

  it('shows nothing before the plan is completed or without a slot', () => {
    expect(formatCardTime({ status: 'time_range_locked', eventTime: null, lockedTimeSlot: slot })).toBeNull();
    expect(formatCardTime({ status: 'completed', eventTime: '7:00 PM', lockedTimeSlot: null })).toBeNull();
  });
});

describe('formatMeetingTime', () => {
  it('gives the long date with the time when set', () => {
    expect(formatMeetingTime({ lockedTimeSlotDate: '2026-03-14', eventTime: '7:00 PM' })).toBe(
      'Saturday, March 14, 2026 at 7:00 PM',
    );
    expect(formatMeetingTime({ lockedTimeSlotDate: '2026-03-14', eventTime: null })).toBe('Saturday, March 14, 2026');
  });

  it('is null while no date is locked', () => {
    expect(formatMeetingTime({ lockedTimeSlotDate: null, eventTime: null })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  dateTimeLocalToIso,
  formatDeadlineMoment,
  formatTimeLeft,
  isVotingOpen,
  recentReminder,
  reminderSentText,
  summarizeDeadline,
  toDateTimeLocal,
} from './deadline';

// Local moments (built from their parts), so the texts hold in any time zone.
const now = new Date(2026, 10, 26, 12, 0); // Thu, Nov 26, 2026, 12:00 PM
const later = (ms: number) => new Date(now.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatTimeLeft', () => {
  it('counts whole days from a day on', () => {
    expect(formatTimeLeft(later(2 * DAY + 7 * HOUR), now)).toBe('2 days left');
    expect(formatTimeLeft(later(DAY), now)).toBe('1 day left');
    expect(formatTimeLeft(later(DAY + 23 * HOUR), now)).toBe('1 day left');
    expect(formatTimeLeft(later(30 * DAY), now)).toBe('30 days left');
  });

  it('counts whole hours under a day', () => {
    expect(formatTimeLeft(later(DAY - MINUTE), now)).toBe('23 hours left');
    expect(formatTimeLeft(later(5 * HOUR + 59 * MINUTE), now)).toBe('5 hours left');
    expect(formatTimeLeft(later(HOUR), now)).toBe('1 hour left');
  });

  it('says less than an hour under an hour, and passed from the deadline on', () => {
    expect(formatTimeLeft(later(HOUR - 1), now)).toBe('less than an hour left');
    expect(formatTimeLeft(later(1), now)).toBe('less than an hour left');
    expect(formatTimeLeft(now, now)).toBe('Deadline passed');
    expect(formatTimeLeft(later(-3 * DAY), now)).toBe('Deadline passed');
  });
});

describe('formatDeadlineMoment / summarizeDeadline', () => {
  it("shows the weekday, date and time, and the year only when it is not this year's", () => {
    expect(formatDeadlineMoment(new Date(2026, 10, 28, 19, 0), now)).toBe('Sat, Nov 28, 7:00 PM');
    expect(formatDeadlineMoment(new Date(2027, 0, 2, 9, 5), now)).toBe('Sat, Jan 2, 2027, 9:05 AM');
  });

  it("summarizes a plan's deadline for the status card", () => {
    const deadline = new Date(2026, 10, 28, 19, 0).toISOString();
    expect(summarizeDeadline(deadline, now)).toEqual({ when: 'Sat, Nov 28, 7:00 PM', left: '2 days left', passed: false });
    expect(summarizeDeadline(deadline, new Date(2026, 10, 28, 19, 0))).toMatchObject({ left: 'Deadline passed', passed: true });
    expect(summarizeDeadline(null, now)).toBeNull();
    expect(summarizeDeadline('soon', now)).toBeNull();
  });
});

describe('datetime-local values', () => {
  it('reads the local date and time as an instant with its zone', () => {
    expect(dateTimeLocalToIso('2026-11-28T19:00')).toBe(new Date(2026, 10, 28, 19, 0).toISOString());
    expect(dateTimeLocalToIso('2026-11-28T19:00')).toMatch(/Z$/);
    for (const value of ['', '2026-11-28', '19:00', '2026-11-28T19:00Z', 'tomorrow']) expect(dateTimeLocalToIso(value)).toBeNull();
  });

  it('writes a moment back as the input shows it', () => {
    expect(toDateTimeLocal(new Date(2026, 0, 2, 9, 5))).toBe('2026-01-02T09:05');
    const iso = dateTimeLocalToIso('2026-11-28T19:00')!;
    expect(toDateTimeLocal(new Date(iso))).toBe('2026-11-28T19:00');
  });
});

describe('recentReminder', () => {
  it('blocks another reminder for 12 hours and says when it was sent and when the next may go', () => {
    const sent = new Date(2026, 10, 26, 7, 42).toISOString();
    expect(recentReminder(sent, now)).toEqual({ sent: 'Reminded at 7:42 AM', again: 'You can remind them again at 7:42 PM.' });
    expect(recentReminder(sent, new Date(2026, 10, 26, 19, 41))).not.toBeNull();
    expect(recentReminder(sent, new Date(2026, 10, 26, 19, 42))).toBeNull();
  });

  it("names yesterday and tomorrow across midnight", () => {
    const sent = new Date(2026, 10, 25, 23, 30).toISOString();
    expect(recentReminder(sent, new Date(2026, 10, 26, 0, 15))).toEqual({
      sent: 'Reminded yesterday at 11:30 PM',
      again: 'You can remind them again at 11:30 AM.',
    });
    expect(recentReminder(new Date(2026, 10, 26, 20, 0).toISOString(), new Date(2026, 10, 26, 21, 0))).toEqual({
      sent: 'Reminded at 8:00 PM',
      again: 'You can remind them again tomorrow at 8:00 AM.',
    });
  });

  it('is null without a reminder, or an unreadable one', () => {
    expect(recentReminder(null, now)).toBeNull();
    expect(recentReminder(undefined, now)).toBeNull();
    expect(recentReminder('not a time', now)).toBeNull();
  });
});

describe('reminderSentText / isVotingOpen', () => {
  it('counts people in plain English', () => {
    expect(reminderSentText(1)).toBe('Reminder sent to 1 person');
    expect(reminderSentText(3)).toBe('Reminder sent to 3 people');
  });

  it('is open only while no date is locked', () => {
    expect(isVotingOpen({ status: 'planning', lockedTimeSlotDate: null })).toBe(true);
    expect(isVotingOpen({ status: 'time_range_locked', lockedTimeSlotDate: '2026-12-01' })).toBe(false);
    expect(isVotingOpen({ status: 'date_locked', lockedTimeSlotDate: '2026-12-01' })).toBe(false);
    expect(isVotingOpen({ status: 'completed', lockedTimeSlotDate: '2026-12-01' })).toBe(false);
  });
});

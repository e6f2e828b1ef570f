import type { Plan } from '../../../../supabase/functions/_shared/contract/plans';
import { REMIND_WINDOW_SECONDS } from '../../../../supabase/functions/_shared/contract/notifications';
import { atClock, plainSpaces } from '../../lib/local-date';

// "Decide by" and the host's reminder (docs/api.md "Notifications",
// docs/notifications.md): pure rules and texts, each taking `now` so they are
// tested without timers. Moments are shown in the viewer's own time zone.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The server's reminder window: one per plan per 12 hours. */
export const REMIND_WINDOW_MS = REMIND_WINDOW_SECONDS * 1000;

/**
 * No date is locked yet: people can still vote, the host can remind them and
 * set a deadline (both answer 409 once a date is locked).
 */
export function isVotingOpen(plan: Pick<Plan, 'status' | 'lockedTimeSlotDate'>): boolean {
  return plan.status === 'planning' && !plan.lockedTimeSlotDate;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** '2 days left', '5 hours left', 'less than an hour left' or 'Deadline passed' (whole days and hours, rounded down). */
export function formatTimeLeft(deadline: Date, now: Date): string {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return 'Deadline passed';
  if (left < HOUR_MS) return 'less than an hour left';
  if (left < DAY_MS) return `${plural(Math.floor(left / HOUR_MS), 'hour', 'hours')} left`;
  return `${plural(Math.floor(left / DAY_MS), 'day', 'days')} left`;
}

const thisYearFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const otherYearFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
/** 'Sat, Nov 28, 7:00 PM'; with the year ('Sun, Nov 28, 2027, 7:00 PM') when it is not this year. */
export function formatDeadlineMoment(deadline: Date, now: Date): string {
  const format = deadline.getFullYear() === now.getFullYear() ? thisYearFormat : otherYearFormat;
  return plainSpaces(format.format(deadline));
}

export interface DeadlineSummary {
  /** 'Sat, Nov 28, 7:00 PM'. */
  when: string;
  /** '2 days left' ... 'Deadline passed'. */
  left: string;
  passed: boolean;
}

/** What the status card says of a plan's deadline; null without one (or an unreadable one). */
export function summarizeDeadline(deadline: string | null | undefined, now: Date): DeadlineSummary | null {
  if (!deadline) return null;
  const moment = new Date(deadline);
  if (Number.isNaN(moment.getTime())) return null;
  return { when: formatDeadlineMoment(moment, now), left: formatTimeLeft(moment, now), passed: moment <= now };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The value of an `<input type="datetime-local">` for a moment: 'YYYY-MM-DDTHH:mm' in the viewer's zone. */
export function toDateTimeLocal(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}T${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

const DATE_TIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * The instant a datetime-local value names in the viewer's zone, as ISO 8601
 * with its zone ('2026-11-28T19:00:00.000Z' for 7 PM in London); null when
 * empty or unreadable. A value without an offset is local time (ECMAScript).
 */
export function dateTimeLocalToIso(value: string): string | null {
  if (!DATE_TIME_LOCAL.test(value)) return null;
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? null : moment.toISOString();
}

export interface RecentReminder {
  /** 'Reminded at 7:42 PM' (or 'Reminded yesterday at 11:42 PM'). */
  sent: string;
  /** 'You can remind them again at 7:42 AM.' */
  again: string;
}

/** The host's last reminder while it still blocks another (within 12 hours); null when a reminder may be sent. */
export function recentReminder(remindedAt: string | null | undefined, now: Date): RecentReminder | null {
  if (!remindedAt) return null;
  const sent = new Date(remindedAt);
  if (Number.isNaN(sent.getTime())) return null;
  const next = new Date(sent.getTime() + REMIND_WINDOW_MS);
  if (next <= now) return null;
  return { sent: `Reminded ${atClock(sent, now)}`, again: `You can remind them again ${atClock(next, now)}.` };
}

/** The toast's title after Remind them: 'Reminder sent to 3 people', 'Reminder sent to 1 person'. */
export function reminderSentText(reminded: number): string {
  return `Reminder sent to ${plural(reminded, 'person', 'people')}`;
}

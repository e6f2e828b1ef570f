// POST /api/scheduler/run: the scheduled work (docs/notifications.md
// "Scheduling"): deadlines (the reminder a day before, the auto-lock), the
// event reminders (the day before and about two hours before a timed plan), the
// plans' notices whose window is over, digests, expired Idempotency-Keys
// (docs/offline.md "Idempotency keys"), expired sessions and credentials
// nobody uses (docs/security-and-limits.md "Housekeeping"), then every
// delivery that is due. Called every SCHEDULER_SECONDS by
// `npm start`'s timer, and by pg_cron through pg_net on Supabase, with
// `Authorization: Bearer <SCHEDULER_SECRET>`. Any number of runs may overlap:
// each step claims its rows.
import { Hono } from 'hono';
import { sameBytes } from '../../../_shared/http/bytes.ts';
import { withWorker } from '../../../_shared/db/client.ts';
import { readEnv } from '../../../_shared/config/env.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { NOTIFICATION_LIMITS, rateLimits } from '../../../_shared/db/limits.ts';
import { deliverDue } from '../../../_shared/delivery/outbox.ts';

const encoder = new TextEncoder();

/** Expired Idempotency-Keys deleted per run at most (claims delete their caller's too). */
const EXPIRED_KEYS_PER_RUN = 5000;

/** Expired sessions, idle guest credentials and idle calendar feeds deleted per run at most, of each. */
const ENDED_CREDENTIALS_PER_RUN = 5000;

/** The two secrets' SHA-256 digests compared in constant time (equal lengths, so nothing leaks the secret's). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ]);
  return sameBytes(new Uint8Array(a), new Uint8Array(b));
}

export const schedulerRoutes = new Hono().post('/scheduler/run', async (c) => {
  const secret = readEnv('SCHEDULER_SECRET');
  const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  // Unset: the endpoint does not exist. Wrong: the same answer, nothing learnt.
  if (!secret || secret.length < 32 || !given || !(await sameSecret(given, secret))) {
    throw new HttpError(404, 'Not found');
  }
  // In this order (a select list is evaluated in order): an auto-lock at the
  // deadline is announced by the same run.
  const { deadlines, eventReminders, notices, digests, expiredKeys, endedCredentials } = await withWorker(async (tx) => {
    const [row] = await tx<
      { deadlines: number; eventReminders: number; notices: number; digests: number; expiredKeys: number; endedCredentials: number }[]
    >`
      select private.run_deadlines(${NOTIFICATION_LIMITS.deadlineReminderSeconds}, ${rateLimits().remind.windowSeconds}) as deadlines,
             private.run_event_reminders(${NOTIFICATION_LIMITS.eventDayReminderSeconds}, ${NOTIFICATION_LIMITS.eventSoonReminderSeconds})
               as "eventReminders",
             private.send_plan_notices(null, ${NOTIFICATION_LIMITS.noticeWindowSeconds}) as notices,
             private.run_digests(${NOTIFICATION_LIMITS.digestWindowSeconds}, ${NOTIFICATION_LIMITS.digestSettleSeconds}) as digests,
             private.expire_idempotency_keys(${EXPIRED_KEYS_PER_RUN}) as "expiredKeys",
             private.end_idle_credentials(${ENDED_CREDENTIALS_PER_RUN}) as "endedCredentials"`;
    return row;
  });
  const deliveries = await deliverDue();
  return c.json({ deadlines, eventReminders, notices, digests, expiredKeys, endedCredentials, ...deliveries });
});

// /api/plans/{id}/...: the host's lock flow (spec §7; docs/api.md
// "Time slots and the lock flow"): lock a date, set the time (and e-mail the
// members), unlock, and the location. Mounted on /plans like plan-dates.ts.
//
// Every body is validated before the database is touched; each request is ONE
// transaction; the rules (host only, the status flow, the date window) are the
// host rules' SQL functions, whose HP4xx sentences reach the client.
import { Hono } from 'hono';
import { requireUserId } from '../../_shared/auth.ts';
import { lockDateBody, setEventTimeBody, setLocationBody, unlockBody } from '../../_shared/contract/dates-requests.ts';
import { type Plan, PLAN_NOT_FOUND } from '../../_shared/contract/plans.ts';
import { type Tx, withRequest } from '../../_shared/db.ts';
import { HttpError } from '../../_shared/errors.ts';
import { rateLimits } from '../../_shared/limits.ts';
import { type EventTimeDetails, notifyEventTimeSet, type Recipient } from '../../_shared/notify.ts';
import { planJson, requirePlanById } from '../../_shared/plans.ts';
import { pathId } from '../../_shared/params.ts';
import { parseBody } from '../../_shared/validation.ts';

/** The plan JSON after a host action (the action's own errors come first). */
async function hostAction(userId: string, planId: string, action: (tx: Tx) => Promise<unknown>): Promise<Plan> {
  return await withRequest({ userId, planId }, async (tx) => {
    await action(tx);
    return await requirePlanById(tx, planId);
  });
}

interface EventTimeRow {
  plan: Plan;
  /** False when the date and time are what the members were last e-mailed. */
  sendMail: boolean;
  details: Omit<EventTimeDetails, 'planId'>;
  recipients: Recipient[];
}

export const planLockRoutes = new Hono()
  // Host: lock a date (status time_range_locked). 409 once the time is set.
  .post('/:id/lock-date', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { date } = await parseBody(c, lockDateBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.lock_date(${planId}::uuid, ${date}::date)`);
    return c.json(plan);
  })

  // Host: set the time on the locked date (status completed), then e-mail the
  // members. The mail goes out after COMMIT: a failure is logged, not undone.
  .post('/:id/set-event-time', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { time } = await parseBody(c, setEventTimeBody);
    const row = await withRequest({ userId, planId }, async (tx) => {
      await tx`select app.set_event_time(${planId}::uuid, ${time})`;
      // Right after the set, on the still-locked plan: e-mail only when the
      // date or time changed, at most once per window (429 when too soon).
      const mail = rateLimits()['event-time-mail'];
      const [result] = await tx<EventTimeRow[]>`
        select ${planJson(tx)} as plan,
               private.claim_event_time_notice(p.id, ${mail.windowSeconds}, ${mail.message}) as "sendMail",
               jsonb_build_object(
                 'planTitle', p.title,
                 'ideaText', i.text,
                 'location', p.location,
                 'date', p.locked_time_slot_date,
                 'eventTime', p.event_time,
                 'period', ts.period
               ) as details,
               (select coalesce(jsonb_agg(jsonb_build_object('email', r.email, 'name', r.name)), '[]'::jsonb)
                  from private.event_time_recipients(p.id) r) as recipients
          from app.plans p
          left join app.ideas i on i.id = p.locked_idea_id
          left join app.time_slots ts on ts.id = p.locked_time_slot_id
         where p.id = ${planId}::uuid`;
      if (!result) throw new HttpError(404, PLAN_NOT_FOUND);
      return result;
    });
    if (row.sendMail) await notifyEventTimeSet({ planId, ...row.details }, row.recipients);
    return c.json(row.plan);
  })

  // Host: back to planning; the picked idea, the location and all votes stay.
  .post('/:id/unlock', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    await parseBody(c, unlockBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.unlock_plan(${planId}::uuid)`);
    return c.json(plan);
  })

  // Host: set the location ('' clears it).
  .post('/:id/location', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { location } = await parseBody(c, setLocationBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.set_location(${planId}::uuid, ${location})`);
    return c.json(plan);
  });

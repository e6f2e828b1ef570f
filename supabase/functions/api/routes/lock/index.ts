// The host's decisions, /api/plans/{id}/...: pick an idea (spec §7; docs/api.md
// "Ideas, comments, votes") and the lock flow ("Time slots and the lock
// flow"): lock a date, set the time (and tell everyone), unlock, the
// location, and cancelling the plan.
//
// Every body is validated before the database is touched; each request is ONE
// transaction; the rules (host only, the status flow, the date window) are the
// host rules' SQL functions, whose HP4xx sentences reach the client. What the
// group is told is written to the outbox by the same transaction when the
// plan's notice budget allows, and sent after it commits (deliverSoon);
// otherwise it waits for the scheduler (docs/notifications.md "The notice
// budget"). The change itself is never refused for the budget.
import { Hono } from 'hono';
import { requireUserId } from '../../../_shared/auth/tokens.ts';
import { cancelPlanBody, lockDateBody, setEventTimeBody, setLocationBody, unlockBody } from '../../../_shared/contract/dates-requests.ts';
import { pickIdeaBody } from '../../../_shared/contract/ideas-requests.ts';
import type { PickIdeaResult } from '../../../_shared/contract/ideas.ts';
import { type Plan, PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { type Tx, withRequest } from '../../../_shared/db/client.ts';
import { deliverSoon, sendPlanNotices } from '../../../_shared/delivery/outbox.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { requirePlanById } from '../plans/plan-json.ts';

/**
 * The plan JSON after a host action (the action's own errors come first); its
 * notice, when the budget allows one now, goes out after COMMIT. The notice
 * and the read are sent together (one round trip).
 */
async function hostAction(userId: string, planId: string, action: (tx: Tx) => Promise<unknown>): Promise<Plan> {
  const plan = await withRequest({ userId, planId }, async (tx) => {
    await action(tx);
    const [, read] = await Promise.all([sendPlanNotices(tx, planId), requirePlanById(tx, planId)]);
    return read;
  });
  deliverSoon(planId);
  return plan;
}

export const lockRoutes = new Hono()
  // Host only (app.pick_idea: 404 unknown plan, 403 not the host, 404 an idea
  // of another plan); picking the picked idea again un-picks it. Answers the
  // plan's lockedIdeaId afterwards. The plan's notice (when its budget allows
  // one now: docs/notifications.md "The notice budget") and the read are sent
  // without waiting for the pick (one round trip) and see its update.
  .post('/plans/:id/pick-idea', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { ideaId } = await parseBody(c, pickIdeaBody);
    const result = await withRequest({ userId, planId }, async (tx) => {
      const pick = tx`select app.pick_idea(${planId}::uuid, ${ideaId}::uuid)`.execute();
      const notice = sendPlanNotices(tx, planId);
      const read = tx<PickIdeaResult[]>`
        select locked_idea_id as "lockedIdeaId" from app.plans where id = ${planId}::uuid`.execute();
      // Settle all before deciding: if the pick failed, its error (not the
      // "transaction aborted" of the statements behind it) is the answer.
      const [picked, noticed, readBack] = await Promise.allSettled([pick, notice, read]);
      if (picked.status === 'rejected') throw picked.reason;
      if (noticed.status === 'rejected') throw noticed.reason;
      if (readBack.status === 'rejected') throw readBack.reason;
      return readBack.value[0];
    });
    if (!result) throw new HttpError(404, PLAN_NOT_FOUND);
    deliverSoon(planId);
    return c.json(result);
  })

  // Host: lock a date (status time_range_locked). 409 once the time is set.
  .post('/plans/:id/lock-date', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { date } = await parseBody(c, lockDateBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.lock_date(${planId}::uuid, ${date}::date)`);
    return c.json(plan);
  })

  // Host: set the time on the locked date, in the zone of the host's clock
  // (status completed). Everyone is told (members also by e-mail with an
  // .ics) when the date, time or zone differs from what they were told,
  // within the plan's notice budget.
  .post('/plans/:id/set-event-time', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { time, timeZone } = await parseBody(c, setEventTimeBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.set_event_time(${planId}::uuid, ${time}, ${timeZone})`);
    return c.json(plan);
  })

  // Host: call the plan off, with an optional message (docs/decisions/0100-
  // cancelling-a-plan.md): status cancelled, everything else stays; everyone
  // is told within the plan's notice budget; 409 when it already is.
  .post('/plans/:id/cancel', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { message } = await parseBody(c, cancelPlanBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.cancel_plan(${planId}::uuid, ${message ?? null})`);
    return c.json(plan);
  })

  // Host: back to planning (a cancelled plan reopens); the picked idea, the location and all votes stay.
  .post('/plans/:id/unlock', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    await parseBody(c, unlockBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.unlock_plan(${planId}::uuid)`);
    return c.json(plan);
  })

  // Host: set the location ('' clears it).
  .post('/plans/:id/location', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { location } = await parseBody(c, setLocationBody);
    const plan = await hostAction(userId, planId, (tx) => tx`select app.set_location(${planId}::uuid, ${location})`);
    return c.json(plan);
  });

// /api/plans/{id}/remind and /api/plans/{id}/deadline: the host reminds who
// has not answered, and sets "Decide by" (docs/api.md "Notifications";
// docs/notifications.md "At the deadline", "The notice budget").
import { Hono } from 'hono';
import { requireUserId } from '../../../_shared/auth/tokens.ts';
import { deadlineBody } from '../../../_shared/contract/notifications-requests.ts';
import type { RemindResult } from '../../../_shared/contract/notifications.ts';
import { PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { withRequest } from '../../../_shared/db/client.ts';
import { rateLimits } from '../../../_shared/db/limits.ts';
import { deliverSoon } from '../../../_shared/delivery/outbox.ts';
import { requirePlanById } from '../plans/plan-json.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';

export const reminderRoutes = new Hono()
  // 200 {reminded}; 429 with Retry-After within the window; 409 on a cancelled
  // plan. Once a date is locked it reminds who has not answered whether they
  // are coming (docs/decisions/0102-event-reminders.md).
  .post('/plans/:id/remind', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const window = rateLimits().remind;
    const reminded = await withRequest({ userId, planId }, async (tx) => {
      const [row] = await tx<{ reminded: number }[]>`
        select app.remind_unanswered(${planId}::uuid, ${window.windowSeconds}, ${window.message}) as reminded`;
      return row.reminded;
    });
    if (reminded > 0) deliverSoon(planId);
    const answer: RemindResult = { reminded };
    return c.json(answer);
  })

  // {deadline: ISO 8601 | null, autoLock?}: the plan JSON afterwards.
  .post('/plans/:id/deadline', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { deadline, autoLock } = await parseBody(c, deadlineBody);
    const plan = await withRequest({ userId, planId }, async (tx) => {
      await tx`select app.set_deadline(${planId}::uuid, ${deadline}::timestamptz, ${autoLock ?? null}::boolean)`;
      return await requirePlanById(tx, planId);
    });
    return c.json(plan);
  });

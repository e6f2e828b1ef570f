// Live streams of plan changes (Server-Sent Events; docs/live-updates.md).
// Mounted BEFORE the plan routes (api/app.ts), so that /plans/events is not
// read as the plan with id "events".
//
//   GET /api/plans/{id}/events[?since=N]  whoever may read the plan (its id is
//                                         enough, like GET /api/plans/{id})
//   GET /api/plans/events                 a signed-in user's plans (the home list)
//
// Who may listen is decided exactly like the reads: the versions are read in
// one transaction under the caller's role and claims, so RLS answers; a plan
// the caller cannot read is a 404 before the stream opens. Open streams are
// bounded per client network and per instance (./stream-slots.ts):
// 429 beyond, with Retry-After.
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { withRequest } from '../../../_shared/db/client.ts';
import { liveStreamTiming } from '../../../_shared/config/env.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { requestNetwork } from '../../../_shared/http/client-ip.ts';
import { planFeed } from './feed-sources.ts';
import { openPlanStream } from './plan-stream.ts';
import { takeStreamSlot } from './stream-slots.ts';

const SINCE = /^\d{1,15}$/;

/** The version a reconnecting client has: Last-Event-ID (EventSource) or ?since= (fetch). */
function sinceOf(header: string | undefined, query: string | undefined): number | null {
  const value = (header ?? query)?.trim();
  return value && SINCE.test(value) ? Number(value) : null;
}

const notFound = (): never => {
  throw new HttpError(404, PLAN_NOT_FOUND);
};

type VersionRow = { planId: string; version: string };
const toMap = (rows: VersionRow[]) => new Map(rows.map((r) => [r.planId, Number(r.version)]));

export const liveRoutes = new Hono()
  .get('/plans/events', async (c) => {
    const userId = await requireUserId(c);
    const readVersions = async () =>
      toMap(
        await withRequest({ userId }, (tx) => tx<VersionRow[]>`
          select pv.plan_id as "planId", pv.version::text
            from app.participants me
            join app.plan_versions pv on pv.plan_id = me.plan_id
           where me.user_id = ${userId}::uuid`),
      );
    // The plans of the moment; one the user joins later is watched from the
    // next stream on (the client also reopens it when its list changes).
    const planIds = [...(await readVersions()).keys()];
    const release = takeStreamSlot(requestNetwork(c));
    return await openPlanStream({
      onClose: release,
      feed: planFeed(),
      planIds,
      readVersions,
      ready: () => ({ planIds }),
      onUnreadable: notFound,
      ...liveStreamTiming(),
    });
  })

  .get('/plans/:id/events', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const since = sinceOf(c.req.header('last-event-id'), c.req.query('since'));
    const readVersions = async () =>
      toMap(
        await withRequest({ userId, planId }, (tx) => tx<VersionRow[]>`
          select pv.plan_id as "planId", pv.version::text
            from app.plans p
            join app.plan_versions pv on pv.plan_id = p.id
           where p.id = ${planId}::uuid`),
      );
    const release = takeStreamSlot(requestNetwork(c));
    return await openPlanStream({
      onClose: release,
      feed: planFeed(),
      planIds: [planId],
      readVersions,
      since,
      ready: (versions) => ({ planId, version: versions.get(planId) }),
      onUnreadable: notFound,
      ...liveStreamTiming(),
    });
  });

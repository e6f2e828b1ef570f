// A plan: create, list mine, read by id or slug, the host resetting its link,
// delete (spec §7; docs/api.md "Plans", "Leaving and deleting"). Who is in it
// (join, participants, removal, leave) is ../participants. Every parameter is
// validated before the database is touched; a malformed id or slug is "Plan
// not found" like an unknown one.
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { createPlanBody, rotateLinkBody } from '../../../_shared/contract/plans-requests.ts';
import { ONLY_HOST_CAN_DELETE, type Plan, PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { requestRow, requestStatements, withRequest } from '../../../_shared/db/client.ts';
import { knownListHash, listEtag, versionedRead } from '../../../_shared/db/versioned.ts';
import { deliverSoon } from '../../../_shared/delivery/outbox.ts';
import { HttpError, messages } from '../../../_shared/http/errors.ts';
import { pathId, planSlugParam } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { planJson, readPlan, readPlansOf, withSlug } from './plan-json.ts';

export const planRoutes = new Hono()
  // The caller's plans, spec §4 order, one statement; 304 when none of them
  // changed since the client's copy.
  .get('/plans', async (c) => {
    const userId = await requireUserId(c);
    const response = await versionedRead(c, {
      key: `list:${userId}`,
      etag: listEtag,
      client: knownListHash(c),
      query: (known) => requestRow({ userId }, (tx) => readPlansOf(tx, userId, known)),
    });
    return response!;
  })

  // The creator is host and first participant, in ONE statement: the plan id is
  // chosen here so that the request's plan_id claim already names the new plan,
  // which is what lets the participants insert policy accept the host's row
  // inside the same statement (a sub-select cannot see the CTE's new plan).
  .post('/plans', async (c) => {
    const userId = await requireUserId(c);
    const { title, isOpenInvite } = await parseBody(c, createPlanBody);
    const planId = crypto.randomUUID();
    // New plans per user per day (_shared/db/limits.ts), in the same round trip.
    const plan = await withRequest({ userId, planId }, async (tx) => {
      const [row] = await tx<{ plan: Plan }[]>`
        with plan as (
          -- Only for an account that still exists (the users policy shows the
          -- caller its own row): a valid token of a deleted account is a dead
          -- session, not a foreign-key error.
          insert into app.plans (id, title, is_open_invite, host_id)
          select ${planId}::uuid, ${title}, ${isOpenInvite ?? true}, u.id
            from app.users u where u.id = ${userId}::uuid
          returning *
        ), host as (
          -- The name is derived from the account by trigger; '-' is a placeholder.
          insert into app.participants (plan_id, user_id, name)
          select plan.id, plan.host_id, '-' from plan
          returning id
        )
        select ${planJson(tx, 'plan', tx`(select count(*)::int from host)`)} as plan
          from plan`;
      return row?.plan;
    }, { limits: [{ limit: 'plan', key: userId }] });
    if (!plan) throw new HttpError(401, messages.sessionExpired);
    return c.json(plan, 201);
  })

  // Registered before the other domains' GET '/plans/:id/...' (api/app.ts
  // mounts plans before them) so that a plan whose slug is e.g.
  // "participants" is still found by its slug.
  .get('/plans/slug/:slug', async (c) => {
    const planSlug = planSlugParam(c.req.param('slug'));
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `plan-by-slug:${planSlug}`,
      query: (known) => requestRow({ userId, planSlug }, (tx) => readPlan(tx, { slug: planSlug }, known)),
      render: withSlug,
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  .get('/plans/:id', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `plan:${planId}`,
      query: (known) => requestRow({ userId, planId }, (tx) => readPlan(tx, { id: planId }, known)),
      render: withSlug,
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // "Reset link" (host only, docs/decisions/0087-resetting-a-plans-link.md):
  // a new random slug, the old /l/{slug} is "Plan not found" from now on;
  // everyone already in keeps their access. Answers the plan with its new
  // slug. The rule and the read go out together: one round trip.
  .post('/plans/:id/rotate-link', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    await parseBody(c, rotateLinkBody);
    const [, [row]] = await requestStatements({ userId, planId }, (tx) => [
      tx`select private.reset_plan_link(${planId}::uuid)`,
      tx<{ plan: Plan }[]>`select ${planJson(tx)} as plan from app.plans p where p.id = ${planId}::uuid`,
    ] as const);
    return c.json(row.plan);
  })

  // Host only; everything of the plan goes with it (ON DELETE CASCADE). One
  // statement tells the three outcomes apart: no such plan, not the host, deleted.
  .delete('/plans/:id', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const outcome = await withRequest({ userId, planId }, async (tx) => {
      const [row] = await tx<{ isHost: boolean; deleted: boolean }[]>`
        with target as (
          select p.id, p.host_id = ${userId}::uuid as is_host
            from app.plans p where p.id = ${planId}::uuid
        ), deleted as (
          delete from app.plans p using target t
           where p.id = t.id and t.is_host
          returning p.id
        )
        select t.is_host as "isHost", exists (select 1 from deleted) as deleted from target t`;
      return row;
    });
    if (outcome?.deleted) {
      // Everyone else is told the plan is gone (written by the delete's trigger).
      deliverSoon(planId);
      return c.body(null, 204);
    }
    // Not the host: 403. Gone (or handed over) between the read and the delete: 404.
    if (outcome && !outcome.isHost) throw new HttpError(403, ONLY_HOST_CAN_DELETE);
    throw new HttpError(404, PLAN_NOT_FOUND);
  });

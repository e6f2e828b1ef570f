// /api/plans: create, list mine, read by id or slug, participants (and the
// host removing one), the host resetting the link, delete, leave
// (spec §7; docs/api.md "Plans", "Leaving and deleting"). Mounted on /plans next
// to the joining routes. Every parameter is validated before the database is
// touched; a malformed id or slug is "Plan not found" like an unknown one.
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { createPlanBody, rotateLinkBody } from '../../../_shared/contract/plans-requests.ts';
import { deleteCaller } from '../../../_shared/auth/delete-caller.ts';
import {
  type LeavePlanResult,
  ONLY_HOST_CAN_DELETE,
  PARTICIPANT_NOT_FOUND,
  type Plan,
  PLAN_NOT_FOUND,
  type Removal,
  REMOVAL_NOT_FOUND,
} from '../../../_shared/contract/plans.ts';
import { isoTime } from '../ideas/idea-json.ts';
import { pathId, planSlugParam } from '../../../_shared/http/params.ts';
import { requestRow, requestStatements, withRequest } from '../../../_shared/db/client.ts';
import { HttpError, messages } from '../../../_shared/http/errors.ts';
import { planJson, readParticipants, readPlan, readPlansOf, withSlug } from './plan-json.ts';
import { deliverSoon } from '../../../_shared/delivery/outbox.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { knownListHash, listEtag, versionedRead } from '../../../_shared/db/versioned.ts';

export const planRoutes = new Hono()
  // The caller's plans, spec §4 order, one statement; 304 when none of them
  // changed since the client's copy.
  .get('/', async (c) => {
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
  .post('/', async (c) => {
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

  // Registered before '/:id/...' so that a plan whose slug is e.g. "participants"
  // is still found by its slug.
  .get('/slug/:slug', async (c) => {
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

  .get('/:id', async (c) => {
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

  .get('/:id/participants', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `participants:${planId}`,
      query: (known) => requestRow({ userId, planId }, (tx) => readParticipants(tx, planId, known)),
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // "Reset link" (host only, docs/decisions/0087-resetting-a-plans-link.md):
  // a new random slug, the old /l/{slug} is "Plan not found" from now on;
  // everyone already in keeps their access. Answers the plan with its new
  // slug. The rule and the read go out together: one round trip.
  .post('/:id/rotate-link', async (c) => {
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
  .delete('/:id', async (c) => {
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
  })

  // The host removes someone (app.remove_participant: 404 unknown plan, 403
  // not the host, 404 not a participant of it, 409 the host), with their
  // ideas, comments and votes; a removed guest's secrets stop working. The
  // removal holds until the host allows them back
  // (docs/decisions/0083-removal-holds.md).
  .delete('/:id/participants/:participantId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const participantId = pathId(c.req.param('participantId'), PARTICIPANT_NOT_FOUND);
    const userId = await requireUserId(c);
    await requestRow({ userId, planId }, (tx) => tx`select app.remove_participant(${planId}::uuid, ${participantId}::uuid)`);
    return c.body(null, 204);
  })

  // The host's list of who was removed (private.plan_removals: 404 unknown
  // plan, 403 not the host), newest first.
  .get('/:id/removals', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const [removals] = await requestStatements({ userId, planId }, (tx) => [
      tx<Removal[]>`select r.id, r.name, r.is_guest as "isGuest", ${isoTime(tx, 'r', 'removed_at')} as "removedAt"
                      from private.plan_removals(${planId}::uuid) r`,
    ] as const);
    return c.json(removals);
  })

  // "Allow back" (private.allow_back: 404 unknown plan, 403 not the host, 404
  // no such removal of this plan): the member may join again, the guest's
  // name may be taken again.
  .delete('/:id/removals/:removalId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const removalId = pathId(c.req.param('removalId'), REMOVAL_NOT_FOUND);
    const userId = await requireUserId(c);
    await requestRow({ userId, planId }, (tx) => tx`select private.allow_back(${planId}::uuid, ${removalId}::uuid)`);
    return c.body(null, 204);
  })

  // A member leaves with its token; a guest names itself (deleteCaller).
  .delete('/:id/leave', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const { userId, guestId } = await deleteCaller(c);
    const planDeleted = await withRequest({ userId, guestId, planId }, async (tx) => {
      const [row] = await tx<{ planDeleted: boolean }[]>`select app.leave_plan(${planId}::uuid) as "planDeleted"`;
      return row.planDeleted;
    });
    const response: LeavePlanResult = { planDeleted };
    return c.json(response);
  });

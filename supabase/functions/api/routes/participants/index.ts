// Who is in a plan: joining it, the participants list, the host removing
// someone and the list of who was removed (and allowing them back), the
// host's co-hosts (./cohosts.ts), and leaving (spec §7; docs/api.md "Plans", "Leaving and deleting";
// docs/decisions/0065-moderation.md, 0083-removal-holds.md). Every parameter
// is validated before the database is touched; a malformed id is "not found"
// like an unknown one.
import { Hono } from 'hono';
import { deleteCaller } from '../../../_shared/auth/delete-caller.ts';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { joinPlanBody } from '../../../_shared/contract/guests-requests.ts';
import { GUEST_NOT_FOUND, GUEST_OF_ANOTHER_PLAN, JOIN_NEEDS_IDENTITY, JOIN_ONLY_AS_YOURSELF, type JoinResult } from '../../../_shared/contract/guests.ts';
import { type LeavePlanResult, PARTICIPANT_NOT_FOUND, PLAN_NOT_FOUND, type Removal, REMOVAL_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { requestRow, requestStatements, type Tx, withRequest } from '../../../_shared/db/client.ts';
import { isoTime } from '../../../_shared/db/sql.ts';
import { versionedColumns, versionedRead, type VersionedRow } from '../../../_shared/db/versioned.ts';
import { HttpError, messages } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { requirePlan } from '../plans/plan-json.ts';
import { cohostRoutes } from './cohosts.ts';
import { participantJson } from './participant-json.ts';

function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

async function joinAsMember(tx: Tx, planId: string, userId: string): Promise<JoinResult> {
  const [{ planExists, accountExists, joined }] = await tx<{ planExists: boolean; accountExists: boolean; joined: string | null }[]>`
    select exists (select 1 from app.plans where id = ${planId}::uuid) as "planExists",
           exists (select 1 from app.users where id = ${userId}::uuid) as "accountExists",
           (select id from app.participants where plan_id = ${planId}::uuid and user_id = ${userId}::uuid) as joined`;
  // A valid token whose account no longer exists is a dead session (as /me answers).
  if (!accountExists) throw new HttpError(401, messages.sessionExpired);
  if (!planExists) throw new HttpError(404, PLAN_NOT_FOUND);
  if (joined) return { joined: true, participantId: joined, alreadyJoined: true };
  // Closed invitations: only with the plan's link (HP403, docs/decisions/0086).
  await tx`select private.require_plan_link(${planId}::uuid)`;
  try {
    // The name is derived from the account by trigger; '-' is a placeholder.
    const [inserted] = await tx<{ id: string }[]>`
      insert into app.participants (plan_id, user_id, name) values (${planId}::uuid, ${userId}::uuid, '-')
      on conflict do nothing returning id`;
    if (inserted) return { joined: true, participantId: inserted.id, alreadyJoined: false };
  } catch (error) {
    // The plan was deleted between the check and the insert.
    if (isForeignKeyViolation(error)) throw new HttpError(404, PLAN_NOT_FOUND);
    throw error;
  }
  const [existing] = await tx<{ id: string }[]>`
    select id from app.participants where plan_id = ${planId}::uuid and user_id = ${userId}::uuid`;
  return { joined: true, participantId: existing.id, alreadyJoined: true };
}

async function joinAsGuest(tx: Tx, planId: string, guestId: string): Promise<JoinResult> {
  await requirePlan(tx, planId);
  // Visible by the guest_id claim whatever plan it belongs to, so a guest of
  // another plan is told so (403) rather than "not found".
  const [guest] = await tx<{ planId: string }[]>`select plan_id as "planId" from app.guests where id = ${guestId}::uuid`;
  if (!guest) throw new HttpError(404, GUEST_NOT_FOUND);
  if (guest.planId !== planId) throw new HttpError(403, GUEST_OF_ANOTHER_PLAN);
  // A guest joined its plan when it was created; the insert only repairs a
  // guest whose participants row is missing.
  try {
    const [inserted] = await tx<{ id: string }[]>`
      insert into app.participants (plan_id, guest_id, name) values (${planId}::uuid, ${guestId}::uuid, '-')
      on conflict do nothing returning id`;
    if (inserted) return { joined: true, participantId: inserted.id, alreadyJoined: false };
  } catch (error) {
    // The guest (or its plan) was deleted meanwhile: the foreign key fails, or
    // the name trigger finds no guest to name the row after (not null).
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '23503' || code === '23502') throw new HttpError(404, GUEST_NOT_FOUND);
    throw error;
  }
  const [existing] = await tx<{ id: string }[]>`
    select id from app.participants where plan_id = ${planId}::uuid and guest_id = ${guestId}::uuid`;
  return { joined: true, participantId: existing.id, alreadyJoined: true };
}

/**
 * The plan's participants in join order (joined_at, then id), spec §3
 * Participant, versioned; undefined when the caller cannot read the plan (so
 * that an empty list and an unknown plan can be told apart in ONE statement).
 */
export function readParticipants(tx: Tx, planId: string, known: string | null) {
  return tx<VersionedRow[]>`
    select ${versionedColumns(tx, known, tx`
      select coalesce(jsonb_agg(${participantJson(tx)} order by pa.joined_at, pa.id), '[]'::jsonb)
        from app.participants pa
       where pa.plan_id = p.id`)}
      from app.plans p join app.plan_versions pv on pv.plan_id = p.id
     where p.id = ${planId}::uuid`;
}

export const participantRoutes = new Hono()
  // Identity (docs/api.md "API conventions"): a valid token wins and joins the account (any
  // guestId is then ignored); without one, the body's guestId must be a guest
  // of THIS plan. Joining twice is fine: one participants row, 200 both times.
  // A plan with closed invitations takes a new member only with its link:
  // the body's `slug`, which the join page (/l/{slug}) sends, goes into the
  // claims (plan_slug) next to the plan's id.
  .post('/plans/:id/join', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { userId: claimedUserId, guestId, slug } = await parseBody(c, joinPlanBody);
    if (userId) {
      if (claimedUserId && claimedUserId.trim().toLowerCase() !== userId.toLowerCase()) {
        throw new HttpError(403, JOIN_ONLY_AS_YOURSELF);
      }
      return c.json(await withRequest({ userId, planId, planSlug: slug }, (tx) => joinAsMember(tx, planId, userId)));
    }
    if (!guestId) throw new HttpError(401, JOIN_NEEDS_IDENTITY);
    const normalisedGuestId = guestId.toLowerCase();
    return c.json(await withRequest({ guestId: normalisedGuestId, planId }, (tx) => joinAsGuest(tx, planId, normalisedGuestId)));
  })

  .get('/plans/:id/participants', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `participants:${planId}`,
      query: (known) => requestRow({ userId, planId }, (tx) => readParticipants(tx, planId, known)),
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // The host removes someone (app.remove_participant: 404 unknown plan, 403
  // not the host, 404 not a participant of it, 409 the host), with their
  // ideas, comments and votes; a removed guest's secrets stop working. The
  // removal holds until the host allows them back
  // (docs/decisions/0083-removal-holds.md).
  .delete('/plans/:id/participants/:participantId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const participantId = pathId(c.req.param('participantId'), PARTICIPANT_NOT_FOUND);
    const userId = await requireUserId(c);
    await requestRow({ userId, planId }, (tx) => tx`select app.remove_participant(${planId}::uuid, ${participantId}::uuid)`);
    return c.body(null, 204);
  })

  // The host's list of who was removed (private.plan_removals: 404 unknown
  // plan, 403 not the host), newest first.
  .get('/plans/:id/removals', async (c) => {
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
  .delete('/plans/:id/removals/:removalId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const removalId = pathId(c.req.param('removalId'), REMOVAL_NOT_FOUND);
    const userId = await requireUserId(c);
    await requestRow({ userId, planId }, (tx) => tx`select private.allow_back(${planId}::uuid, ${removalId}::uuid)`);
    return c.body(null, 204);
  })

  // A member leaves with its token; a guest names itself (deleteCaller).
  .delete('/plans/:id/leave', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const { userId, guestId } = await deleteCaller(c);
    const planDeleted = await withRequest({ userId, guestId, planId }, async (tx) => {
      const [row] = await tx<{ planDeleted: boolean }[]>`select app.leave_plan(${planId}::uuid) as "planDeleted"`;
      return row.planDeleted;
    });
    const response: LeavePlanResult = { planDeleted };
    return c.json(response);
  })

  // The host choosing co-hosts (./cohosts.ts).
  .route('/', cohostRoutes);

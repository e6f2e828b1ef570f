// /api/plans/{id}/join and /api/plans/{id}/check-guest. Mounted on /plans next
// to the plan routes (Hono merges the routes of several sub-apps on one prefix).
import { Hono } from 'hono';
import { optionalUserId } from '../../../_shared/auth/tokens.ts';
import { checkGuestBody, joinPlanBody } from '../../../_shared/contract/guests-requests.ts';
import {
  GUEST_NOT_FOUND,
  GUEST_OF_ANOTHER_PLAN,
  type GuestCheckResult,
  JOIN_NEEDS_IDENTITY,
  JOIN_ONLY_AS_YOURSELF,
  type JoinResult,
  PLAN_NOT_FOUND,
} from '../../../_shared/contract/guests.ts';
import { type Tx, withRequest } from '../../../_shared/db/client.ts';
import { requestNetwork } from '../../../_shared/http/client-ip.ts';
import { HttpError, messages } from '../../../_shared/http/errors.ts';
import type { LimitHit } from '../../../_shared/db/limits.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';

function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

/** The plan the URL names is visible through the plan_id claim; 404 when it does not exist. */
async function requirePlan(tx: Tx, planId: string): Promise<void> {
  const [plan] = await tx`select 1 from app.plans where id = ${planId}::uuid`;
  if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
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

export const joiningRoutes = new Hono()
  // Identity (docs/api.md "API conventions"): a valid token wins and joins the account (any
  // guestId is then ignored); without one, the body's guestId must be a guest
  // of THIS plan. Joining twice is fine: one participants row, 200 both times.
  // A plan with closed invitations takes a new member only with its link:
  // the body's `slug`, which the join page (/l/{slug}) sends, goes into the
  // claims (plan_slug) next to the plan's id.
  .post('/:id/join', async (c) => {
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

  // "Is this you?": anyone holding the plan's link may ask whether a guest of
  // that name (trimmed, case-insensitive: the guests.name_key rule) already
  // joined, and gets its id and votes back to restore the session. Runs as
  // anon with only the plan_id claim, whatever Authorization header is sent.
  .post('/:id/check-guest', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const { name } = await parseBody(c, checkGuestBody);
    // Name probes per client network (_shared/db/limits.ts 'guest-name'), counted
    // in this transaction whether or not the name exists.
    const hits: LimitHit[] = [{ limit: 'guest-name', key: requestNetwork(c) }];
    const result = await withRequest({ planId }, async (tx): Promise<GuestCheckResult> => {
      await requirePlan(tx, planId);
      const [guest] = await tx<{ id: string; name: string; ideaVotes: string[]; timeSlotVotes: string[] }[]>`
        select g.id, g.name,
               array(select v.idea_id from app.idea_votes v
                      where v.guest_id = g.id order by v.created_at, v.id)::text[] as "ideaVotes",
               array(select v.time_slot_id from app.time_slot_votes v
                      where v.guest_id = g.id order by v.created_at, v.id)::text[] as "timeSlotVotes"
          from app.guests g
         where g.plan_id = ${planId}::uuid and g.name_key = lower(btrim(${name}))`;
      if (!guest) return { exists: false, guestId: null, name, ideaVotes: [], timeSlotVotes: [] };
      return { exists: true, guestId: guest.id, name: guest.name, ideaVotes: guest.ideaVotes, timeSlotVotes: guest.timeSlotVotes };
    }, { limits: hits });
    return c.json(result);
  });

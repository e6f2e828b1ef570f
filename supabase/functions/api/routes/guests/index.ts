// A guest: creating one (who joins the plan at once), the spec's "Is this
// you?" check and restore, reading a guest session back by its id, its joined
// device signing the other devices out, and a guest who signs in handing its
// votes to the account (POST /api/auth/transfer-guest-votes: URLs did not
// move with the code). Spec §2, §4, §7; docs/auth-and-guests.md "Guests".
//
// Creating, checking and restoring run as `anon` whatever Authorization
// header is sent: only anon may create guests (RLS), and a guest's
// credential is its device's secret, so an account token adds nothing here
// (the join page offers the name form only to visitors who are not signed
// in).
//
// Creating and restoring each answer a NEW secret (32 random bytes,
// base64url) that only this device gets; the database keeps its SHA-256
// (app.guest_credentials, private.issue_guest_credential). The device sends
// it back in the X-Guest-Secret header with every guest request.
import { Hono } from 'hono';
import { requireUserId } from '../../../_shared/auth/tokens.ts';
import type { TransferResult } from '../../../_shared/contract/common.ts';
import { SECRET_TOKEN_PATTERN } from '../../../_shared/contract/fields.ts';
import { checkGuestBody, createGuestSessionBody, restoreGuestSessionBody, transferGuestVotesBody } from '../../../_shared/contract/guests-requests.ts';
import {
  GUEST_NOT_FOUND,
  type GuestCheckResult,
  type GuestCredentials,
  type GuestSession,
  type GuestSessionRead,
  guestNameTaken,
  PLAN_NOT_FOUND,
} from '../../../_shared/contract/guests.ts';
import { countLimits, newSecretToken, sha256Hex, type Tx, withRequest } from '../../../_shared/db/client.ts';
import type { LimitHit } from '../../../_shared/db/limits.ts';
import { scopeOf } from '../../../_shared/db/request-scope.ts';
import { requestNetwork } from '../../../_shared/http/client-ip.ts';
import { HttpError, isUniqueViolation, messages } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { findUser } from '../auth/users.ts';
import { requirePlan } from '../plans/plan-json.ts';

/** SQLSTATE of a failed foreign key (the plan was deleted in the meantime). */
function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

/** A credential for the guest named `name` in the plan the claims name; its id, or undefined when no such guest. */
async function issueCredential(tx: Tx, planId: string, name: string, secret: string): Promise<string | undefined> {
  const [{ guestId }] = await tx<{ guestId: string | null }[]>`
    select private.issue_guest_credential(${planId}::uuid, ${name}, ${await sha256Hex(secret)}) as "guestId"`;
  return guestId ?? undefined;
}

export const guestRoutes = new Hono()
  // Creates the guest, its participants row and this device's credential in
  // one transaction (claims: anon + plan_id, the plan the body names). Two
  // guests of the same name (trimmed, case-insensitive) cannot both be
  // created: the unique key (plan_id, name_key) makes the loser of a race fail
  // with 23505 -> 409; nor one of a name the host removed (403, trigger
  // guests_refuse_removed). Answers `{id, name, planId, secret}`.
  .post('/guest-session', async (c) => {
    const { name, planId, slug } = await parseBody(c, createGuestSessionBody);
    // New guests per client network (_shared/db/limits.ts), counted in this
    // transaction: a guest that is not created (404, 409) counts nothing. No
    // rate per plan: a whole group chat joins within minutes, up to the
    // plan's cap of guests (docs/security-and-limits.md).
    const hits: LimitHit[] = [{ limit: 'guest-ip', key: requestNetwork(c) }];
    const secret = newSecretToken();
    // A device that still holds the secret of a guest the host removed from
    // this plan cannot start over under another name (403; a secret not shaped
    // like ours names no device and is ignored here).
    const heldSecret = scopeOf(c).guestSecret;
    const heldHash = heldSecret && SECRET_TOKEN_PATTERN.test(heldSecret) ? await sha256Hex(heldSecret) : null;
    // The join page's link (claim plan_slug): closed invitations need it
    // (private.require_plan_link: HP403 before the guests policy would refuse
    // the insert, docs/decisions/0086).
    const guest = await withRequest({ planId, planSlug: slug }, async (tx) => {
      const [plan] = await tx`
        select private.refuse_removed_device(${planId}::uuid, ${heldHash}::text),
               private.require_plan_link(${planId}::uuid)
          from app.plans where id = ${planId}::uuid`;
      if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
      try {
        const [created] = await tx<GuestSession[]>`
          insert into app.guests (plan_id, name) values (${planId}::uuid, ${name})
          returning id, name, plan_id as "planId"`;
        // name is derived from the guest by trigger; '-' is a placeholder.
        await tx`insert into app.participants (plan_id, guest_id, name) values (${planId}::uuid, ${created.id}::uuid, '-')`;
        // Found by the name just stored: the same rule as the restore.
        const credentialFor = await issueCredential(tx, planId, name, secret);
        if (credentialFor !== created.id) throw new Error('The new guest did not get its credential');
        return created;
      } catch (error) {
        if (isUniqueViolation(error, 'guests_plan_id_name_key_key')) throw new HttpError(409, guestNameTaken(name));
        if (isForeignKeyViolation(error)) throw new HttpError(404, PLAN_NOT_FOUND);
        throw error;
      }
    }, { limits: hits });
    const answer: GuestCredentials = { ...guest, secret };
    return c.json(answer, 201);
  })

  // "Is this you?" -> "Yes, that's me" (spec §2, §4): this device continues as
  // the guest of that name in that plan, with a NEW secret of its own (other
  // devices of the guest keep theirs). By name, as the spec's restore goes:
  // anyone holding the plan's link who knows a guest's name may do this
  // (docs/auth-and-guests.md "Guests"), while a guest id alone, which public
  // JSON shows, opens nothing. Answers `{id, name, planId, secret}`; 404 for
  // an unknown plan or name.
  .post('/guest-session/restore', async (c) => {
    const { name, planId, slug } = await parseBody(c, restoreGuestSessionBody);
    // Counted in a transaction of its own, so that a name that is not found
    // counts too (_shared/db/limits.ts 'guest-name').
    await countLimits([{ limit: 'guest-name', key: requestNetwork(c) }]);
    const secret = newSecretToken();
    // With closed invitations, continuing by name needs the plan's link too
    // (private.issue_guest_credential: HP403 without it).
    const guest = await withRequest({ planId, planSlug: slug }, async (tx) => {
      const [plan] = await tx`select 1 from app.plans where id = ${planId}::uuid`;
      if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
      const guestId = await issueCredential(tx, planId, name, secret);
      if (!guestId) throw new HttpError(404, GUEST_NOT_FOUND);
      const [row] = await tx<GuestSession[]>`
        select id, name, plan_id as "planId" from app.guests where id = ${guestId}::uuid`;
      return row;
    });
    const answer: GuestCredentials = { ...guest, secret };
    return c.json(answer);
  })

  // Claims: anon + guest_id = the id in the URL, with this device's secret
  // (X-Guest-Secret): the guests policy lets a guest read its own row by that
  // claim alone (the URL names no plan). Without the secret: 401; a secret
  // that is not this guest's: 403; a guest that is gone: 404. So the web app
  // learns here whether its stored session still works, (`continuedAt`)
  // whether another device has since continued as this guest by name, and
  // (`planSlug`) the plan's link as it is now: a guest's pages live under
  // it, so after the host resets it the device follows (docs/decisions/0087).
  .get('/guest-session/:guestId', async (c) => {
    const guestId = pathId(c.req.param('guestId'), GUEST_NOT_FOUND);
    const guest = await withRequest({ guestId }, async (tx) => {
      const [row] = await tx<(GuestSession & { continuedAt: Date | null; planSlug: string | null })[]>`
        select g.id, g.name, g.plan_id as "planId", private.guest_continued_at(g.id) as "continuedAt",
               p.slug as "planSlug"
          from app.guests g left join app.plans p on p.id = g.plan_id
         where g.id = ${guestId}::uuid`;
      return row;
    });
    if (!guest) throw new HttpError(404, GUEST_NOT_FOUND);
    const answer: GuestSessionRead = { ...guest, continuedAt: guest.continuedAt?.toISOString() ?? null };
    return c.json(answer);
  })

  // "That wasn't me" (decision 0064): from the device that joined as the
  // guest, every other device of the guest is signed out and nobody may
  // continue as it by name while this device stays in use. 204; 403 from a
  // device that continued by name; the secret's checks as every guest request.
  .delete('/guest-session/:guestId/other-devices', async (c) => {
    const guestId = pathId(c.req.param('guestId'), GUEST_NOT_FOUND);
    await withRequest({ guestId }, (tx) => tx`select private.end_other_guest_devices(${guestId}::uuid)`);
    return c.body(null, 204);
  })

  // "Is this you?": anyone holding the plan's link may ask whether a guest of
  // that name (trimmed, case-insensitive: the guests.name_key rule) already
  // joined, and gets its id and votes back to restore the session. Runs as
  // anon with only the plan_id claim, whatever Authorization header is sent.
  .post('/plans/:id/check-guest', async (c) => {
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
  })

  // After signing in on a device that holds a guest session: the guest's votes
  // (minus those the account already has), ideas and comments become the
  // account's, the account replaces the guest in the plan, and the guest is
  // deleted (app.transfer_guest_votes). The proof is the guest's secret that
  // this device holds (header X-Guest-Secret), checked by the database like
  // any guest request's: the id alone, which is public, is not enough. A
  // second call answers 404: the guest is gone.
  .post('/auth/transfer-guest-votes', async (c) => {
    const userId = await requireUserId(c);
    const { guestId } = await parseBody(c, transferGuestVotesBody);
    const counts = await withRequest({ userId, guestId: guestId.toLowerCase() }, async (tx) => {
      // A valid token whose account no longer exists is a dead session (as /me answers).
      if (!(await findUser(tx, userId))) throw new HttpError(401, messages.sessionExpired);
      const [row] = await tx<TransferResult[]>`
        select transferred_idea_votes as "transferredIdeaVotes", transferred_time_votes as "transferredTimeVotes"
          from app.transfer_guest_votes(${guestId}::uuid)`;
      return row;
    });
    return c.json(counts);
  });

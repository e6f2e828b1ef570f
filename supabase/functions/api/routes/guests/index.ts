// /api/guest-session: creating a guest (who joins the plan at once), the
// spec's "Is this you?" restore, reading a guest session back by its id, and
// its joined device signing the other devices out.
//
// All run as `anon` whatever Authorization header is sent: only anon may
// create guests (RLS), and a guest's credential is its device's secret, so an
// account token adds nothing here (the join page offers the name form only to
// visitors who are not signed in).
//
// Creating and restoring each answer a NEW secret (32 random bytes,
// base64url) that only this device gets; the database keeps its SHA-256
// (app.guest_credentials, private.issue_guest_credential). The device sends
// it back in the X-Guest-Secret header with every guest request.
import { Hono } from 'hono';
import { createGuestSessionBody, restoreGuestSessionBody } from '../../../_shared/contract/guests-requests.ts';
import {
  GUEST_NOT_FOUND,
  type GuestCredentials,
  type GuestSession,
  type GuestSessionRead,
  guestNameTaken,
  PLAN_NOT_FOUND,
} from '../../../_shared/contract/guests.ts';
import { requestNetwork } from '../../../_shared/http/client-ip.ts';
import { countLimits, newSecretToken, sha256Hex, type Tx, withRequest } from '../../../_shared/db/client.ts';
import { HttpError, isUniqueViolation } from '../../../_shared/http/errors.ts';
import type { LimitHit } from '../../../_shared/db/limits.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { scopeOf } from '../../../_shared/db/request-scope.ts';
import { SECRET_TOKEN_PATTERN } from '../../../_shared/contract/fields.ts';
import { parseBody } from '../../../_shared/http/validation.ts';

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
  .post('/', async (c) => {
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
  .post('/restore', async (c) => {
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
  .get('/:guestId', async (c) => {
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
  .delete('/:guestId/other-devices', async (c) => {
    const guestId = pathId(c.req.param('guestId'), GUEST_NOT_FOUND);
    await withRequest({ guestId }, (tx) => tx`select private.end_other_guest_devices(${guestId}::uuid)`);
    return c.body(null, 204);
  });

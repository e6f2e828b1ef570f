// /api/guest-session: creating a guest (who joins the plan at once) and reading
// a guest session back by its id.
//
// Both run as `anon` whatever Authorization header is sent: only anon may
// create guests (RLS), and a guest's only credential is its id, so an account
// token adds nothing here (the join page offers the name form only to visitors
// who are not signed in).
import { Hono } from 'hono';
import {
  createGuestSessionBody,
  GUEST_NOT_FOUND,
  type GuestSession,
  guestNameTaken,
  PLAN_NOT_FOUND,
  pathId,
} from '../../_shared/contract/guests.ts';
import { requestNetwork } from '../../_shared/client-ip.ts';
import { withRequest } from '../../_shared/db.ts';
import { HttpError, isUniqueViolation } from '../../_shared/errors.ts';
import { type LimitHit, limited } from '../../_shared/limits.ts';
import { parseBody } from '../../_shared/validation.ts';

/** SQLSTATE of a failed foreign key (the plan was deleted in the meantime). */
function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

export const guestRoutes = new Hono()
  // Creates the guest and its participants row in one transaction (claims:
  // anon + plan_id, the plan the body names). Two guests of the same name
  // (trimmed, case-insensitive) cannot both be created: the unique key
  // (plan_id, name_key) makes the loser of a race fail with 23505 -> 409.
  .post('/', async (c) => {
    const { name, planId } = await parseBody(c, createGuestSessionBody);
    // New guests per client network and per plan (_shared/limits.ts), counted
    // in this transaction: a guest that is not created (404, 409) counts nothing.
    const hits: LimitHit[] = [
      { limit: 'guest-ip', key: requestNetwork(c) },
      { limit: 'guest-plan', key: planId },
    ];
    const guest = await withRequest({ planId }, (tx) => limited(tx, hits, async () => {
      const [plan] = await tx`select 1 from app.plans where id = ${planId}::uuid`;
      if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
      try {
        const [created] = await tx<GuestSession[]>`
          insert into app.guests (plan_id, name) values (${planId}::uuid, ${name})
          returning id, name, plan_id as "planId"`;
        // name is derived from the guest by trigger; '-' is a placeholder.
        await tx`insert into app.participants (plan_id, guest_id, name) values (${planId}::uuid, ${created.id}::uuid, '-')`;
        return created;
      } catch (error) {
        if (isUniqueViolation(error, 'guests_plan_id_name_key_key')) throw new HttpError(409, guestNameTaken(name));
        if (isForeignKeyViolation(error)) throw new HttpError(404, PLAN_NOT_FOUND);
        throw error;
      }
    }));
    return c.json(guest, 201);
  })

  // Claims: anon + guest_id = the id in the URL. The guests policy lets a
  // guest read its own row by that claim alone (the URL names no plan).
  .get('/:guestId', async (c) => {
    const guestId = pathId(c.req.param('guestId'), GUEST_NOT_FOUND);
    const guest = await withRequest({ guestId }, async (tx) => {
      const [row] = await tx<GuestSession[]>`
        select id, name, plan_id as "planId" from app.guests where id = ${guestId}::uuid`;
      return row;
    });
    if (!guest) throw new HttpError(404, GUEST_NOT_FOUND);
    return c.json(guest);
  });

// Who's coming (docs/api.md "Who's coming"): the caller's answer
// (PUT /api/plans/{id}/rsvp), the headcount (GET /api/plans/{id}/rsvps), the
// host answering for someone (PUT /api/plans/{id}/rsvps/{participantId}) and
// the spots (POST /api/plans/{id}/capacity).
//
// Every body is validated before the database is touched; each request is
// ONE transaction, and the rules (the locked date, the spots, the waitlist,
// who may answer for whom) are the rsvps file's SQL functions, whose HP4xx
// sentences reach the client. A promotion's notice is written to the outbox
// in the same transaction and delivered after it commits (deliverSoon).
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { guestIdQuery } from '../../../_shared/contract/dates-requests.ts';
import { GUEST_NOT_FOUND } from '../../../_shared/contract/guests.ts';
import { PARTICIPANT_NOT_FOUND, PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { capacityBody, rsvpBody, rsvpForBody } from '../../../_shared/contract/rsvps-requests.ts';
import { JOIN_TO_ANSWER, type RsvpResult } from '../../../_shared/contract/rsvps.ts';
import { requestRow, requestStatements } from '../../../_shared/db/client.ts';
import { idempotencyKeyOf } from '../../../_shared/db/idempotency.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { versionedRead, viewerOf } from '../../../_shared/db/versioned.ts';
import { deliverSoon } from '../../../_shared/delivery/outbox.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody, validate } from '../../../_shared/http/validation.ts';
import { readRsvps, rsvpsJson } from './rsvps-json.ts';

/** An answer's row as the rules return it: the JSON, and how many others it let in from the waitlist. */
type AnswerRow = RsvpResult & { promoted: number };

/** The answer's JSON; the promoted people's notices go out after the commit. */
function answered(planId: string, row: AnswerRow | undefined): RsvpResult {
  const { answer, plusOnes, position, promoted } = row!;
  if (promoted > 0) deliverSoon(planId);
  return { answer, plusOnes, position };
}

export const rsvpRoutes = new Hono()
  // The caller answers: a member by token (joined on a first answer), a guest
  // by guestId with its device's secret (any of its devices, a restored one
  // too: answering is like voting, docs/decisions/0064). With an
  // Idempotency-Key, a repeat replays the first answer.
  .put('/plans/:id/rsvp', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { answer, plusOnes, guestId } = await parseBody(c, rsvpBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    if (!userId && !guestId) throw new HttpError(401, JOIN_TO_ANSWER);
    const row = await requestRow(
      { userId, guestId: userId ? null : guestId, planId },
      (tx) => tx<AnswerRow[]>`
        select answer, plus_ones as "plusOnes", "position", promoted
          from app.rsvp(${planId}::uuid, ${answer}, ${plusOnes}::int)`,
      { limits: [{ limit: 'vote', key: participantKey(userId, guestId) }], idempotencyKey },
    );
    return c.json(answered(planId, row));
  })

  // Anyone holding the plan's link may look; `mine` is the caller's own (a
  // member by token, a guest by ?guestId=, as GET my-votes). Versioned like
  // every plan read, per viewer.
  .get('/plans/:id/rsvps', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const rawGuestId = c.req.query('guestId');
    const guestId = userId || rawGuestId === undefined || rawGuestId === '' ? null : validate(guestIdQuery, rawGuestId);
    const viewer = viewerOf(userId, guestId);
    const response = await versionedRead(c, {
      key: `rsvps:${planId}:${viewer ?? ''}`,
      viewer,
      query: async (known) => {
        const found = await requestRow({ userId, planId }, (tx) => readRsvps(tx, planId, { userId, guestId }, known));
        if (found && guestId && found.guestPlanId !== planId) throw new HttpError(404, GUEST_NOT_FOUND);
        return found;
      },
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // The host answers for someone who replied in the chat (marked "set by the
  // host"; they may change it). With an Idempotency-Key, a repeat replays.
  .put('/plans/:id/rsvps/:participantId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const participantId = pathId(c.req.param('participantId'), PARTICIPANT_NOT_FOUND);
    const userId = await requireUserId(c);
    const { answer, plusOnes } = await parseBody(c, rsvpForBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    const row = await requestRow(
      { userId, planId },
      (tx) => tx<AnswerRow[]>`
        select answer, plus_ones as "plusOnes", "position", promoted
          from app.rsvp_for(${planId}::uuid, ${participantId}::uuid, ${answer}, ${plusOnes}::int)`,
      { idempotencyKey },
    );
    return c.json(answered(planId, row));
  })

  // The host sets the spots (null: no limit) and, optionally, the friends one
  // may bring; answers the headcount as GET rsvps does (the host's view).
  .post('/plans/:id/capacity', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { capacity, maxPlusOnes } = await parseBody(c, capacityBody);
    const [[set], [read]] = await requestStatements({ userId, planId }, (tx) => [
      tx<{ promoted: number }[]>`
        select app.set_capacity(${planId}::uuid, ${capacity}::int, ${maxPlusOnes ?? null}::int) as promoted`,
      tx<{ body: string }[]>`
        select ${rsvpsJson(tx, { userId, guestId: null })}::text as body from app.plans p where p.id = ${planId}::uuid`,
    ] as const);
    if (!read) throw new HttpError(404, PLAN_NOT_FOUND);
    if (set.promoted > 0) deliverSoon(planId);
    return c.body(read.body, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  });

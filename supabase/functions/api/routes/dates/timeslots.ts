// /api/timeslots/{id}/...: toggle a vote on an existing slot, list its voters
// (spec §7; docs/api.md "Time slots and the lock flow"). The plan_id claim is
// resolved from the slot in the claims statement (withRequest's timeSlotId),
// so whoever holds the plan's link can read, and RLS decides who may write.
import { Hono } from 'hono';
import { optionalUserId } from '../../../_shared/auth/tokens.ts';
import { timeSlotVoteBody } from '../../../_shared/contract/dates-requests.ts';
import { JOIN_FIRST_TO_VOTE, TIME_SLOT_NOT_FOUND, type TimeSlotVoteResult } from '../../../_shared/contract/dates.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { requestRow } from '../../../_shared/db/client.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { idempotencyKeyOf } from '../../../_shared/db/idempotency.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { versionedRead } from '../../../_shared/db/versioned.ts';
import { readVoters } from '../ideas/voters.ts';

export const timeSlotRoutes = new Hono()
  // Toggle: voting again removes the vote (spec §4). A member is joined on
  // first vote; without a token the body's guestId must be a guest of the
  // slot's plan (403 otherwise). With an Idempotency-Key, a repeat replays
  // the first answer.
  .post('/:id/vote', async (c) => {
    const timeSlotId = pathId(c.req.param('id'), TIME_SLOT_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { guestId } = await parseBody(c, timeSlotVoteBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_VOTE);
    const voter = participantKey(userId, guestId);
    // The rule (app.vote_on_time_slot: the toggle and the count), and the
    // limit in the claims statement: one round trip.
    const row = await requestRow(
      { userId, guestId: userId ? null : guestId, timeSlotId },
      (tx) => tx<{ voted: boolean; voteCount: number }[]>`
        select voted, vote_count as "voteCount" from app.vote_on_time_slot(${timeSlotId}::uuid)`,
      { limits: [{ limit: 'vote', key: voter }], idempotencyKey },
    );
    const { voted, voteCount } = row!;
    const result: TimeSlotVoteResult = { voted, voteCount };
    return c.json(result);
  })

  // Spec §3 Voter, first voters first (see _shared/voters.ts).
  .get('/:id/voters', async (c) => {
    const timeSlotId = pathId(c.req.param('id'), TIME_SLOT_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `slot-voters:${timeSlotId}`,
      query: (known) => requestRow({ userId, timeSlotId }, (tx) => readVoters(tx, 'timeSlot', timeSlotId, known)),
    });
    if (!response) throw new HttpError(404, TIME_SLOT_NOT_FOUND);
    return response;
  });

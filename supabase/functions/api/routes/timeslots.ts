// /api/timeslots/{id}/...: toggle a vote on an existing slot, list its voters
// (spec §7; decisions.md "Time slots and the lock flow"). The plan_id claim is
// resolved from the slot in the claims statement (withRequest's timeSlotId),
// so whoever holds the plan's link can read, and RLS decides who may write.
import { Hono } from 'hono';
import { optionalUserId } from '../../_shared/auth.ts';
import {
  JOIN_FIRST_TO_VOTE,
  TIME_SLOT_NOT_FOUND,
  type TimeSlotVoteResult,
  timeSlotIdParam,
  timeSlotVoteBody,
  type Voter,
} from '../../_shared/contract/dates.ts';
import { withRequest } from '../../_shared/db.ts';
import { HttpError } from '../../_shared/errors.ts';
import { parseBody } from '../../_shared/validation.ts';

export const timeSlotRoutes = new Hono()
  // Toggle: voting again removes the vote (spec §4). A member is joined on
  // first vote; without a token the body's guestId must be a guest of the
  // slot's plan (403 otherwise).
  .post('/:id/vote', async (c) => {
    const timeSlotId = timeSlotIdParam(c.req.param('id'));
    const userId = await optionalUserId(c);
    const { guestId } = await parseBody(c, timeSlotVoteBody);
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_VOTE);
    const result = await withRequest({ userId, guestId: userId ? null : guestId, timeSlotId }, async (tx) => {
      // Pipelined, run in order: the count sees the toggle.
      const [[{ voted }], [{ voteCount }]] = await Promise.all([
        tx<{ voted: boolean }[]>`select app.toggle_time_slot_vote(${timeSlotId}::uuid) as voted`,
        tx<{ voteCount: number }[]>`
          select count(*)::int as "voteCount" from app.time_slot_votes v where v.time_slot_id = ${timeSlotId}::uuid`,
      ]);
      const answer: TimeSlotVoteResult = { voted, voteCount };
      return answer;
    });
    return c.json(result);
  })

  // Who voted, first voters first: id is the member's user id or the guest's
  // guest id, name the participant's display name (spec §3 Voter).
  .get('/:id/voters', async (c) => {
    const timeSlotId = timeSlotIdParam(c.req.param('id'));
    const userId = await optionalUserId(c);
    const voters = await withRequest({ userId, timeSlotId }, async (tx) => {
      const [row] = await tx<{ voters: Voter[] }[]>`
        select (
          select coalesce(jsonb_agg(jsonb_build_object(
                   'id', coalesce(v.user_id, v.guest_id),
                   'name', coalesce(pm.name, pg.name, 'Someone'),
                   'isGuest', v.guest_id is not null
                 ) order by v.created_at, v.id), '[]'::jsonb)
            from app.time_slot_votes v
            left join app.participants pm on pm.plan_id = v.plan_id and pm.user_id = v.user_id
            left join app.participants pg on pg.plan_id = v.plan_id and pg.guest_id = v.guest_id
           where v.time_slot_id = s.id and v.plan_id = s.plan_id
        ) as voters
        from app.time_slots s
        where s.id = ${timeSlotId}::uuid`;
      return row?.voters;
    });
    if (!voters) throw new HttpError(404, TIME_SLOT_NOT_FOUND);
    return c.json(voters);
  });

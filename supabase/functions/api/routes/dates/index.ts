// Dates: a plan's time slots, the caller's votes and a date vote
// (/api/plans/{id}/...), and by slot id its vote and voters
// (/api/timeslots/{id}/...). Spec §7; docs/api.md "Time slots and the lock
// flow"; the host's lock flow is ../lock. Where the URL names a slot, the
// plan_id claim is resolved from the slot in the claims statement
// (withRequest's timeSlotId), so whoever holds the plan's link can read, and
// RLS decides who may write.
//
// Every parameter and body is validated before the database is touched (a
// malformed plan id is "Plan not found", an impossible date a 400). Each
// request is ONE transaction; the rules themselves (date window, who may vote,
// host only, status flow) are the SQL functions of the vote and host rules
// migrations, whose HP4xx sentences reach the client.
import { Hono } from 'hono';
import { optionalUserId } from '../../../_shared/auth/tokens.ts';
import { guestIdQuery, myVotesAnswersQuery, noDatesBody, timeSlotVoteBody, voteDateBody } from '../../../_shared/contract/dates-requests.ts';
import {
  JOIN_FIRST_TO_SEE_VOTES,
  JOIN_FIRST_TO_VOTE,
  type NoDatesResult,
  TIME_SLOT_NOT_FOUND,
  type TimeSlot,
  type TimeSlotVoteResult,
  type VoteDateResult,
} from '../../../_shared/contract/dates.ts';
import { GUEST_NOT_FOUND } from '../../../_shared/contract/guests.ts';
import { periodSortMinutes } from '../../../_shared/contract/periods.ts';
import { PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { requestRow, type Tx } from '../../../_shared/db/client.ts';
import { idempotencyKeyOf } from '../../../_shared/db/idempotency.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { versionedColumns, versionedRead, type VersionedRow, viewerOf } from '../../../_shared/db/versioned.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody, validate } from '../../../_shared/http/validation.ts';
import { readVoters, viewersOwnVote } from '../ideas/voters.ts';

/** Slots in the order of spec §3 "sorted by date then period": whole day, then by time of day. */
function sortTimeSlots(slots: TimeSlot[]): TimeSlot[] {
  return [...slots].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      periodSortMinutes(a.period) - periodSortMinutes(b.period) ||
      (a.period ?? '').localeCompare(b.period ?? '') ||
      a.id.localeCompare(b.id),
  );
}

/**
 * The plan's slots with their yes and if-need-be counts and whether their
 * date leads (the one ranking, private.date_ranking: most yes, then most if
 * need be, then earliest; docs/decisions/0108-answers-on-dates.md), versioned;
 * undefined when the caller cannot see the plan (unknown id), in ONE
 * statement (votes counted by the (time_slot_id, plan_id) index). `date` goes
 * through jsonb: 'YYYY-MM-DD', no time-zone shift.
 */
function readTimeSlots(tx: Tx, planId: string, known: string | null) {
  return tx<VersionedRow[]>`
    select ${versionedColumns(tx, known, tx`
      select coalesce(jsonb_agg(jsonb_build_object(
               'id', s.id,
               'date', s.date,
               'period', s.period,
               'voteCount', c.yes,
               'ifNeedBeCount', c.if_need_be,
               'leading', coalesce(s.date = lead.date, false)
             ) order by s.date, s.id), '[]'::jsonb)
        from app.time_slots s
        cross join lateral (
          select (count(*) filter (where v.answer = 'yes'))::int as yes, (count(*) filter (where v.answer = 'ifneedbe'))::int as if_need_be
            from app.time_slot_votes v where v.time_slot_id = s.id and v.plan_id = s.plan_id) c
        left join private.date_ranking(p.id) lead on lead.place = 1
       where s.plan_id = p.id`)}
      from app.plans p join app.plan_versions pv on pv.plan_id = p.id
     where p.id = ${planId}::uuid`;
}

/**
 * The caller's own date answers (the `v` alias of viewersOwnVote) on the plan
 * row `p`: the slot ids (spec §7, both answers), or with `answers` each slot's
 * answer and whether the caller said none of the dates work (myDateAnswersSchema).
 */
function myVotesBody(tx: Tx, userId: string | null, guestId: string | null, answers: boolean) {
  const own = viewersOwnVote(tx, userId, guestId);
  if (!answers) {
    return tx`select coalesce(jsonb_agg(v.time_slot_id order by v.created_at, v.id), '[]'::jsonb)
                from app.time_slot_votes v
               where ${own} and v.plan_id = p.id`;
  }
  const ownRow = userId ? tx`pa.user_id = ${userId}::uuid` : tx`pa.guest_id = ${guestId}::uuid`;
  return tx`select jsonb_build_object(
              'answers', coalesce((select jsonb_agg(jsonb_build_object('timeSlotId', v.time_slot_id, 'answer', v.answer)
                                                    order by v.created_at, v.id)
                                     from app.time_slot_votes v where ${own} and v.plan_id = p.id), '[]'::jsonb),
              'noDates', exists (select 1 from app.participants pa join app.no_dates n on n.participant_id = pa.id and n.plan_id = pa.plan_id
                                  where ${ownRow} and pa.plan_id = p.id))`;
}

export const dateRoutes = new Hono()
  // Anyone holding the plan's link may look (docs/api.md "Plans").
  .get('/plans/:id/timeslots', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `slots:${planId}`,
      query: (known) => requestRow({ userId, planId }, (tx) => readTimeSlots(tx, planId, known)),
      prepare: (text) => JSON.stringify(sortTimeSlots(JSON.parse(text) as TimeSlot[])),
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // The caller's votes: a member by token, a guest by ?guestId= (a valid token
  // wins). A read: the guest id is a display id here, not a claim, and needs
  // no secret (it reveals only what the slots' public voters lists reveal).
  .get('/plans/:id/my-votes', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const rawGuestId = c.req.query('guestId');
    const guestId = rawGuestId === undefined || rawGuestId === '' ? null : validate(guestIdQuery, rawGuestId);
    const answers = validate(myVotesAnswersQuery, c.req.query('answers')) === 'true';
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_SEE_VOTES);
    const voterGuestId = userId ? null : guestId;
    // The answers are another body: another copy and another ETag.
    const viewer = answers ? `${viewerOf(userId, voterGuestId)}:answers` : viewerOf(userId, voterGuestId);
    // One statement: the plan (404), the guest's row (visible through the
    // plan_id claim: 404 when it is gone or another plan's), and the votes,
    // built only when the client's copy is stale.
    const response = await versionedRead(c, {
      key: `my-votes:${planId}:${viewer}`,
      viewer,
      query: async (known) => {
        const found = await requestRow({ userId, planId }, (tx) => tx<(VersionedRow & { guestPlanId: string | null })[]>`
            select ${versionedColumns(tx, known, myVotesBody(tx, userId, voterGuestId, answers))},
                   (select g.plan_id from app.guests g where g.id = ${voterGuestId}::uuid) as "guestPlanId"
              from app.plans p join app.plan_versions pv on pv.plan_id = p.id
             where p.id = ${planId}::uuid`);
        if (found && voterGuestId && found.guestPlanId !== planId) throw new HttpError(404, GUEST_NOT_FOUND);
        return found;
      },
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // Find-or-create the (date, period) slot and toggle the caller's answer on
  // it (yes when absent: the same answer removes it, the other replaces it).
  // A member is joined on first vote; a guest must be a guest of this plan.
  // With an Idempotency-Key, a repeat replays the first answer.
  .post('/plans/:id/vote-date', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { date, period, guestId, answer } = await parseBody(c, voteDateBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_VOTE);
    const voter = participantKey(userId, guestId);
    // The rule (app.vote_on_date: find-or-create the slot, the toggle, the
    // count), and the limit in the claims statement: one round trip.
    const result = await requestRow(
      { userId, guestId: userId ? null : guestId, planId },
      (tx) => tx<VoteDateResult[]>`
        select voted, time_slot_id as "timeSlotId", vote_count as "voteCount", if_need_be_count as "ifNeedBeCount", answer
          from app.vote_on_date(${planId}::uuid, ${date}::date, ${period}, ${answer})`,
      { limits: [{ limit: 'vote', key: voter }], idempotencyKey },
    );
    return c.json(result);
  })

  // Toggle: voting again removes the vote (spec §4). A member is joined on
  // first vote; without a token the body's guestId must be a guest of the
  // slot's plan (403 otherwise). With an Idempotency-Key, a repeat replays
  // the first answer.
  .post('/timeslots/:id/vote', async (c) => {
    const timeSlotId = pathId(c.req.param('id'), TIME_SLOT_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { guestId, answer } = await parseBody(c, timeSlotVoteBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_VOTE);
    const voter = participantKey(userId, guestId);
    // The rule (app.vote_on_time_slot: the toggle and the counts), and the
    // limit in the claims statement: one round trip.
    const result = await requestRow(
      { userId, guestId: userId ? null : guestId, timeSlotId },
      (tx) => tx<TimeSlotVoteResult[]>`
        select voted, vote_count as "voteCount", if_need_be_count as "ifNeedBeCount", answer
          from app.vote_on_time_slot(${timeSlotId}::uuid, ${answer})`,
      { limits: [{ limit: 'vote', key: voter }], idempotencyKey },
    );
    return c.json(result);
  })

  // "None of these dates work for me", a toggle (app.set_no_dates: on, the
  // caller's date votes go; a date vote clears it). Checked like a date vote,
  // counted against the same abuse limit; takes an Idempotency-Key.
  .post('/plans/:id/no-dates', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const { guestId } = await parseBody(c, noDatesBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    if (!userId && !guestId) throw new HttpError(401, JOIN_FIRST_TO_VOTE);
    const result = await requestRow(
      { userId, guestId: userId ? null : guestId, planId },
      (tx) => tx<NoDatesResult[]>`select app.set_no_dates(${planId}::uuid) as "noDates"`,
      { limits: [{ limit: 'vote', key: participantKey(userId, guestId) }], idempotencyKey },
    );
    return c.json(result);
  })

  // Spec §3 Voter, first voters first (see ../ideas/voters.ts).
  .get('/timeslots/:id/voters', async (c) => {
    const timeSlotId = pathId(c.req.param('id'), TIME_SLOT_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `slot-voters:${timeSlotId}`,
      query: (known) => requestRow({ userId, timeSlotId }, (tx) => readVoters(tx, 'timeSlot', timeSlotId, known)),
    });
    if (!response) throw new HttpError(404, TIME_SLOT_NOT_FOUND);
    return response;
  });

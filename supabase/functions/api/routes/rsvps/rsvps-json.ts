// The headcount JSON of GET /api/plans/{id}/rsvps and POST capacity
// (contract/rsvps.ts rsvpsSchema; docs/api.md "Who's coming"), built in SQL
// in the request's one statement, under the caller's row security (the
// plan's link holders and participants read every answer, as they read the
// votes). Before a date is locked every answer reads as not given: answers
// are closed then, and the ones given for a date come back if that date is
// locked again (docs/decisions/0097).
import type { Tx } from '../../../_shared/db/client.ts';
import type { Fragment } from '../../../_shared/db/sql.ts';
import { versionedColumns, type VersionedRow } from '../../../_shared/db/versioned.ts';

/** Who asks: a member by account, else a guest by id (a display id here: the answer reveals only what the list does). */
export interface RsvpsViewer {
  userId: string | null;
  guestId: string | null;
}

/** The viewer's participants row of the plan aliased `p` (null when not a participant). */
function viewerParticipant(tx: Tx, viewer: RsvpsViewer): Fragment {
  if (viewer.userId) return tx`(select pa.id from app.participants pa where pa.plan_id = p.id and pa.user_id = ${viewer.userId}::uuid)`;
  if (viewer.guestId) return tx`(select pa.id from app.participants pa where pa.guest_id = ${viewer.guestId}::uuid and pa.plan_id = p.id)`;
  return tx`null::uuid`;
}

/**
 * The JSON of the plan aliased `p`: counts, headcount, spots, the caller's
 * own answer and everyone, going (answer order), maybe, waitlist (by
 * position), no, unanswered (join order). One scan of the plan's
 * participants (the (plan_id, user_id) index) with their answers (primary
 * key).
 */
export function rsvpsJson(tx: Tx, viewer: RsvpsViewer): Fragment {
  return tx`(
    with me as (select ${viewerParticipant(tx, viewer)} as id),
    people as (
      select pa.id, pa.name, pa.guest_id is not null as is_guest, pa.joined_at,
             case when pa.user_id = p.host_id then 'host' end as role,
             a.answer, coalesce(a.plus_ones, 0) as plus_ones, a.queued_at,
             coalesce(a.set_by_host and a.answer is not null, false) as set_by_host,
             coalesce(a.ask_again, false) as ask_again
        from app.participants pa
        left join app.rsvps r on r.participant_id = pa.id and r.plan_id = pa.plan_id
        cross join lateral (
          select case when p.locked_time_slot_date is not null then r.answer end as answer,
                 case when p.locked_time_slot_date is not null then r.plus_ones end as plus_ones,
                 r.queued_at, r.set_by_host,
                 case when p.locked_time_slot_date is not null then r.ask_again end as ask_again
        ) a
       where pa.plan_id = p.id
    ),
    ranked as (
      select x.*,
             case x.answer when 'going' then 0 when 'maybe' then 1 when 'waitlist' then 2 when 'no' then 3 else 4 end as rank,
             case when x.answer = 'waitlist'
                  then row_number() over (partition by x.answer = 'waitlist' order by x.queued_at, x.id)::int end as position
        from people x
    )
    select jsonb_build_object(
             'going', count(*) filter (where answer = 'going'),
             'maybe', count(*) filter (where answer = 'maybe'),
             'no', count(*) filter (where answer = 'no'),
             'waitlist', count(*) filter (where answer = 'waitlist'),
             'unanswered', count(*) filter (where answer is null),
             'headcount', coalesce(sum(1 + plus_ones) filter (where answer = 'going'), 0),
             'capacity', p.capacity,
             'maxPlusOnes', p.max_plus_ones,
             'askAgain', coalesce(bool_or(ask_again and answer is null) filter (where id = (select me.id from me)), false),
             'mine', (jsonb_agg(jsonb_build_object(
                        'answer', answer, 'plusOnes', plus_ones, 'position', position, 'setByHost', set_by_host))
                      filter (where id = (select me.id from me))) -> 0,
             'people', coalesce(jsonb_agg(jsonb_build_object(
                          'participantId', id, 'name', name, 'isGuest', is_guest, 'role', role,
                          'answer', answer, 'plusOnes', plus_ones, 'position', position, 'setByHost', set_by_host)
                        order by rank, case when answer is null then joined_at else queued_at end, id), '[]'::jsonb))
      from ranked
  )`;
}

/**
 * The versioned read of the headcount (docs/live-updates.md): built only when
 * the plan's version is not `known`; the guest's plan comes along so the
 * route can refuse a guest id of another plan.
 */
export function readRsvps(tx: Tx, planId: string, viewer: RsvpsViewer, known: string | null) {
  return tx<(VersionedRow & { guestPlanId: string | null })[]>`
    select ${versionedColumns(tx, known, rsvpsJson(tx, viewer))},
           (select g.plan_id from app.guests g where g.id = ${viewer.userId ? null : viewer.guestId}::uuid) as "guestPlanId"
      from app.plans p join app.plan_versions pv on pv.plan_id = p.id
     where p.id = ${planId}::uuid`;
}

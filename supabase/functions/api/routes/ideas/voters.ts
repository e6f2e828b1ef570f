// Who voted on an idea or a time slot (spec §3 Voter, contract/common.ts's
// voterSchema), first voters first:
// `id` is the member's user id or the guest's id, `name` the voter's
// participants row (kept right by triggers); a slot's voters also say their
// `answer` (yes, ifneedbe). One statement; `undefined` when the
// idea/slot is unknown or out of the caller's reach (RLS), so that an empty
// list and a 404 can be told apart.
import type { Tx } from '../../../_shared/db/client.ts';
import { versionedColumns, type VersionedRow } from '../../../_shared/db/versioned.ts';

// Fixed identifiers only (never from a request), so splicing them is safe.
const TARGETS = {
  idea: { targets: 'app.ideas', votes: 'app.idea_votes', column: 'idea_id', answer: '' },
  timeSlot: { targets: 'app.time_slots', votes: 'app.time_slot_votes', column: 'time_slot_id', answer: ", 'answer', v.answer" },
} as const;

/** Versioned (the ETag is the version of the idea's or slot's plan); undefined when out of reach. */
export function readVoters(tx: Tx, kind: keyof typeof TARGETS, id: string, known: string | null) {
  const { targets, votes, column, answer } = TARGETS[kind];
  return tx<VersionedRow[]>`
    select ${versionedColumns(tx, known, tx`
      select coalesce(jsonb_agg(jsonb_build_object(
               'id', coalesce(v.user_id, v.guest_id),
               'name', coalesce(member.name, guest.name, 'Someone'),
               'isGuest', v.guest_id is not null${tx.unsafe(answer)}
             ) order by v.created_at, v.id), '[]'::jsonb)
        from ${tx.unsafe(votes)} v
        left join app.participants member on member.plan_id = v.plan_id and member.user_id = v.user_id
        left join app.participants guest on guest.plan_id = v.plan_id and guest.guest_id = v.guest_id
       where v.${tx.unsafe(column)} = t.id and v.plan_id = t.plan_id`)}
    from ${tx.unsafe(targets)} t
    join app.plan_versions pv on pv.plan_id = t.plan_id
    where t.id = ${id}::uuid`;
}

/**
 * SQL: the vote row aliased `v` is the viewer's own, by the member's user id,
 * else the guest's id: one condition per index (idea_votes_user_id_idx,
 * *_guest_id_plan_id_idx), not an OR that neither index answers.
 */
export function viewersOwnVote(tx: Tx, userId: string | null, guestId: string | null) {
  return userId ? tx`v.user_id = ${userId}::uuid` : tx`v.guest_id = ${guestId}::uuid`;
}

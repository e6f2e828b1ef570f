// A participant's JSON (spec §3 Participant; docs/api.md "Plans";
// docs/api-after-the-date.md "Co-hosts"),
// built in SQL so the participants list, the plans list and the co-host
// routes answer the same shape.
import type { Tx } from '../../../_shared/db/client.ts';
import { type Fragment, identifier } from '../../../_shared/db/sql.ts';

/**
 * The role of the participants row aliased `pa` in the plan row aliased `p`:
 * 'host' for the plan's host, 'cohost' for a co-host, else null
 * (docs/decisions/0098-cohosts.md).
 */
export function participantRole(tx: Tx, pa = 'pa', p = 'p'): Fragment {
  const part = identifier(tx, pa);
  const plan = identifier(tx, p);
  return tx`case when ${part}.user_id = ${plan}.host_id then 'host' when ${part}.is_cohost then 'cohost' end`;
}

/** GET /api/plans/{id}/participants' entry for the participants row `pa` of the plan row `p`. */
export function participantJson(tx: Tx, pa = 'pa', p = 'p'): Fragment {
  const part = identifier(tx, pa);
  return tx`jsonb_build_object(
      'id', ${part}.id,
      'name', ${part}.name,
      'userId', ${part}.user_id,
      'guestId', ${part}.guest_id,
      'isGuest', ${part}.guest_id is not null,
      'hasResponded', private.has_responded(${part}.plan_id, ${part}.user_id, ${part}.guest_id),
      'noDates', exists (select 1 from app.no_dates n where n.participant_id = ${part}.id and n.plan_id = ${part}.plan_id),
      'role', ${participantRole(tx, pa, p)}
    )`;
}

// The plan JSON (docs/api.md "Plans"), built in SQL so every endpoint that
// answers with a plan gets exactly the same shape in the same round trip:
//
//   const [row] = await tx<{ plan: Plan }[]>`
//     select ${planJson(tx)} as plan from app.plans p where p.id = ${id}::uuid`;
//
// Built as jsonb in the database on purpose: a `date` column read through
// postgres.js becomes a JS Date at local midnight (a time-zone shift waiting to
// happen), while to_jsonb(date) is the plain 'YYYY-MM-DD' text of spec §3.
//
// Everything here runs under the request's role (withRequest), so RLS decides
// what is visible: a plan the caller may not read is simply not found.
import { PLAN_NOT_FOUND, type Plan } from '../../../_shared/contract/plans.ts';
import type { Tx } from '../../../_shared/db/client.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { type Fragment, identifier } from '../../../_shared/db/sql.ts';
import { versionedColumns, type VersionedRow } from '../../../_shared/db/versioned.ts';
import { participantRole } from '../participants/participant-json.ts';

/**
 * participantCount of the plan row aliased `alias`: private.plan_participant_count
 * (migration 20261126090007_participants.sql), which also counts for a caller who holds only
 * the slug (claim plan_slug), whom the participants policies would show nothing.
 */
export function participantCount(tx: Tx, alias = 'p'): Fragment {
  const p = identifier(tx, alias);
  return tx`coalesce(private.plan_participant_count(${p}.id), 0)`;
}

/**
 * The slug of the plan row aliased `alias` as the caller may see it
 * (private.plan_link_for): null for anyone but the host, when invitations are
 * closed, unless the request came by that slug (docs/decisions/0086).
 */
export function shownSlug(tx: Tx, alias = 'p'): Fragment {
  const p = identifier(tx, alias);
  return tx`private.plan_link_for(${p}.slug, ${p}.is_open_invite, ${p}.host_id, (select auth.uid()))`;
}

/**
 * The plan JSON of the app.plans row aliased `alias` (default `p`), as one jsonb
 * value. `count` overrides participantCount with an integer SQL expression, e.g.
 * a count the query has already computed (the plans list), or the rows a CTE
 * just inserted (a sub-select of the same statement cannot see those).
 */
export function planJson(tx: Tx, alias = 'p', count?: Fragment): Fragment {
  const p = identifier(tx, alias);
  return tx`jsonb_build_object(
      'id', ${p}.id,
      'slug', ${shownSlug(tx, alias)},
      'title', ${p}.title,
      'description', ${p}.description,
      'isOpenInvite', ${p}.is_open_invite,
      'previewDetails', ${p}.preview_details,
      'status', ${p}.status,
      'hostId', ${p}.host_id,
      'location', ${p}.location,
      'eventTime', ${p}.event_time,
      'timeZone', ${p}.time_zone,
      'lockedIdeaId', ${p}.locked_idea_id,
      'lockedTimeSlotId', ${p}.locked_time_slot_id,
      'lockedTimeSlotDate', ${p}.locked_time_slot_date,
      'participantCount', ${count ?? participantCount(tx, alias)},
      -- Beyond spec §3's plan fields, so that a plan page needs no second
      -- request for what is locked: both lookups are by primary key.
      'lockedIdeaText', (select i.text from app.ideas i where i.id = ${p}.locked_idea_id),
      'lockedTimeSlot', (select jsonb_build_object('id', ts.id, 'date', ts.date, 'period', ts.period)
                           from app.time_slots ts where ts.id = ${p}.locked_time_slot_id),
      'deadline', ${p}.deadline,
      'autoLock', ${p}.auto_lock,
      'remindedAt', ${p}.reminded_at,
      'calendarSequence', ${p}.calendar_sequence,
      -- Who's coming (docs/api-after-the-date.md "Who's coming"): the spots, and the answers
      -- at a glance for the home card and the Plan Status card
      -- (private.plan_answers: null before a date is locked).
      'capacity', ${p}.capacity,
      'maxPlusOnes', ${p}.max_plus_ones,
      'answers', private.plan_answers(${p}.id),
      'cancelMessage', ${p}.cancel_message,
      'cancelledAt', ${p}.cancelled_at
    )`;
}

/** The plan with this id, if the caller can read it (claim plan_id, or a participant). */
async function findPlanById(tx: Tx, planId: string): Promise<Plan | undefined> {
  const [row] = await tx<{ plan: Plan }[]>`
    select ${planJson(tx)} as plan from app.plans p where p.id = ${planId}::uuid`;
  return row?.plan;
}

/** A plan read: the versioned body without `slug`, and the slug this caller is shown. */
export interface PlanReadRow extends VersionedRow {
  slug: string | null;
}

/**
 * GET /api/plans/{id} and /api/plans/slug/{slug}: the plan the URL names (by
 * id, or by slug, which the claims statement has resolved to the plan_id
 * claim), versioned: no body when `known` is the current version. The body
 * is the same for every reader, so each instance keeps a copy of it
 * (_shared/db/versioned.ts); the slug is not in it, since who sees it depends on who
 * asks: it comes with every request's row, and withSlug puts it in.
 */
export function readPlan(tx: Tx, by: { id: string } | { slug: string }, known: string | null) {
  const where = 'id' in by ? tx`p.id = ${by.id}::uuid` : tx`p.slug = ${by.slug}`;
  return tx<PlanReadRow[]>`
    select ${versionedColumns(tx, known, tx`${planJson(tx)} - 'slug'`)},
           ${shownSlug(tx)} as slug
      from app.plans p join app.plan_versions pv on pv.plan_id = p.id
     where ${where}`;
}

/** The plan JSON text of readPlan's body (an object without `slug`) with this reader's slug. */
export function withSlug(body: string, row: PlanReadRow): string {
  return `{"slug": ${JSON.stringify(row.slug)}, ${body.slice(1)}`;
}

/** The plan the URL names is visible through the plan_id claim; 404 when it does not exist. */
export async function requirePlan(tx: Tx, planId: string): Promise<void> {
  const [plan] = await tx`select 1 from app.plans where id = ${planId}::uuid`;
  if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
}

/** findPlanById, or the 404 "Plan not found". */
export async function requirePlanById(tx: Tx, planId: string): Promise<Plan> {
  const plan = await findPlanById(tx, planId);
  if (!plan) throw new HttpError(404, PLAN_NOT_FOUND);
  return plan;
}

/**
 * GET /api/plans: the plans `userId` takes part in, in ONE statement (no N+1):
 * participants of each plan aggregated in a lateral sub-select (participants
 * unique index (plan_id, user_id)), the locked idea and slot by primary key
 * (inside planJson). The caller's plans and their versions, read on every
 * request for the hash, come from private.my_plan_versions() (a definer whose
 * where clause, the caller's own participants rows, is the check: no policy
 * works out the caller's plans again for each row).
 *
 * Order (spec §4): a locked slot date first, earliest first; then a picked
 * idea; then more participants first; then newest first, then id (stable).
 *
 * Versioned like the plan reads: `hash` sums up the caller and the ids and
 * versions of its plans (it changes when any of them changes, or the set
 * does), and the list is only built when it differs from `knownHash`
 * (`version` is that hash).
 */
export function readPlansOf(tx: Tx, userId: string, knownHash: string | null) {
  return tx<{ version: string; body: string | null }[]>`
    with mine as (
      select m.plan_id, m.version from private.my_plan_versions() m
    ), tag as (
      select md5(${userId}::text || coalesce(string_agg(plan_id::text || ':' || version, ',' order by plan_id), '')) as hash
        from mine
    )
    select tag.hash as version,
           case when tag.hash is distinct from ${knownHash} then (
             select coalesce(jsonb_agg(x.plan order by x.locked_date asc nulls last, x.has_idea desc,
                                                       x.n desc, x.created_at desc, x.id), '[]'::jsonb)
               from (
                 select ${planJson(tx, 'p', tx`pp.count`)} || jsonb_build_object('participants', pp.list) as plan,
                        p.locked_time_slot_date as locked_date, p.locked_idea_id is not null as has_idea,
                        pp.count as n, p.created_at, p.id
                   from mine
                   join app.plans p on p.id = mine.plan_id
                  cross join lateral (
                        select count(*)::int as count,
                               coalesce(jsonb_agg(jsonb_build_object(
                                 'id', pa.id,
                                 'name', pa.name,
                                 'isGuest', pa.guest_id is not null,
                                 'role', ${participantRole(tx)}
                               ) order by pa.joined_at, pa.id), '[]'::jsonb) as list
                          from app.participants pa
                         where pa.plan_id = p.id
                        ) pp
               ) x
           )::text end as body
      from tag`;
}

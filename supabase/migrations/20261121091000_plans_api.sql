-- =============================================================================
-- Plans API: the participant count of a plan read by its slug.
-- =============================================================================
--
-- Every plan JSON carries participantCount (decisions.md "Plans"). A caller
-- who holds only the slug (GET /api/plans/slug/{slug}, claim plan_slug) may
-- read the plan row (plans_select_* policies) but not its participants rows:
-- those policies know only the plan_id claim, on purpose (the slug claim is
-- for this one read). Counting through RLS would answer 0 there.
--
-- private.plan_participant_count answers the count for a plan the caller can
-- read by any means (claim plan_id, claim plan_slug of that plan, host, or
-- participant), and null for any other plan, so it reveals nothing that the
-- caller could not read anyway (the plan JSON, including its id, is readable
-- by the same caller, and with the id the participants are readable too).
--
-- SECURITY DEFINER: it must count rows the participants policies hide from a
-- slug-only caller. It reads nothing but the count, about the plan it is
-- asked for, after the readability check. search_path = '' and qualified names.
create function private.plan_participant_count(p_plan_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case
           when exists (
                  select 1 from app.plans p
                   where p.id = p_plan_id
                     and (p.id = (select private.claimed_plan_id())
                          or p.slug = (select private.claimed_plan_slug())
                          or p.host_id = (select auth.uid())))
             or private.is_participant(p_plan_id)
           then (select count(*)::integer from app.participants pa where pa.plan_id = p_plan_id)
         end
$$;
comment on function private.plan_participant_count(uuid) is
  'Number of participants of a plan the caller can read (claim plan_id/plan_slug, host, participant); null otherwise.';

revoke all on function private.plan_participant_count(uuid) from public;
grant execute on function private.plan_participant_count(uuid) to anon, authenticated;

-- =============================================================================
-- The home list's versions read once, without row security (issue 13).
-- =============================================================================
--
-- GET /api/plans answers the caller's plans, and first (on every request)
-- the versions of those plans, hashed into the list's ETag; the body is built
-- only when that hash moved. Read as the caller, each of the participants
-- and plan_versions rows behind the hash was checked by its table's select
-- policy, each policy working out the caller's plans again
-- (private.my_plan_ids): the list's per-request statement cost the database
-- about three times the bare baseline's request.
--
-- private.my_plan_versions() answers the same rows, for the signed-in caller
-- only (auth.uid(): the participants rows are the caller's own, and every
-- plan they are in is one the caller may read, with its version), as a
-- definer: the check is the where clause, once. The plans' bodies are still
-- read under the caller's row security when the hash moved.

create function private.my_plan_versions()
returns table (plan_id uuid, version bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select pv.plan_id, pv.version
    from app.participants me
    join app.plan_versions pv on pv.plan_id = me.plan_id
   where me.user_id = (select auth.uid())
$$;
comment on function private.my_plan_versions() is
  'The plans the signed-in caller takes part in, with their versions (the home list''s ETag); none without a signed-in caller.';
revoke all on function private.my_plan_versions() from public;
grant execute on function private.my_plan_versions() to authenticated;

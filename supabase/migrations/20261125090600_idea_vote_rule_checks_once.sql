-- =============================================================================
-- An idea vote's rule checks the voter once (issue 13).
-- =============================================================================
--
-- As for comments (20261125090500_comment_rule_checks_once.sql): after
-- app.vote_on_idea had checked the voter (private.ensure_writer), row security
-- checked the same again on every statement of the toggle and the count (the
-- idea's and the votes' select policies, the votes' delete and insert
-- policies), each reading the claims and looking up the guest's credential
-- anew: about two fifths of the database's CPU for a vote
-- (scripts/bench/sql-ab.ts, docs/performance.md).
--
-- Now the rule runs as a definer in private and makes those checks itself,
-- once, before it writes:
--   * the idea is readable by the caller (private.can_read_plan: the plan's
--     link claim, or a participant), else 'Idea not found', as the select
--     policy answered;
--   * ensure_writer: the caller is a participant of that plan (a signed-in
--     link holder joins on first write; a guest of another plan is HP403);
--   * the vote toggled is the caller's own (auth.uid(), or the guest whose
--     device secret the request carried), as the delete and insert policies
--     require; the count is of the idea's votes, all of which the caller may
--     read.
-- The toggle (per-voter lock, delete, else insert), its race-freedom and the
-- answers are unchanged. app.vote_on_idea keeps its signature and grants as a
-- security-invoker wrapper; app.toggle_idea_vote and the votes' policies stay
-- as they are.

create function private.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Please join the plan first to vote');
  voted := private.toggle_idea_vote_of(p_idea_id, v_plan_id, v_user_id, v_guest_id);
  select count(*)::integer into vote_count
    from app.idea_votes v where v.idea_id = p_idea_id and v.plan_id = v_plan_id;
  return next;
end;
$$;
comment on function private.vote_on_idea(uuid) is
  'app.vote_on_idea''s rule, as a definer that checks what the policies would (readable idea, participant voter, the caller''s own vote) once: toggles the caller''s vote and answers whether it now exists and the idea''s vote count.';
revoke all on function private.vote_on_idea(uuid) from public;
grant execute on function private.vote_on_idea(uuid) to anon, authenticated;

create or replace function app.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.vote_count from private.vote_on_idea(p_idea_id) v
$$;
comment on function app.vote_on_idea(uuid) is
  'Toggles the caller''s vote on an idea and answers whether it now exists and the idea''s vote count (private.vote_on_idea).';

-- =============================================================================
-- A comment's rule checks the writer once (issue 13).
-- =============================================================================
--
-- app.add_idea_comment ran as the caller, so after the rule itself had checked
-- who writes (private.ensure_writer: a participant of the idea's plan, a guest
-- only in its own plan), PostgreSQL checked the same again through the row
-- security of every table the rule touched: the idea's select policy, the
-- comment's insert policy (the author is the caller, the plan one of the
-- caller's) and the participants policy behind the author-name trigger, each
-- with its own reading of the claims and lookup of the guest's credential.
-- That was a third of the database's CPU for a comment (scripts/bench/sql-ab.ts,
-- docs/performance.md), the write issue 13's bench found at its budget.
--
-- Now the rule runs as a definer in private (like the other rules' helpers)
-- and makes the policies' checks itself, once, before it writes:
--   * the idea is readable by the caller (private.can_read_plan: the plan's
--     link claim, or a participant), else 'Idea not found', as the select
--     policy answered;
--   * ensure_writer: the caller is a participant of that plan (a signed-in
--     link holder joins on first write; a guest of another plan is HP403);
--   * the row's author is the caller, from the verified claims (auth.uid(),
--     or the guest whose device secret the request carried), as the insert
--     policy requires.
-- The row's triggers (author name, the per-idea cap, the change feed) and its
-- foreign keys are unchanged. app.add_idea_comment keeps its signature and
-- grants as a security-invoker wrapper (definer functions live in private),
-- and the insert policies stay for any other path that writes comments.

create function private.add_idea_comment(p_idea_id uuid, p_text text)
returns app.idea_comments
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan_id uuid;
  v_user_id uuid := (select auth.uid());
  v_comment app.idea_comments;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Join the plan first to comment');

  insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id, guest_id)
  values (
    p_idea_id,
    v_plan_id,
    p_text,
    '-',
    v_user_id,
    case when v_user_id is null then (select private.claimed_guest_id()) end)
  returning * into v_comment;
  return v_comment;
end;
$$;
comment on function private.add_idea_comment(uuid, text) is
  'app.add_idea_comment''s rule, as a definer that checks what the policies would (readable idea, participant writer, the caller as author) once. HP404 unknown or unreadable idea, HP403 guest of another plan, HP401 no participant identity.';
revoke all on function private.add_idea_comment(uuid, text) from public;
grant execute on function private.add_idea_comment(uuid, text) to anon, authenticated;

create or replace function app.add_idea_comment(p_idea_id uuid, p_text text)
returns app.idea_comments
language sql
volatile
set search_path = ''
as $$
  select * from private.add_idea_comment(p_idea_id, p_text)
$$;
comment on function app.add_idea_comment(uuid, text) is
  'Adds a comment to an idea as the caller (private.add_idea_comment). HP404 unknown idea, HP403 guest of another plan, HP401 no participant identity.';

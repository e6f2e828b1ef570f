-- =============================================================================
-- Idea rules: suggest an idea, comment on it, vote on it (with the new count).
-- =============================================================================
--
-- The endpoints POST /api/plans/{id}/ideas, POST /api/ideas/{id}/comments and
-- POST /api/ideas/{id}/vote are each ONE statement calling one of these
-- functions. A function is needed because a signed-in user who is not yet a
-- participant is joined on first write (decisions.md "Plans"), and the insert
-- policies of ideas/comments/votes only admit participants: inside ONE plain
-- statement (CTEs) the insert's policy could not see the participants row the
-- same statement just added, while each statement of a PL/pgSQL function takes
-- a new snapshot and does.
--
-- SECURITY INVOKER, like the vote rules: every read and write goes through the
-- caller's RLS, so these add rules and readable errors and grant nothing.
--
-- Identity (decisions.md "API conventions"): a token wins (auth.uid()), else
-- the guest claim, which must name a guest of THIS plan.
--   * HP403 'This guest belongs to another plan'  guest of another plan
--   * HP401 <p_denied>                             no identity, an unknown guest,
--                                                  or a guest without its row
--   * HP401 'Your session has expired, ...'        a valid token whose account
--                                                  no longer exists
-- HP401 is not in the shared HP4xx mapping of _shared/errors.ts; the idea
-- routes map it to 401 themselves.

-- -----------------------------------------------------------------------------
-- private.ensure_writer (invoker): the caller may write in this plan.
-- -----------------------------------------------------------------------------
-- Like private.ensure_participant (vote rules) but with the error the caller
-- chooses and a distinct answer for a guest of another plan.
create function private.ensure_writer(p_plan_id uuid, p_denied text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id    uuid := (select auth.uid());
  v_guest_id   uuid := (select private.claimed_guest_id());
  v_guest_plan uuid;
begin
  if v_user_id is not null then
    -- The users policy shows the caller its own row: a token of a deleted
    -- account is a dead session, not a foreign-key error further down.
    if not exists (select 1 from app.users u where u.id = v_user_id) then
      raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
    end if;
    -- Joined on first write; the name is derived by trigger (participants_set_name).
    insert into app.participants (plan_id, user_id, name)
    values (p_plan_id, v_user_id, '-')
    on conflict do nothing;
    return;
  end if;

  if v_guest_id is not null then
    -- A guest sees its own row by its claim, whatever plan it belongs to.
    select g.plan_id into v_guest_plan from app.guests g where g.id = v_guest_id;
    if v_guest_plan is not null and v_guest_plan <> p_plan_id then
      raise exception using errcode = 'HP403', message = 'This guest belongs to another plan';
    end if;
  end if;

  if not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP401', message = p_denied;
  end if;
end;
$$;
comment on function private.ensure_writer(uuid, text) is
  'Joins a signed-in caller to the plan if needed; HP403 for a guest of another plan; HP401 p_denied unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_writer(uuid, text) from public;
grant execute on function private.ensure_writer(uuid, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.add_idea
-- -----------------------------------------------------------------------------
-- p_text is the trimmed text (the API trims and checks 1-280; the table's check
-- is the backstop). author_name is set by trigger from the participants row.
create function app.add_idea(p_plan_id uuid, p_text text)
returns app.ideas
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_idea app.ideas;
begin
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if not exists (select 1 from app.plans p where p.id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.ensure_writer(p_plan_id, 'Join the plan first to suggest ideas');

  insert into app.ideas (plan_id, text, author_name, user_id, guest_id)
  values (
    p_plan_id,
    p_text,
    '-',
    (select auth.uid()),
    case when (select auth.uid()) is null then (select private.claimed_guest_id()) end)
  returning * into v_idea;
  return v_idea;
end;
$$;
comment on function app.add_idea(uuid, text) is
  'Adds an idea as the caller (member, joined on first write, or guest of the plan). HP404 unknown plan, HP403 guest of another plan, HP401 no participant identity.';

-- -----------------------------------------------------------------------------
-- app.add_idea_comment
-- -----------------------------------------------------------------------------
create function app.add_idea_comment(p_idea_id uuid, p_text text)
returns app.idea_comments
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan_id uuid;
  v_comment app.idea_comments;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Join the plan first to comment');

  insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id, guest_id)
  values (
    p_idea_id,
    v_plan_id,
    p_text,
    '-',
    (select auth.uid()),
    case when (select auth.uid()) is null then (select private.claimed_guest_id()) end)
  returning * into v_comment;
  return v_comment;
end;
$$;
comment on function app.add_idea_comment(uuid, text) is
  'Adds a comment to an idea as the caller. HP404 unknown idea, HP403 guest of another plan, HP401 no participant identity.';

-- -----------------------------------------------------------------------------
-- app.vote_on_idea: app.toggle_idea_vote plus the idea's new vote count
-- -----------------------------------------------------------------------------
-- The toggle itself (and its race-freedom) is app.toggle_idea_vote's; this adds
-- the identity answers above and counts the votes in a later statement, which
-- sees the toggle and every vote committed before it.
create function app.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan_id uuid;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Please join the plan first to vote');

  voted := app.toggle_idea_vote(p_idea_id);
  select count(*)::integer into vote_count from app.idea_votes v where v.idea_id = p_idea_id;
  return next;
end;
$$;
comment on function app.vote_on_idea(uuid) is
  'Toggles the caller''s vote on an idea (app.toggle_idea_vote) and answers whether it now exists and the idea''s vote count.';

revoke all on function app.add_idea(uuid, text) from public;
revoke all on function app.add_idea_comment(uuid, text) from public;
revoke all on function app.vote_on_idea(uuid) from public;
grant execute on function app.add_idea(uuid, text) to anon, authenticated;
grant execute on function app.add_idea_comment(uuid, text) to anon, authenticated;
grant execute on function app.vote_on_idea(uuid) to anon, authenticated;

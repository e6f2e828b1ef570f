-- =============================================================================
-- Vote rules in one shape: each vote endpoint is one rule that answers
-- (voted, vote_count), and the toggle itself is written once per target.
-- =============================================================================
--
-- Issue 13 (speed) measured the vote path: app.vote_on_idea looked the idea
-- up and checked the writer, then called app.toggle_idea_vote, which looked
-- the idea up again and checked the participant again; the time-slot vote was
-- two statements (the toggle, then a count sent by the API); app.vote_date
-- checked the participant, then toggle_time_slot_vote looked the new slot up
-- and checked the participant once more. Now:
--
--   * private.toggle_idea_vote_of / private.toggle_time_slot_vote_of: the
--     toggle alone (per-voter lock, delete, else insert), for a target whose
--     plan and voter the caller has already established. SECURITY INVOKER like
--     every rule here: the delete and the insert still go through the caller's
--     RLS, so a wrong argument can do nothing RLS would refuse.
--   * app.vote_on_idea (idea endpoint) and the new app.vote_on_time_slot
--     (slot endpoint): one lookup, one check, the toggle, the count.
--   * app.toggle_idea_vote / app.toggle_time_slot_vote keep their contract
--     (boolean, HP403 for a non-participant) on the same toggle.
--   * app.vote_date toggles the slot it found or made without checking again.
--
-- Behaviour is unchanged: the same errors, the same race-freedom (see
-- 20261121090600_vote_rules.sql), the same answers.

-- -----------------------------------------------------------------------------
-- The toggles
-- -----------------------------------------------------------------------------
create function private.toggle_idea_vote_of(p_idea_id uuid, p_plan_id uuid, p_user_id uuid, p_guest_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
begin
  perform private.lock_vote(p_idea_id, coalesce(p_user_id, p_guest_id));
  if p_user_id is not null then
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.user_id = p_user_id;
  else
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.guest_id = p_guest_id;
  end if;
  if found then
    return false;
  end if;
  -- Inserted, or (conflict) the row appeared meanwhile through a path that
  -- does not take the vote lock, e.g. a guest-vote transfer: either way the
  -- vote now exists.
  insert into app.idea_votes (idea_id, plan_id, user_id, guest_id)
  values (p_idea_id, p_plan_id, p_user_id, p_guest_id)
  on conflict do nothing;
  return true;
end;
$$;
comment on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) is
  'The toggle of an idea vote (per-voter lock, delete, else insert) for a caller already checked; invoker, so RLS still decides. True when the vote now exists.';

create function private.toggle_time_slot_vote_of(p_time_slot_id uuid, p_plan_id uuid, p_user_id uuid, p_guest_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
begin
  perform private.lock_vote(p_time_slot_id, coalesce(p_user_id, p_guest_id));
  if p_user_id is not null then
    delete from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.user_id = p_user_id;
  else
    delete from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.guest_id = p_guest_id;
  end if;
  if found then
    return false;
  end if;
  insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id)
  values (p_time_slot_id, p_plan_id, p_user_id, p_guest_id)
  on conflict do nothing;
  return true;
end;
$$;
comment on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid) is
  'The toggle of a time-slot vote (per-voter lock, delete, else insert) for a caller already checked; invoker, so RLS still decides. True when the vote now exists.';

revoke all on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) from public;
revoke all on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid) from public;
grant execute on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) to anon, authenticated;
grant execute on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Ideas
-- -----------------------------------------------------------------------------
create or replace function app.toggle_idea_vote(p_idea_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  -- Invisible (no link claim, not a participant) and unknown look the same.
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_participant(v_plan_id);
  return private.toggle_idea_vote_of(p_idea_id, v_plan_id, v_user_id, v_guest_id);
end;
$$;

create or replace function app.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Please join the plan first to vote');
  voted := private.toggle_idea_vote_of(p_idea_id, v_plan_id, v_user_id, v_guest_id);
  select count(*)::integer into vote_count
    from app.idea_votes v where v.idea_id = p_idea_id and v.plan_id = v_plan_id;
  return next;
end;
$$;

-- -----------------------------------------------------------------------------
-- Time slots
-- -----------------------------------------------------------------------------
create or replace function app.toggle_time_slot_vote(p_time_slot_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  select s.plan_id into v_plan_id from app.time_slots s where s.id = p_time_slot_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Time slot not found';
  end if;
  perform private.ensure_participant(v_plan_id);
  return private.toggle_time_slot_vote_of(p_time_slot_id, v_plan_id, v_user_id, v_guest_id);
end;
$$;

create function app.vote_on_time_slot(p_time_slot_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  select s.plan_id into v_plan_id from app.time_slots s where s.id = p_time_slot_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Time slot not found';
  end if;
  perform private.ensure_participant(v_plan_id);
  voted := private.toggle_time_slot_vote_of(p_time_slot_id, v_plan_id, v_user_id, v_guest_id);
  -- A slot whose last vote this was is gone by now (empty slots go): 0.
  select count(*)::integer into vote_count
    from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.plan_id = v_plan_id;
  return next;
end;
$$;
comment on function app.vote_on_time_slot(uuid) is
  'Toggles the caller''s vote on a time slot and answers whether it now exists and the slot''s vote count. HP404 unknown slot, HP403 not a participant.';
revoke all on function app.vote_on_time_slot(uuid) from public;
grant execute on function app.vote_on_time_slot(uuid) to anon, authenticated;

-- The date vote: vote_date's checks, then find-or-create the slot and toggle
-- the caller's vote on it without checking again. Answers the slot (its id
-- from before the toggle: a slot whose last vote this was is gone after it)
-- and its count after the toggle.
create function app.vote_on_date(p_plan_id uuid, p_date date, p_period text default null)
returns table (voted boolean, time_slot_id uuid, vote_count integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- '' and blanks mean "whole day", like an absent period.
  v_period   text := nullif(btrim(p_period), '');
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
begin
  if not exists (select 1 from app.plans p where p.id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.check_plan_date(p_date);
  if v_period is not null
     and v_period not in ('Morning', 'Afternoon', 'Evening', 'Night')
     and v_period !~ '^(1?[0-9]|2[0-3]):[0-5][0-9]$' then
    raise exception using errcode = 'HP400',
      message = 'period must be Morning, Afternoon, Evening, Night or a time like 19:30';
  end if;

  perform private.ensure_participant(p_plan_id);
  -- Insert first (not look first): a slot being removed by a parallel unvote
  -- makes the insert wait for it and then create the slot anew
  -- (20261124100200_empty_slot_cleanup.sql).
  time_slot_id := private.find_or_create_time_slot(p_plan_id, p_date, v_period);
  voted := private.toggle_time_slot_vote_of(time_slot_id, p_plan_id, v_user_id, v_guest_id);
  select count(*)::integer into vote_count
    from app.time_slot_votes v where v.time_slot_id = vote_on_date.time_slot_id and v.plan_id = p_plan_id;
  return next;
end;
$$;
comment on function app.vote_on_date(uuid, date, text) is
  'The date vote endpoint: finds or creates the slot (plan, date, period; null = whole day), toggles the caller''s vote on it, answers (voted, the slot, its count). HP400 bad date/period, HP404 unknown plan, HP403 not a participant.';
revoke all on function app.vote_on_date(uuid, date, text) from public;
grant execute on function app.vote_on_date(uuid, date, text) to anon, authenticated;

-- app.vote_date keeps its contract (boolean) on the same rule.
create or replace function app.vote_date(p_plan_id uuid, p_date date, p_period text default null)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select v.voted from app.vote_on_date(p_plan_id, p_date, p_period) v
$$;

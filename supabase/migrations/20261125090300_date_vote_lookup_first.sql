-- =============================================================================
-- Fewer statements on the vote and comment paths (issue 13).
-- =============================================================================
--
-- Behaviour is unchanged (the same answers, errors and their order); each
-- change removes statements from the common case, found by
-- `BENCH_STATEMENTS=1 npm run bench`:
--
--   * app.vote_on_date attempted to insert the slot on every vote, so that a
--     slot being removed by a parallel unvote could not slip away between a
--     lookup and the vote (20261124100200_empty_slot_cleanup.sql). Now it
--     looks the slot up, and only a vote (not an unvote) holds the slot it
--     found with a KEY SHARE lock before inserting: a clean-up that locked
--     the slot first has removed it by then, and the slot is created anew
--     as before; a clean-up that comes later waits for the vote and keeps
--     the slot. Unvotes take no lock on the slot, so two unvoters cannot
--     wait for each other in a circle (tests/db/empty-slots.test.ts).
--   * app.vote_on_date asked whether the plan exists and then whether the
--     caller takes part. A participant's plan exists, so the plan is looked
--     up only for others (its 404 still comes first).
--   * private.ensure_participant tried to insert a member's participants row
--     on every vote; now it looks first, like private.ensure_writer.
--   * private.ensure_writer read a guest's plan before asking whether the
--     guest takes part; a guest of this plan (every guest who writes) is now
--     answered by that one question (the plan is read only to word a refusal).
--   * The clean-up after a vote delete ran even when the delete removed
--     nothing (the first step of every toggle that ends in a vote).

-- A slot the caller is about to vote on, held against a parallel clean-up
-- until the vote commits. SECURITY DEFINER: a row lock needs UPDATE
-- privilege, which the request roles do not have on time slots. It reveals
-- nothing: the caller found the slot itself, under its policies.
create function private.hold_time_slot(p_time_slot_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform 1 from app.time_slots s where s.id = p_time_slot_id for key share;
  return found;
end;
$$;
comment on function private.hold_time_slot(uuid) is
  'KEY SHARE lock on a time slot until commit, so that the empty-slot clean-up waits for a vote about to be added. False when the slot is gone.';
revoke all on function private.hold_time_slot(uuid) from public;
grant execute on function private.hold_time_slot(uuid) to anon, authenticated;

create or replace function private.ensure_participant(p_plan_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
begin
  if v_user_id is not null then
    if not exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      -- Joined on first vote; the name is derived by trigger (participants_set_name).
      insert into app.participants (plan_id, user_id, name)
      values (p_plan_id, v_user_id, '-')
      on conflict do nothing;
    end if;
  elsif not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP403', message = 'Please join the plan first to vote';
  end if;
end;
$$;

create or replace function private.ensure_writer(p_plan_id uuid, p_denied text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id    uuid := (select auth.uid());
  v_guest_id   uuid;
  v_guest_plan uuid;
begin
  if v_user_id is not null then
    -- Already a participant: nearly every write. (The row exists only while
    -- the account does: participants cascade with users.)
    if exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      return;
    end if;
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

  -- A guest of this plan (every guest who writes): one lookup.
  v_guest_id := (select private.claimed_guest_id());
  if v_guest_id is not null
     and exists (select 1 from app.participants pa where pa.guest_id = v_guest_id and pa.plan_id = p_plan_id) then
    return;
  end if;
  if v_guest_id is not null then
    -- A guest sees its own row by its claim, whatever plan it belongs to.
    select g.plan_id into v_guest_plan from app.guests g where g.id = v_guest_id;
    if v_guest_plan is not null and v_guest_plan <> p_plan_id then
      raise exception using errcode = 'HP403', message = 'This guest belongs to another plan';
    end if;
  end if;
  raise exception using errcode = 'HP401', message = p_denied;
end;
$$;

create or replace function private.remove_time_slots_left_empty()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_slot_ids uuid[] := array(select o.time_slot_id from old_votes o);
begin
  if cardinality(v_slot_ids) > 0 then
    perform private.remove_empty_time_slots(v_slot_ids);
  end if;
  return null;
end;
$$;

create or replace function app.vote_on_date(p_plan_id uuid, p_date date, p_period text default null)
returns table (voted boolean, time_slot_id uuid, vote_count integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- '' and blanks mean "whole day", like an absent period.
  v_period      text := nullif(btrim(p_period), '');
  v_user_id     uuid := (select auth.uid());
  v_guest_id    uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_participant boolean := private.is_participant(p_plan_id);
begin
  if not v_participant and not exists (select 1 from app.plans p where p.id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.check_plan_date(p_date);
  if v_period is not null
     and v_period not in ('Morning', 'Afternoon', 'Evening', 'Night')
     and v_period !~ '^(1?[0-9]|2[0-3]):[0-5][0-9]$' then
    raise exception using errcode = 'HP400',
      message = 'Period must be Morning, Afternoon, Evening, Night or a time like 19:30';
  end if;
  if not v_participant then
    perform private.ensure_participant(p_plan_id);
  end if;

  select s.id into time_slot_id
    from app.time_slots s
   where s.plan_id = p_plan_id and s.date = p_date and s.period is not distinct from v_period;

  if time_slot_id is not null then
    perform private.lock_vote(time_slot_id, coalesce(v_user_id, v_guest_id));
    if v_user_id is not null then
      delete from app.time_slot_votes v where v.time_slot_id = vote_on_date.time_slot_id and v.user_id = v_user_id;
    else
      delete from app.time_slot_votes v where v.time_slot_id = vote_on_date.time_slot_id and v.guest_id = v_guest_id;
    end if;
    if found then
      voted := false;
    elsif private.hold_time_slot(time_slot_id) then
      -- Inserted, or (conflict) the vote appeared meanwhile through a path
      -- that does not take the vote lock: either way it now exists.
      insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id)
      values (time_slot_id, p_plan_id, v_user_id, v_guest_id)
      on conflict do nothing;
      voted := true;
    else
      -- Removed by a clean-up since the lookup: created anew below.
      time_slot_id := null;
    end if;
  end if;

  if time_slot_id is null then
    -- Insert first (not look again): a slot being removed makes the insert
    -- wait for the removal and then create the slot anew.
    time_slot_id := private.find_or_create_time_slot(p_plan_id, p_date, v_period);
    voted := private.toggle_time_slot_vote_of(time_slot_id, p_plan_id, v_user_id, v_guest_id);
  end if;

  select count(*)::integer into vote_count
    from app.time_slot_votes v where v.time_slot_id = vote_on_date.time_slot_id and v.plan_id = p_plan_id;
  return next;
end;
$$;

-- =============================================================================
-- The date votes' rules check the voter once (issue 13).
-- =============================================================================
--
-- As for comments and idea votes (20261125090500, 20261125090600): after
-- app.vote_on_date and app.vote_on_time_slot had checked the voter
-- (is_participant, ensure_participant), row security checked the same again
-- on every statement that followed: the plan's and the slots' select
-- policies, the slot insert of a new date, the votes' delete and insert
-- policies and the count, each reading the claims and looking up the guest's
-- credential anew.
--
-- Now each rule runs as a definer in private and makes those checks itself,
-- once, before it writes:
--   * the plan (or the slot's plan) is readable by the caller
--     (private.can_read_plan: the link claim, or a participant or its host),
--     else 'Plan not found' / 'Time slot not found', as the select policies
--     answered;
--   * ensure_participant: the caller is a participant of that plan (a
--     signed-in link holder joins on first vote; anyone else is HP403);
--   * the vote toggled is the caller's own (auth.uid(), or the guest whose
--     device secret the request carried) and a new slot belongs to that
--     plan, as the delete and insert policies require.
-- Everything else is as before: the date and period checks, the slot lookup
-- first, the per-voter lock, holding the slot (KEY SHARE) only to vote, the
-- clean-up of emptied slots, the answers. The app functions keep their
-- signatures and grants as security-invoker wrappers; app.vote_date,
-- app.toggle_time_slot_vote and the policies stay as they are.

create function private.vote_on_date(p_plan_id uuid, p_date date, p_period text default null)
returns table (voted boolean, time_slot_id uuid, vote_count integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- '' and blanks mean "whole day", like an absent period.
  v_period      text := nullif(btrim(p_period), '');
  v_user_id     uuid := (select auth.uid());
  v_guest_id    uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_participant boolean := private.is_participant(p_plan_id);
begin
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if not v_participant
     and not (private.can_read_plan(p_plan_id) and exists (select 1 from app.plans p where p.id = p_plan_id)) then
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
comment on function private.vote_on_date(uuid, date, text) is
  'app.vote_on_date''s rule, as a definer that checks what the policies would (readable plan, participant voter, the caller''s own vote) once.';
revoke all on function private.vote_on_date(uuid, date, text) from public;
grant execute on function private.vote_on_date(uuid, date, text) to anon, authenticated;

create function private.vote_on_time_slot(p_time_slot_id uuid)
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
  select s.plan_id into v_plan_id from app.time_slots s where s.id = p_time_slot_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
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
comment on function private.vote_on_time_slot(uuid) is
  'app.vote_on_time_slot''s rule, as a definer that checks what the policies would (readable slot, participant voter, the caller''s own vote) once.';
revoke all on function private.vote_on_time_slot(uuid) from public;
grant execute on function private.vote_on_time_slot(uuid) to anon, authenticated;

create or replace function app.vote_on_date(p_plan_id uuid, p_date date, p_period text default null)
returns table (voted boolean, time_slot_id uuid, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.time_slot_id, v.vote_count from private.vote_on_date(p_plan_id, p_date, p_period) v
$$;

create or replace function app.vote_on_time_slot(p_time_slot_id uuid)
returns table (voted boolean, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.vote_count from private.vote_on_time_slot(p_time_slot_id) v
$$;

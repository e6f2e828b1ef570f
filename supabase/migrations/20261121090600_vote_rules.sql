-- =============================================================================
-- Vote rules: app.toggle_idea_vote, app.toggle_time_slot_vote, app.vote_date.
-- =============================================================================
--
-- Each is one statement for the API (`select app.toggle_idea_vote($1)`) and so
-- one transaction. They are SECURITY INVOKER: every read and write below goes
-- through the caller's RLS (a guest can only insert/delete its own votes in
-- its own plan, a member likewise), so the functions add rules and readable
-- errors but cannot grant anything RLS would refuse.
--
-- Errors use the HP4xx SQLSTATEs of docs/data-model.md; the message is the
-- sentence the API sends to the user.
--
-- Race-freedom:
--   * The unique constraints (idea_id, user_id) / (idea_id, guest_id) (and the
--     same for slots) make a duplicate vote impossible, whatever happens; the
--     insert uses ON CONFLICT DO NOTHING so it can never fail with 23505.
--   * Parallel toggles BY THE SAME VOTER on the same target (double click, two
--     tabs) are serialised by a transaction-scoped advisory lock on
--     (target, voter): the second waits for the first to commit and then sees
--     its vote, so two parallel toggles cancel out exactly like two sequential
--     ones. The lock is per voter, so 50 different voters never wait for each
--     other, and each adds exactly its one row.

-- -----------------------------------------------------------------------------
-- private.ensure_participant (invoker): the caller may write in this plan.
-- -----------------------------------------------------------------------------
-- decisions.md: a signed-in user who is not yet a participant is joined on
-- first write (the caller can read the plan here, so the participants insert
-- policy lets it join itself). A guest must be a guest OF THIS plan: a guestId
-- of another plan is 403, no guest at all likewise.
create function private.ensure_participant(p_plan_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null then
    -- name is derived by trigger (participants_set_name).
    insert into app.participants (plan_id, user_id, name)
    values (p_plan_id, (select auth.uid()), '-')
    on conflict do nothing;
  elsif not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP403', message = 'Please join the plan first to vote';
  end if;
end;
$$;
comment on function private.ensure_participant(uuid) is
  'Joins a signed-in caller to the plan if needed; raises HP403 unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_participant(uuid) from public;
grant execute on function private.ensure_participant(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.lock_vote: serialise one voter's toggles on one target.
-- -----------------------------------------------------------------------------
-- Transaction-scoped advisory lock (released at commit/rollback, callable by
-- any role). Hash collisions between different (target, voter) pairs only
-- make two unrelated toggles wait for each other: harmless.
create function private.lock_vote(p_target_id uuid, p_voter_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(
    hashtextextended('hangplan.vote:' || p_target_id::text || ':' || p_voter_id::text, 0))
$$;
revoke all on function private.lock_vote(uuid, uuid) from public;
grant execute on function private.lock_vote(uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.toggle_idea_vote
-- -----------------------------------------------------------------------------
create function app.toggle_idea_vote(p_idea_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id  uuid := (select auth.uid());
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  -- Invisible (no link claim, not a participant) and unknown look the same.
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;

  perform private.ensure_participant(v_plan_id);
  perform private.lock_vote(p_idea_id, coalesce(v_user_id, v_guest_id));

  if v_user_id is not null then
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.user_id = v_user_id;
  else
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.guest_id = v_guest_id;
  end if;
  if found then
    return false;
  end if;

  insert into app.idea_votes (idea_id, plan_id, user_id, guest_id)
  values (p_idea_id, v_plan_id, v_user_id, v_guest_id)
  on conflict do nothing;
  -- Inserted, or (conflict) the row appeared meanwhile through a path that
  -- does not take the vote lock, e.g. a guest-vote transfer: either way the
  -- vote now exists.
  return true;
end;
$$;
comment on function app.toggle_idea_vote(uuid) is
  'Toggles the caller''s vote (member or claimed guest) on an idea; true when the vote now exists. Joins a signed-in caller on first write. HP404 unknown idea, HP403 not a participant.';

-- -----------------------------------------------------------------------------
-- app.toggle_time_slot_vote
-- -----------------------------------------------------------------------------
create function app.toggle_time_slot_vote(p_time_slot_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id  uuid := (select auth.uid());
  v_guest_id uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan_id  uuid;
begin
  select s.plan_id into v_plan_id from app.time_slots s where s.id = p_time_slot_id;
  if v_plan_id is null then
    raise exception using errcode = 'HP404', message = 'Time slot not found';
  end if;

  perform private.ensure_participant(v_plan_id);
  perform private.lock_vote(p_time_slot_id, coalesce(v_user_id, v_guest_id));

  if v_user_id is not null then
    delete from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.user_id = v_user_id;
  else
    delete from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.guest_id = v_guest_id;
  end if;
  if found then
    return false;
  end if;

  insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id)
  values (p_time_slot_id, v_plan_id, v_user_id, v_guest_id)
  on conflict do nothing;
  -- Inserted, or (conflict) the row appeared meanwhile through a path that
  -- does not take the vote lock, e.g. a guest-vote transfer: either way the
  -- vote now exists.
  return true;
end;
$$;
comment on function app.toggle_time_slot_vote(uuid) is
  'Toggles the caller''s vote on a time slot; true when the vote now exists. HP404 unknown slot, HP403 not a participant.';

-- -----------------------------------------------------------------------------
-- Date rules shared by vote_date and lock_date
-- -----------------------------------------------------------------------------
-- decisions.md: a date before yesterday or more than 366 days ahead is 400.
-- "Yesterday" leaves room for groups whose local day lags the server's (UTC).
-- Impossible dates ('2026-02-30') never get here: they fail the cast to
-- `date` (22008), which the API must reject as 400 before calling.
create function private.check_plan_date(p_date date)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_date is null then
    raise exception using errcode = 'HP400', message = 'date is required';
  end if;
  if p_date < current_date - 1 then
    raise exception using errcode = 'HP400', message = 'date must not be in the past';
  end if;
  if p_date > current_date + 366 then
    raise exception using errcode = 'HP400', message = 'date must be at most 366 days ahead';
  end if;
end;
$$;
revoke all on function private.check_plan_date(date) from public;
grant execute on function private.check_plan_date(date) to anon, authenticated;

-- Find-or-create a slot, race-free: the unique (plan_id, date, period) NULLS
-- NOT DISTINCT decides between parallel creators; the loser's insert waits,
-- does nothing, and its next statement sees the winner's row. Invoker: the
-- time_slots insert policy requires the caller to be a participant.
create function private.find_or_create_time_slot(p_plan_id uuid, p_date date, p_period text)
returns uuid
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into app.time_slots (plan_id, date, period)
  values (p_plan_id, p_date, p_period)
  on conflict (plan_id, date, period) do nothing
  returning id into v_id;
  if v_id is null then
    select s.id into v_id
      from app.time_slots s
     where s.plan_id = p_plan_id
       and s.date = p_date
       and (s.period = p_period or (s.period is null and p_period is null));
  end if;
  return v_id;
end;
$$;
revoke all on function private.find_or_create_time_slot(uuid, date, text) from public;
grant execute on function private.find_or_create_time_slot(uuid, date, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.vote_date
-- -----------------------------------------------------------------------------
create function app.vote_date(p_plan_id uuid, p_date date, p_period text default null)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- '' and blanks mean "whole day", like an absent period.
  v_period  text := nullif(btrim(p_period), '');
  v_slot_id uuid;
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
  v_slot_id := private.find_or_create_time_slot(p_plan_id, p_date, v_period);
  return app.toggle_time_slot_vote(v_slot_id);
end;
$$;
comment on function app.vote_date(uuid, date, text) is
  'Finds or creates the slot (plan, date, period; null = whole day) and toggles the caller''s vote on it. HP400 bad date/period, HP404 unknown plan, HP403 not a participant.';

revoke all on function app.toggle_idea_vote(uuid) from public;
revoke all on function app.toggle_time_slot_vote(uuid) from public;
revoke all on function app.vote_date(uuid, date, text) from public;
grant execute on function app.toggle_idea_vote(uuid) to anon, authenticated;
grant execute on function app.toggle_time_slot_vote(uuid) to anon, authenticated;
grant execute on function app.vote_date(uuid, date, text) to anon, authenticated;

-- =============================================================================
-- Domain: dates. Candidate days and their time slots (a date and an optional
-- part of the day or clock time), their votes, the date vote rules, and the
-- clean-up that removes a slot nobody wants any more.
-- =============================================================================
--
-- `date` is a calendar date with no time zone: the group's local day, exactly
-- what the client picked (docs/api.md "Time slots and the lock flow"). `period` is a named part of the day,
-- a 24-hour clock time 'H:mm' (created by the host's event time), or null for
-- the whole day.

create table app.time_slots (
  id         uuid primary key default gen_random_uuid(),
  plan_id    uuid not null references app.plans (id) on delete cascade,
  date       date not null,
  period     text,
  -- Whose date vote created the slot (set by the caps' trigger, never by the
  -- caller): a participant proposes at most private.plan_cap
  -- ('slots_per_participant') slots. Null for the host's event time, the
  -- scheduler's, or once that participant has gone.
  proposed_by uuid references app.participants (id) on delete set null,
  created_at timestamptz not null default now(),

  constraint time_slots_period_valid check (
    period is null
    or period in ('Morning', 'Afternoon', 'Evening', 'Night')
    or period ~ '^(1?[0-9]|2[0-3]):[0-5][0-9]$'
  ),
  -- Find-or-create of a slot (vote-date, set-event-time) is race-free because
  -- of this constraint; NULLS NOT DISTINCT (PG15+) makes two "whole day" slots
  -- of one date a conflict too.
  constraint time_slots_plan_id_date_period_key unique nulls not distinct (plan_id, date, period),
  -- Target of the composite FKs from votes and plans.locked_time_slot_id.
  constraint time_slots_id_plan_id_key unique (id, plan_id)
);
comment on table app.time_slots is 'Candidate times of a plan: a date and an optional period or clock time.';

grant insert (id, plan_id, date, period) on app.time_slots to anon, authenticated;
-- A participant's proposals: the cap's count and the foreign key.
create index time_slots_proposed_by_idx on app.time_slots (proposed_by);

-- The locked slot must be a slot OF THIS PLAN. Slots are only ever deleted with
-- their plan, so `set null` never fires on a live plan (whose 'completed'
-- status requires a slot).
alter table app.plans
  add constraint plans_locked_time_slot_fkey foreign key (locked_time_slot_id, id)
    references app.time_slots (id, plan_id) on delete set null (locked_time_slot_id);
create index plans_locked_time_slot_id_id_idx on app.plans (locked_time_slot_id, id);

create table app.time_slot_votes (
  id           uuid primary key default gen_random_uuid(),
  time_slot_id uuid not null,
  plan_id      uuid not null,
  user_id      uuid references app.users (id) on delete cascade,
  guest_id     uuid,
  created_at   timestamptz not null default now(),

  constraint time_slot_votes_time_slot_fkey foreign key (time_slot_id, plan_id)
    references app.time_slots (id, plan_id) on delete cascade,
  constraint time_slot_votes_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint time_slot_votes_one_voter check (num_nonnulls(user_id, guest_id) = 1),
  -- One vote per person and slot (see idea_votes).
  constraint time_slot_votes_time_slot_id_user_id_key unique (time_slot_id, user_id),
  constraint time_slot_votes_time_slot_id_guest_id_key unique (time_slot_id, guest_id)
);
comment on table app.time_slot_votes is 'One row per (slot, voter). Toggled by app.vote_on_time_slot / app.vote_on_date.';

create index time_slot_votes_time_slot_id_plan_id_idx on app.time_slot_votes (time_slot_id, plan_id);
create index time_slot_votes_plan_id_idx on app.time_slot_votes (plan_id);
create index time_slot_votes_user_id_idx on app.time_slot_votes (user_id);
create index time_slot_votes_guest_id_plan_id_idx on app.time_slot_votes (guest_id, plan_id);
grant select on app.time_slots, app.time_slot_votes to anon, authenticated;
grant insert (id, time_slot_id, plan_id, user_id, guest_id), delete on app.time_slot_votes to anon, authenticated;

-- The plan of a time slot, for the plan_id claim of /api/timeslots/{id}/...
-- (null for an unknown id); a definer for the same reason as plan_id_of_idea.
create function private.plan_id_of_time_slot(p_time_slot_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select s.plan_id from app.time_slots s where s.id = p_time_slot_id
$$;
comment on function private.plan_id_of_time_slot(uuid) is
  'Plan of a time slot (null if unknown), for the plan_id claim of /api/timeslots/{id}/... requests.';
revoke all on function private.plan_id_of_time_slot(uuid) from public;
grant execute on function private.plan_id_of_time_slot(uuid) to anon, authenticated;
-- -----------------------------------------------------------------------------
-- Date rules shared by the date vote and lock_date
-- -----------------------------------------------------------------------------
-- docs/api.md "Time slots and the lock flow": a date before yesterday or more than 366 days ahead is 400.
-- "Yesterday" leaves room for groups whose local day lags the server's (UTC).
-- Impossible dates ('2026-02-30') never get here: they fail the cast to
-- `date` (22008), which the API must reject as 400 before calling. The
-- message is the sentence the user reads; the API passes it through.

create function private.check_plan_date(p_date date)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_date is null then
    raise exception using errcode = 'HP400', message = 'Date is required';
  end if;
  if p_date < current_date - 1 then
    raise exception using errcode = 'HP400', message = 'Date must not be in the past';
  end if;
  if p_date > current_date + 366 then
    raise exception using errcode = 'HP400', message = 'Date must be at most 366 days ahead';
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
-- The date vote looks its slot up first
-- -----------------------------------------------------------------------------
-- A slot may be removed by a parallel unvote (the clean-up at the end of this
-- file) between a lookup and the vote. So the date vote looks the slot up,
-- and only a vote (not an unvote) holds the slot it found with a KEY SHARE
-- lock before inserting: a clean-up that locked the slot first has removed it
-- by then, and the slot is created anew; a clean-up that comes later waits
-- for the vote and keeps the slot. Unvotes take no lock on the slot, so two
-- unvoters cannot wait for each other in a circle. A participant's plan
-- exists, so the plan is looked up only for others (its 404 still comes
-- first).

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
revoke all on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid) from public;
grant execute on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The date vote rules, checking the voter once
-- -----------------------------------------------------------------------------
-- As for comments and idea votes (the ideas file): run as the caller, row
-- security would check the voter again on every statement (the plan's and the
-- slots' select policies, the slot insert of a new date, the votes' delete
-- and insert policies, the count). Each rule is a definer in private that
-- makes those checks itself, once, before it writes:
--   * the plan (or the slot's plan) is readable by the caller
--     (private.can_read_plan: the link claim, or a participant or its host),
--     else 'Plan not found' / 'Time slot not found', as the select policies
--     answered;
--   * ensure_participant: the caller is a participant of that plan (a
--     signed-in link holder joins on first vote; anyone else is HP403);
--   * the vote toggled is the caller's own (auth.uid(), or the guest whose
--     device secret the request carried) and a new slot belongs to that
--     plan, as the delete and insert policies require.
-- app.vote_on_time_slot (the slot endpoint) and app.vote_on_date (the date
-- endpoint: find-or-create the slot, then vote; answers the slot too, its id
-- from before the toggle, since a slot whose last vote this was is gone after
-- it) are the security-invoker wrappers the API calls; the policies stay for
-- any other path.

create function private.vote_on_time_slot(p_time_slot_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := auth.uid();
  v_guest_id uuid := case when auth.uid() is null then private.claimed_guest_id() end;
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

create function app.vote_on_time_slot(p_time_slot_id uuid)
returns table (voted boolean, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.vote_count from private.vote_on_time_slot(p_time_slot_id) v
$$;
comment on function app.vote_on_time_slot(uuid) is
  'Toggles the caller''s vote on a time slot and answers whether it now exists and the slot''s vote count. HP404 unknown slot, HP403 not a participant.';
revoke all on function app.vote_on_time_slot(uuid) from public;
grant execute on function app.vote_on_time_slot(uuid) to anon, authenticated;
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
  v_user_id     uuid := auth.uid();
  v_guest_id    uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_participant boolean := private.is_participant_as(p_plan_id, v_user_id, v_guest_id);
begin
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if not v_participant
     and not (private.can_read_plan(p_plan_id) and exists (select 1 from app.plans p where p.id = p_plan_id)) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  -- A participant does not pass ensure_participant below: frozen here.
  perform private.refuse_cancelled_plan(p_plan_id);
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

create function app.vote_on_date(p_plan_id uuid, p_date date, p_period text default null)
returns table (voted boolean, time_slot_id uuid, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.time_slot_id, v.vote_count from private.vote_on_date(p_plan_id, p_date, p_period) v
$$;
comment on function app.vote_on_date(uuid, date, text) is
  'The date vote endpoint: finds or creates the slot (plan, date, period; null = whole day), toggles the caller''s vote on it, answers (voted, the slot, its count). HP400 bad date/period, HP404 unknown plan, HP403 not a participant.';
revoke all on function app.vote_on_date(uuid, date, text) from public;
grant execute on function app.vote_on_date(uuid, date, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- A time slot with no votes that is not locked is removed.
-- -----------------------------------------------------------------------------
-- docs/decisions/0036-empty-slots-removed.md. Slots are created by a vote (the date vote's
-- find-or-create) or by the host's event time. Kept as long as their plan, a
-- vote followed by an unvote would leave an empty slot behind for good (1,440
-- clock times x 368 days per plan). So:
--
--   * when votes are deleted (an unvote, a leave, a guest deleted or
--     transferred), each slot that lost a vote is removed if it has no vote
--     left and is not the plan's locked slot;
--   * when a plan's locked slot changes (unlock, another event time), the
--     previous one is removed on the same terms (the lock file).
--
-- Race-free against a parallel vote on the same slot: the clean-up first locks
-- the slot row FOR UPDATE. A vote being inserted holds a KEY SHARE lock on its
-- slot (its foreign key check) until it commits, so the clean-up waits for it
-- and then, in a new statement (a new snapshot), sees that vote and keeps the
-- slot. A vote that comes after the lock waits for the clean-up; if the slot
-- was removed its foreign key fails (23503, the API's 409 "...please try
-- again"), and voting again creates the slot anew.

create function private.remove_empty_time_slots(p_slot_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_slot_id uuid;
begin
  -- Ascending id order: two clean-ups never wait for each other in a circle.
  for v_slot_id in select distinct u.id from unnest(p_slot_ids) as u(id) where u.id is not null order by 1 loop
    perform 1 from app.time_slots s where s.id = v_slot_id for update;
    if not found then
      continue; -- already gone (e.g. the whole plan is being deleted)
    end if;
    delete from app.time_slots s
     where s.id = v_slot_id
       and not exists (select 1 from app.time_slot_votes v where v.time_slot_id = s.id and v.plan_id = s.plan_id)
       and not exists (select 1 from app.plans p where p.locked_time_slot_id = s.id and p.id = s.plan_id);
  end loop;
end;
$$;
comment on function private.remove_empty_time_slots(uuid[]) is
  'Removes each given slot that has no vote and is not its plan''s locked slot (waits for votes in flight).';
revoke all on function private.remove_empty_time_slots(uuid[]) from public;

-- After any delete of votes (one statement may remove many: a leave, a
-- cascade from a deleted guest), once per statement.
create function private.remove_time_slots_left_empty()
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
revoke all on function private.remove_time_slots_left_empty() from public;

create trigger time_slot_votes_remove_empty_slots
  after delete on app.time_slot_votes
  referencing old table as old_votes
  for each statement execute function private.remove_time_slots_left_empty();

-- -----------------------------------------------------------------------------
-- RLS (same shape as ideas/idea_votes)
-- -----------------------------------------------------------------------------
alter table app.time_slots enable row level security;

create policy time_slots_select_anon on app.time_slots
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy time_slots_select_authenticated on app.time_slots
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
-- Any participant may create a slot (find-or-create on vote-date). No update,
-- no delete: slots live as long as their plan.
create policy time_slots_insert_anon on app.time_slots
  for insert to anon
  with check (plan_id in (select private.my_plan_ids()));
create policy time_slots_insert_authenticated on app.time_slots
  for insert to authenticated
  with check (plan_id in (select private.my_plan_ids()));

alter table app.time_slot_votes enable row level security;

create policy time_slot_votes_select_anon on app.time_slot_votes
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy time_slot_votes_select_authenticated on app.time_slot_votes
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy time_slot_votes_insert_anon on app.time_slot_votes
  for insert to anon
  with check (
    user_id is null
    and guest_id = (select private.claimed_guest_id())
    and plan_id in (select private.my_plan_ids())
  );
create policy time_slot_votes_insert_authenticated on app.time_slot_votes
  for insert to authenticated
  with check (
    guest_id is null
    and user_id = (select auth.uid())
    and plan_id in (select private.my_plan_ids())
  );
create policy time_slot_votes_delete_anon on app.time_slot_votes
  for delete to anon
  using (guest_id = (select private.claimed_guest_id()));
create policy time_slot_votes_delete_authenticated on app.time_slot_votes
  for delete to authenticated
  using (user_id = (select auth.uid()));

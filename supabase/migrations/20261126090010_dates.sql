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
  -- 'yes', or 'ifneedbe' ("if need be": could make it at a push). A vote
  -- without one says yes (spec §7's toggle); docs/decisions/0108-answers-on-dates.md.
  answer       text not null default 'yes',
  created_at   timestamptz not null default now(),

  constraint time_slot_votes_answer_valid check (answer in ('yes', 'ifneedbe')),
  constraint time_slot_votes_time_slot_fkey foreign key (time_slot_id, plan_id)
    references app.time_slots (id, plan_id) on delete cascade,
  constraint time_slot_votes_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint time_slot_votes_one_voter check (num_nonnulls(user_id, guest_id) = 1),
  -- One vote per person and slot (see idea_votes).
  constraint time_slot_votes_time_slot_id_user_id_key unique (time_slot_id, user_id),
  constraint time_slot_votes_time_slot_id_guest_id_key unique (time_slot_id, guest_id)
);
comment on table app.time_slot_votes is 'One row per (slot, voter) with its answer (yes, if need be). Toggled by app.vote_on_time_slot / app.vote_on_date.';

create index time_slot_votes_time_slot_id_plan_id_idx on app.time_slot_votes (time_slot_id, plan_id);
create index time_slot_votes_plan_id_idx on app.time_slot_votes (plan_id);
create index time_slot_votes_user_id_idx on app.time_slot_votes (user_id);
create index time_slot_votes_guest_id_plan_id_idx on app.time_slot_votes (guest_id, plan_id);
grant select on app.time_slots, app.time_slot_votes to anon, authenticated;
grant insert (id, time_slot_id, plan_id, user_id, guest_id, answer), delete on app.time_slot_votes to anon, authenticated;

-- -----------------------------------------------------------------------------
-- "None of these dates work for me"
-- -----------------------------------------------------------------------------
-- docs/decisions/0108-answers-on-dates.md. A participant who can make none of
-- the dates says so (app.set_no_dates, a toggle) instead of staying silent:
-- it counts as an answer (private.has_responded, the reminders file), and the
-- host sees who said it (the participants JSON's noDates). A person has date
-- answers or this, never both: saying it removes the person's date votes, and
-- any date vote removes it (app.vote_on_date, app.vote_on_time_slot). It goes
-- with the participant (a leave, a removal, a guest deleted or transferred).
-- Written only by those rules (definers); read like the votes.
create table app.no_dates (
  participant_id uuid not null,
  plan_id        uuid not null,
  created_at     timestamptz not null default now(),

  constraint no_dates_pkey primary key (participant_id, plan_id),
  constraint no_dates_participant_fkey foreign key (participant_id, plan_id)
    references app.participants (id, plan_id) on delete cascade
);
comment on table app.no_dates is
  'The participants who said none of the plan''s dates work for them (one row each). Toggled by app.set_no_dates; a date vote removes it.';
grant select on app.no_dates to anon, authenticated;

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

-- The toggle with an answer (docs/decisions/0108-answers-on-dates.md): no
-- vote -> insert with the answer; the same answer -> delete; the other answer
-- -> update to it. Delete and update are one statement (their conditions
-- exclude each other), so an answer costs the toggle no statement. The lock
-- is per voter and PLAN, not slot: one person's date votes and "none of these
-- work" (app.set_no_dates) never interleave; different voters never wait.
create function private.toggle_time_slot_vote_of(p_time_slot_id uuid, p_plan_id uuid, p_user_id uuid, p_guest_id uuid, p_answer text)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_answer text;
begin
  perform private.lock_vote(p_plan_id, coalesce(p_user_id, p_guest_id));
  with removed as (
    delete from app.time_slot_votes v
     where v.time_slot_id = p_time_slot_id and (v.user_id = p_user_id or v.guest_id = p_guest_id)
       and v.answer = p_answer
    returning null::text as answer
  ), replaced as (
    update app.time_slot_votes v set answer = p_answer
     where v.time_slot_id = p_time_slot_id and (v.user_id = p_user_id or v.guest_id = p_guest_id)
       and v.answer <> p_answer
    returning v.answer
  )
  select c.answer into v_answer from (select r.answer from removed r union all select r.answer from replaced r) c;
  if found then
    return v_answer;
  end if;
  -- Inserted, or (conflict) the vote appeared meanwhile through a path that
  -- does not take the vote lock: either way it now exists.
  insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id, answer)
  values (p_time_slot_id, p_plan_id, p_user_id, p_guest_id, p_answer)
  on conflict do nothing;
  return p_answer;
end;
$$;
comment on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid, text) is
  'The toggle of a time-slot vote with its answer (per-voter lock; the same answer deletes, the other replaces, none inserts) for a caller already checked; invoker. Returns the answer now, null when the vote was removed.';
revoke all on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid, text) from public;
grant execute on function private.toggle_time_slot_vote_of(uuid, uuid, uuid, uuid, text) to anon, authenticated;

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

-- Both rules take the answer (null: yes) and answer the caller's answer now
-- (null: removed) with the slot's two counts; and both clear the caller's
-- "none of these dates work" in the statement that counts (one person never
-- has both, the no_dates section above).
create function private.vote_on_time_slot(p_time_slot_id uuid, p_answer text)
returns table (voted boolean, vote_count integer, if_need_be_count integer, answer text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := auth.uid();
  v_guest_id uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_answer   text := coalesce(p_answer, 'yes');
  v_plan_id  uuid;
begin
  select s.plan_id into v_plan_id from app.time_slots s where s.id = p_time_slot_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Time slot not found';
  end if;
  if v_answer not in ('yes', 'ifneedbe') then
    raise exception using errcode = 'HP400', message = 'answer must be "yes" or "ifneedbe"';
  end if;
  perform private.ensure_participant(v_plan_id);
  answer := private.toggle_time_slot_vote_of(p_time_slot_id, v_plan_id, v_user_id, v_guest_id, v_answer);
  voted := answer is not null;
  -- A slot whose last vote this was is gone by now (empty slots go): 0.
  with cleared as (
    delete from app.no_dates n
     where n.participant_id = (select pa.id from app.participants pa
                                where pa.plan_id = v_plan_id and (pa.user_id = v_user_id or pa.guest_id = v_guest_id))
  )
  select (count(*) filter (where v.answer = 'yes'))::integer, (count(*) filter (where v.answer = 'ifneedbe'))::integer
    into vote_count, if_need_be_count
    from app.time_slot_votes v where v.time_slot_id = p_time_slot_id and v.plan_id = v_plan_id;
  return next;
end;
$$;
comment on function private.vote_on_time_slot(uuid, text) is
  'app.vote_on_time_slot''s rule, as a definer that checks what the policies would (readable slot, participant voter, the caller''s own vote) once.';
revoke all on function private.vote_on_time_slot(uuid, text) from public;
grant execute on function private.vote_on_time_slot(uuid, text) to anon, authenticated;

create function app.vote_on_time_slot(p_time_slot_id uuid, p_answer text default 'yes')
returns table (voted boolean, vote_count integer, if_need_be_count integer, answer text)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.vote_count, v.if_need_be_count, v.answer from private.vote_on_time_slot(p_time_slot_id, p_answer) v
$$;
comment on function app.vote_on_time_slot(uuid, text) is
  'Toggles the caller''s vote on a time slot with an answer (yes, ifneedbe: the same again removes it, the other replaces it) and answers whether it now exists, the slot''s yes and if-need-be counts and the caller''s answer. HP404 unknown slot, HP403 not a participant, HP400 unknown answer.';
revoke all on function app.vote_on_time_slot(uuid, text) from public;
grant execute on function app.vote_on_time_slot(uuid, text) to anon, authenticated;
create function private.vote_on_date(p_plan_id uuid, p_date date, p_period text, p_answer text)
returns table (voted boolean, time_slot_id uuid, vote_count integer, if_need_be_count integer, answer text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- '' and blanks mean "whole day", like an absent period.
  v_period      text := nullif(btrim(p_period), '');
  v_answer      text := coalesce(p_answer, 'yes');
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
  if v_answer not in ('yes', 'ifneedbe') then
    raise exception using errcode = 'HP400', message = 'answer must be "yes" or "ifneedbe"';
  end if;
  if not v_participant then
    perform private.ensure_participant(p_plan_id);
  end if;

  select s.id into time_slot_id
    from app.time_slots s
   where s.plan_id = p_plan_id and s.date = p_date and s.period is not distinct from v_period;

  if time_slot_id is not null then
    -- private.toggle_time_slot_vote_of, inline.
    perform private.lock_vote(p_plan_id, coalesce(v_user_id, v_guest_id));
    with removed as (
      delete from app.time_slot_votes v
       where v.time_slot_id = vote_on_date.time_slot_id and (v.user_id = v_user_id or v.guest_id = v_guest_id)
         and v.answer = v_answer
      returning null::text as answer
    ), replaced as (
      update app.time_slot_votes v set answer = v_answer
       where v.time_slot_id = vote_on_date.time_slot_id and (v.user_id = v_user_id or v.guest_id = v_guest_id)
         and v.answer <> v_answer
      returning v.answer
    )
    select c.answer into answer from (select r.answer from removed r union all select r.answer from replaced r) c;
    if found then
      voted := answer is not null;
    elsif private.hold_time_slot(time_slot_id) then
      -- Inserted, or (conflict) the vote appeared meanwhile through a path
      -- that does not take the vote lock: either way it now exists.
      insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id, answer)
      values (time_slot_id, p_plan_id, v_user_id, v_guest_id, v_answer)
      on conflict do nothing;
      voted := true;
      answer := v_answer;
    else
      -- Removed by a clean-up since the lookup: created anew below.
      time_slot_id := null;
    end if;
  end if;

  if time_slot_id is null then
    -- Insert first (not look again): a slot being removed makes the insert
    -- wait for the removal and then create the slot anew.
    time_slot_id := private.find_or_create_time_slot(p_plan_id, p_date, v_period);
    answer := private.toggle_time_slot_vote_of(time_slot_id, p_plan_id, v_user_id, v_guest_id, v_answer);
    voted := answer is not null;
  end if;

  with cleared as (
    delete from app.no_dates n
     where n.participant_id = (select pa.id from app.participants pa
                                where pa.plan_id = p_plan_id and (pa.user_id = v_user_id or pa.guest_id = v_guest_id))
  )
  select (count(*) filter (where v.answer = 'yes'))::integer, (count(*) filter (where v.answer = 'ifneedbe'))::integer
    into vote_count, if_need_be_count
    from app.time_slot_votes v where v.time_slot_id = vote_on_date.time_slot_id and v.plan_id = p_plan_id;
  return next;
end;
$$;
comment on function private.vote_on_date(uuid, date, text, text) is
  'app.vote_on_date''s rule, as a definer that checks what the policies would (readable plan, participant voter, the caller''s own vote) once.';
revoke all on function private.vote_on_date(uuid, date, text, text) from public;
grant execute on function private.vote_on_date(uuid, date, text, text) to anon, authenticated;

create function app.vote_on_date(p_plan_id uuid, p_date date, p_period text default null, p_answer text default 'yes')
returns table (voted boolean, time_slot_id uuid, vote_count integer, if_need_be_count integer, answer text)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.time_slot_id, v.vote_count, v.if_need_be_count, v.answer
    from private.vote_on_date(p_plan_id, p_date, p_period, p_answer) v
$$;
comment on function app.vote_on_date(uuid, date, text, text) is
  'The date vote endpoint: finds or creates the slot (plan, date, period; null = whole day), toggles the caller''s vote on it with an answer (yes, ifneedbe), answers (voted, the slot, its yes and if-need-be counts, the caller''s answer). HP400 bad date/period/answer, HP404 unknown plan, HP403 not a participant.';
revoke all on function app.vote_on_date(uuid, date, text, text) from public;
grant execute on function app.vote_on_date(uuid, date, text, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.set_no_dates: "none of these dates work for me", a toggle
-- -----------------------------------------------------------------------------
-- Checked like a date vote (readable plan, 404 else; cancelled 409; a
-- signed-in link holder joins, anyone else who is not a participant 403),
-- and open while a date is locked, as the date votes are. On, it removes the
-- caller's date votes (their slots go if nothing else keeps them); answers
-- whether it is now on.
create function private.set_no_dates(p_plan_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id        uuid := auth.uid();
  v_guest_id       uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_participant_id uuid;
begin
  select pa.id into v_participant_id
    from app.participants pa
   where pa.plan_id = p_plan_id and (pa.user_id = v_user_id or pa.guest_id = v_guest_id);
  if v_participant_id is null
     and not (private.can_read_plan(p_plan_id) and exists (select 1 from app.plans p where p.id = p_plan_id)) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.refuse_cancelled_plan(p_plan_id);
  if v_participant_id is null then
    perform private.ensure_participant(p_plan_id);
    select pa.id into v_participant_id from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id;
  end if;

  -- The date votes' lock (private.toggle_time_slot_vote_of): per voter and plan.
  perform private.lock_vote(p_plan_id, coalesce(v_user_id, v_guest_id));
  delete from app.no_dates n where n.participant_id = v_participant_id and n.plan_id = p_plan_id;
  if found then
    return false;
  end if;
  insert into app.no_dates (participant_id, plan_id) values (v_participant_id, p_plan_id) on conflict do nothing;
  delete from app.time_slot_votes v where v.plan_id = p_plan_id and (v.user_id = v_user_id or v.guest_id = v_guest_id);
  return true;
end;
$$;
comment on function private.set_no_dates(uuid) is
  'app.set_no_dates''s rule, as a definer that checks the caller once (readable plan, participant or joined, not cancelled).';
revoke all on function private.set_no_dates(uuid) from public;
grant execute on function private.set_no_dates(uuid) to anon, authenticated;

create function app.set_no_dates(p_plan_id uuid)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select private.set_no_dates(p_plan_id)
$$;
comment on function app.set_no_dates(uuid) is
  'Toggles the caller''s "none of these dates work for me" (on: the caller''s date votes go); answers whether it is now on. HP404 unknown plan, HP403 not a participant, HP409 cancelled.';
revoke all on function app.set_no_dates(uuid) from public;
grant execute on function app.set_no_dates(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The one ranking of a plan's dates
-- -----------------------------------------------------------------------------
-- docs/decisions/0108-answers-on-dates.md. The dates from today on that have
-- an answer, placed by: most people with yes on any slot of the date, then
-- most people with "if need be" on it (and no yes), then the earliest. Place
-- 1 leads. private.vote_leaders (the deadline's automatic lock, the host's
-- notice at the deadline) and the timeslots JSON's `leading` (the host's
-- hint on Pick Date) read it; nothing else ranks dates. Invoker: a request
-- sees only the votes its policies show.
create function private.date_ranking(p_plan_id uuid)
returns table (date date, yes_votes integer, if_need_be_votes integer, place integer)
language sql
stable
set search_path = ''
as $$
  select d.date, d.yes_votes, d.voters - d.yes_votes,
         (row_number() over (order by d.yes_votes desc, d.voters - d.yes_votes desc, d.date))::integer
    from (select ts.date,
                 (count(distinct coalesce(v.user_id, v.guest_id)) filter (where v.answer = 'yes'))::integer as yes_votes,
                 count(distinct coalesce(v.user_id, v.guest_id))::integer as voters
            from app.time_slots ts
            join app.time_slot_votes v on v.time_slot_id = ts.id and v.plan_id = ts.plan_id
           where ts.plan_id = p_plan_id and ts.date >= current_date
           group by ts.date) d
$$;
comment on function private.date_ranking(uuid) is
  'The plan''s dates from today on with answers, placed (1 leads) by most yes, then most if need be (people with no yes that day), then earliest.';
revoke all on function private.date_ranking(uuid) from public;
grant execute on function private.date_ranking(uuid) to anon, authenticated;

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

-- "None of these dates work": read like the votes; written only by the rules.
alter table app.no_dates enable row level security;

create policy no_dates_select_anon on app.no_dates
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy no_dates_select_authenticated on app.no_dates
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));

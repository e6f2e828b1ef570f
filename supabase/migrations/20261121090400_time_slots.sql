-- =============================================================================
-- Time slots (plan, date, period) and their votes.
-- =============================================================================
--
-- `date` is a calendar date with no time zone: the group's local day, exactly
-- what the client picked (decisions.md). `period` is a named part of the day,
-- a 24-hour clock time 'H:mm' (created by the host's event time), or null for
-- the whole day.

create table app.time_slots (
  id         uuid primary key default gen_random_uuid(),
  plan_id    uuid not null references app.plans (id) on delete cascade,
  date       date not null,
  period     text,
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
comment on table app.time_slot_votes is 'One row per (slot, voter). Toggled by app.toggle_time_slot_vote / app.vote_date.';

create index time_slot_votes_time_slot_id_plan_id_idx on app.time_slot_votes (time_slot_id, plan_id);
create index time_slot_votes_plan_id_idx on app.time_slot_votes (plan_id);
create index time_slot_votes_user_id_idx on app.time_slot_votes (user_id);
create index time_slot_votes_guest_id_plan_id_idx on app.time_slot_votes (guest_id, plan_id);

create or replace function private.plan_id_of_time_slot(p_time_slot_id uuid)
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

grant select on app.time_slots, app.time_slot_votes to anon, authenticated;
grant insert (id, plan_id, date, period) on app.time_slots to anon, authenticated;
grant insert (id, time_slot_id, plan_id, user_id, guest_id), delete on app.time_slot_votes to anon, authenticated;

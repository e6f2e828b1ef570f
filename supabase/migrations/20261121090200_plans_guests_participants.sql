-- =============================================================================
-- Plans, guests, participants, and the membership helpers RLS is built on.
-- =============================================================================
--
-- Who may read a plan: whoever holds its link. The API proves "holds the link"
-- by putting the plan id (claim plan_id) or slug (claim plan_slug) that the URL
-- names into the request's claims. Without such a claim one sees only the
-- plans one takes part in (or hosts), so plans cannot be listed or searched.
--
-- Who may write: participants, i.e. a signed-in member (participants.user_id =
-- auth.uid()) or a guest of the plan (participants.guest_id = claim guest_id).

-- -----------------------------------------------------------------------------
-- app.plans
-- -----------------------------------------------------------------------------
create table app.plans (
  id                    uuid primary key default gen_random_uuid(),
  -- The public link /l/{slug}. Random and unguessable (the link is the only
  -- "secret" of a plan): by default 12 base64url characters of a fresh v4 uuid
  -- (~68 random bits), built from built-ins only (no pgcrypto). The API may pass
  -- its own slug instead; the check keeps it URL-safe and long enough.
  slug                  text not null
                          default rtrim(substr(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), 1, 12), '='),
  title                 text not null,
  description           text,
  is_open_invite        boolean not null default true,
  status                text not null default 'planning',
  -- restrict: an account that hosts plans cannot silently orphan them.
  host_id               uuid not null references app.users (id) on delete restrict,
  location              text,
  event_time            text,
  locked_idea_id        uuid,   -- FK added with app.ideas (next migration)
  locked_time_slot_id   uuid,   -- FK added with app.time_slots
  locked_time_slot_date date,
  created_at            timestamptz not null default now(),
  updated_at            timestamptz not null default now(),

  constraint plans_slug_key unique (slug),
  constraint plans_slug_format check (slug ~ '^[A-Za-z0-9_-]{8,64}$'),
  -- Text limits of decisions.md, measured after trimming (the API trims; the
  -- database refuses what slipped through, the API maps 23514 to 400).
  constraint plans_title_length check (char_length(btrim(title)) between 1 and 120),
  constraint plans_description_length check (description is null or char_length(btrim(description)) <= 2000),
  constraint plans_location_length check (location is null or char_length(btrim(location)) <= 500),
  -- date_locked is a legacy reading of the same state as time_range_locked: it
  -- is accepted (never written by our rules) so old data stays valid.
  constraint plans_status_valid check (status in ('planning', 'time_range_locked', 'date_locked', 'completed')),
  -- event_time is the 12-hour text the client shows, e.g. '7:00 PM'.
  constraint plans_event_time_format check (event_time is null or event_time ~ '^(1[0-2]|[1-9]):[0-5][0-9] (AM|PM)$'),
  -- The lock flow's invariants (see app.lock_date / app.set_event_time):
  constraint plans_locked_status_has_date check (
    status = 'planning' or locked_time_slot_date is not null),
  constraint plans_completed_has_time check (
    status <> 'completed' or (locked_time_slot_id is not null and event_time is not null))
);
comment on table app.plans is
  'A gathering. Readable by link holders (claim plan_id/plan_slug) and participants; written by its host.';

create index plans_host_id_idx on app.plans (host_id);

create trigger plans_set_updated_at
  before update on app.plans
  for each row execute function private.set_updated_at();

-- -----------------------------------------------------------------------------
-- app.guests
-- -----------------------------------------------------------------------------
create table app.guests (
  id         uuid primary key default gen_random_uuid(),
  plan_id    uuid not null references app.plans (id) on delete cascade,
  name       text not null,
  -- Guest names are unique within a plan, compared trimmed and
  -- case-insensitively (decisions.md). A generated key + unique constraint
  -- makes that race-free: two parallel "Alice" joins cannot both succeed, the
  -- loser gets 23505 which the API answers with 409.
  name_key   text generated always as (lower(btrim(name))) stored,
  created_at timestamptz not null default now(),

  constraint guests_name_length check (char_length(btrim(name)) between 1 and 80),
  constraint guests_plan_id_name_key_key unique (plan_id, name_key),
  -- Target of composite FKs (guest_id, plan_id): a row that names a guest
  -- must name a guest OF THE SAME PLAN, enforced by the database.
  constraint guests_id_plan_id_key unique (id, plan_id)
);
comment on table app.guests is
  'People who joined a plan with only a name. Their id (kept on their device) is their credential (claim guest_id).';

-- -----------------------------------------------------------------------------
-- app.participants
-- -----------------------------------------------------------------------------
create table app.participants (
  id        uuid primary key default gen_random_uuid(),
  plan_id   uuid not null references app.plans (id) on delete cascade,
  user_id   uuid references app.users (id) on delete cascade,
  guest_id  uuid,
  -- Set by trigger from the user's display name / the guest's name, so that it
  -- is always right whatever the caller sends.
  name      text not null,
  joined_at timestamptz not null default now(),

  constraint participants_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint participants_one_identity check (num_nonnulls(user_id, guest_id) = 1),
  -- 254: a display name can be a whole e-mail local part (e-mails are <= 254).
  constraint participants_name_length check (char_length(name) between 1 and 254),
  -- No double joins (the API inserts with `on conflict do nothing`).
  constraint participants_plan_id_user_id_key unique (plan_id, user_id),
  constraint participants_guest_id_plan_id_key unique (guest_id, plan_id)
);
comment on table app.participants is
  'Who takes part in a plan: members (user_id) and guests (guest_id). The host is always one of them.';

-- "My plans" (GET /api/plans) and private.my_plan_ids() look up by user_id.
create index participants_user_id_idx on app.participants (user_id);

-- -----------------------------------------------------------------------------
-- Membership helpers (SECURITY DEFINER)
-- -----------------------------------------------------------------------------
-- Why definer: the policies of app.participants (and of every table that asks
-- "is the caller a participant?") must read app.participants. An invoker
-- helper would re-enter the participants policies and recurse forever. These
-- helpers only ever answer about the CALLER (auth.uid() / claim guest_id), so
-- bypassing RLS inside them reveals nothing about others. They live in
-- `private` (not exposed) with `search_path = ''`.

-- The plans the caller takes part in or hosts. Policies use it as
-- `plan_id in (select private.my_plan_ids())`: an uncorrelated sub-select that
-- PostgreSQL evaluates once per statement (hashed subplan), instead of a
-- function call per row.
create function private.my_plan_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
rows 10
as $$
  select pa.plan_id from app.participants pa
   where pa.user_id = (select auth.uid())
  union
  select pa.plan_id from app.participants pa
   where pa.guest_id = (select private.claimed_guest_id())
  union
  select p.id from app.plans p
   where p.host_id = (select auth.uid())
$$;
comment on function private.my_plan_ids() is
  'Ids of the plans the caller (auth.uid() or claim guest_id) participates in or hosts.';

create function private.is_participant(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from app.participants pa
     where pa.plan_id = p_plan_id
       and (pa.user_id = (select auth.uid())
            or pa.guest_id = (select private.claimed_guest_id()))
  )
$$;
comment on function private.is_participant(uuid) is
  'True when the caller (auth.uid() or claim guest_id) has a participants row in the plan.';

create function private.is_host(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from app.plans p
     where p.id = p_plan_id and p.host_id = (select auth.uid())
  )
$$;
comment on function private.is_host(uuid) is 'True when the signed-in caller hosts the plan.';

create function private.can_read_plan(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  -- coalesce: without a plan_id claim the comparison is NULL, and NULL must
  -- mean "no" here (callers write `if not private.can_read_plan(...)`).
  select coalesce(p_plan_id = (select private.claimed_plan_id()), false)
      or coalesce(p_plan_id in (select private.my_plan_ids()), false)
$$;
comment on function private.can_read_plan(uuid) is
  'True when the request names the plan (claim plan_id) or the caller participates in / hosts it.';

-- Resolve the plan of an idea / time slot for the plan_id claim of
-- /api/ideas/{id}/... and /api/timeslots/{id}/... (null for unknown ids).
-- Definer: at that moment the request has no claim that would let it read the
-- row; the answer (a plan id for an id the caller already holds) is no secret.
create function private.plan_id_of_idea(p_idea_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select null::uuid  -- replaced once app.ideas exists (next migration)
$$;

create function private.plan_id_of_time_slot(p_time_slot_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select null::uuid  -- replaced once app.time_slots exists
$$;

revoke all on function private.my_plan_ids() from public;
revoke all on function private.is_participant(uuid) from public;
revoke all on function private.is_host(uuid) from public;
revoke all on function private.can_read_plan(uuid) from public;
revoke all on function private.plan_id_of_idea(uuid) from public;
revoke all on function private.plan_id_of_time_slot(uuid) from public;
grant execute on function private.my_plan_ids() to anon, authenticated;
grant execute on function private.is_participant(uuid) to anon, authenticated;
grant execute on function private.is_host(uuid) to anon, authenticated;
grant execute on function private.can_read_plan(uuid) to anon, authenticated;
grant execute on function private.plan_id_of_idea(uuid) to anon, authenticated;
grant execute on function private.plan_id_of_time_slot(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Triggers keeping names right and the host a member
-- -----------------------------------------------------------------------------

-- participants.name is derived, never trusted from the caller: a member's
-- display name (spec §3), a guest's guest name. Definer: a guest's insert must
-- read app.guests / a member's insert app.users whatever the caller's RLS
-- allows; it reads only the row being joined.
create function private.participants_set_name()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.user_id is not null then
    select private.display_name(u.first_name, u.last_name, u.email)
      into new.name
      from app.users u where u.id = new.user_id;
  elsif new.guest_id is not null then
    select btrim(g.name) into new.name from app.guests g where g.id = new.guest_id;
  end if;
  return new;
end;
$$;
revoke all on function private.participants_set_name() from public;

create trigger participants_set_name
  before insert or update of user_id, guest_id on app.participants
  for each row execute function private.participants_set_name();

-- A member's participants.name follows profile edits. Definer: the user has no
-- UPDATE on app.participants (nobody does), this trigger is the only writer.
create function private.users_sync_participant_names()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update app.participants pa
     set name = private.display_name(new.first_name, new.last_name, new.email)
   where pa.user_id = new.id
     and pa.name is distinct from private.display_name(new.first_name, new.last_name, new.email);
  return null;
end;
$$;
revoke all on function private.users_sync_participant_names() from public;

create trigger users_sync_participant_names
  after update of first_name, last_name, email on app.users
  for each row execute function private.users_sync_participant_names();

-- The host must stay a participant: deleting the host's own participants row
-- (directly, not through app.leave_plan which hands the plan over first) is
-- refused. When the whole plan is being deleted the plan row is already gone,
-- so the cascade passes. Definer: reads app.plans whatever the caller sees.
create function private.participants_protect_host()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.user_id is not null and exists (
       select 1 from app.plans p where p.id = old.plan_id and p.host_id = old.user_id) then
    raise exception using errcode = 'HP409',
      message = 'The host cannot leave without handing the plan over';
  end if;
  return old;
end;
$$;
revoke all on function private.participants_protect_host() from public;

create trigger participants_protect_host
  before delete on app.participants
  for each row execute function private.participants_protect_host();

-- And the other direction: host_id may only move to a member (a participant
-- with an account) of the plan. Definer for the same reason as above.
create function private.plans_check_new_host()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
       select 1 from app.participants pa
        where pa.plan_id = new.id and pa.user_id = new.host_id) then
    raise exception using errcode = 'HP409',
      message = 'The new host must be a member of the plan';
  end if;
  return new;
end;
$$;
revoke all on function private.plans_check_new_host() from public;

create trigger plans_check_new_host
  before update of host_id on app.plans
  for each row
  when (new.host_id is distinct from old.host_id)
  execute function private.plans_check_new_host();

-- -----------------------------------------------------------------------------
-- RLS: plans
-- -----------------------------------------------------------------------------
alter table app.plans enable row level security;

create policy plans_select_anon on app.plans
  for select to anon
  using (
    id = (select private.claimed_plan_id())
    or slug = (select private.claimed_plan_slug())
    or id in (select private.my_plan_ids())
  );

-- The host clause lets `insert ... returning` work before the creator's
-- participants row exists (RETURNING needs the new row to be selectable).
create policy plans_select_authenticated on app.plans
  for select to authenticated
  using (
    id = (select private.claimed_plan_id())
    or slug = (select private.claimed_plan_slug())
    or host_id = (select auth.uid())
    or id in (select private.my_plan_ids())
  );

-- A new plan starts in the planning state with nothing locked.
create policy plans_insert_authenticated on app.plans
  for insert to authenticated
  with check (
    host_id = (select auth.uid())
    and status = 'planning'
    and locked_idea_id is null
    and locked_time_slot_id is null
    and locked_time_slot_date is null
    and event_time is null
  );

-- Only the host edits. The new row may name another host (hand-over in
-- app.leave_plan); the trigger plans_check_new_host makes sure that one is a
-- member of the plan.
create policy plans_update_host on app.plans
  for update to authenticated
  using (host_id = (select auth.uid()))
  with check (
    host_id = (select auth.uid())
    -- (qualified: inside the sub-select a bare `id` would be participants.id)
    or host_id in (select pa.user_id from app.participants pa where pa.plan_id = plans.id)
  );

create policy plans_delete_host on app.plans
  for delete to authenticated
  using (host_id = (select auth.uid()));

grant select on app.plans to anon, authenticated;
grant insert, delete on app.plans to authenticated;
-- id, slug and timestamps are not editable.
grant update (title, description, is_open_invite, status, host_id, location, event_time,
              locked_idea_id, locked_time_slot_id, locked_time_slot_date)
  on app.plans to authenticated;

-- -----------------------------------------------------------------------------
-- RLS: guests
-- -----------------------------------------------------------------------------
alter table app.guests enable row level security;

-- Link holders and participants see a plan's guests (check-guest, voters).
-- A guest also sees itself by its own id: GET /api/guest-session/{guestId}
-- names no plan.
create policy guests_select_anon on app.guests
  for select to anon
  using (
    plan_id = (select private.claimed_plan_id())
    or id = (select private.claimed_guest_id())
    or plan_id in (select private.my_plan_ids())
  );

create policy guests_select_authenticated on app.guests
  for select to authenticated
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

-- POST /api/guest-session {name, planId}: anon, into the plan the request names.
create policy guests_insert_anon on app.guests
  for insert to anon
  with check (plan_id = (select private.claimed_plan_id()));

-- A guest leaving its plan (app.leave_plan) removes itself.
create policy guests_delete_self on app.guests
  for delete to anon
  using (id = (select private.claimed_guest_id()));

grant select on app.guests to anon, authenticated;
grant insert (id, plan_id, name), delete on app.guests to anon;

-- -----------------------------------------------------------------------------
-- RLS: participants
-- -----------------------------------------------------------------------------
alter table app.participants enable row level security;

create policy participants_select_anon on app.participants
  for select to anon
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

create policy participants_select_authenticated on app.participants
  for select to authenticated
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

-- A guest joins the plan the request names (right after POST guest-session
-- created it). The composite FK (guest_id, plan_id) guarantees the guest is of
-- that plan; the unique constraint prevents a second row.
create policy participants_insert_anon on app.participants
  for insert to anon
  with check (
    user_id is null
    and guest_id is not null
    and plan_id = (select private.claimed_plan_id())
  );

-- A signed-in user joins itself to a plan it can read (holds the link) or
-- hosts (right after creating it).
create policy participants_insert_authenticated on app.participants
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and guest_id is null
    and (plan_id = (select private.claimed_plan_id())
         or plan_id in (select private.my_plan_ids()))
  );

-- Leaving: only one's own row (the host's row is protected by trigger).
create policy participants_delete_anon on app.participants
  for delete to anon
  using (guest_id = (select private.claimed_guest_id()));

create policy participants_delete_authenticated on app.participants
  for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, delete on app.participants to anon, authenticated;
-- Not joined_at: an earlier join time would jump the queue for the host
-- hand-over. name is listed because the API may send one; the trigger
-- overwrites it.
grant insert (id, plan_id, user_id, guest_id, name) on app.participants to anon, authenticated;

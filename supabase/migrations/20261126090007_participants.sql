-- =============================================================================
-- Domain: participants. Who is in a plan: app.participants, the membership
-- helpers every policy is built on (and so the row security of plans and
-- guests as well as participants), the name and host triggers, leaving a
-- plan (with the host hand-over) and joining on a first write. The host's
-- removal of someone is the participant_removals file's.
-- =============================================================================

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
  -- A co-host runs the plan with the host (private.is_plan_manager,
  -- docs/decisions/0098-cohosts.md): set and cleared only by the host
  -- (private.set_cohost); a member only, since a guest's id is no account.
  is_cohost boolean not null default false,

  constraint participants_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint participants_one_identity check (num_nonnulls(user_id, guest_id) = 1),
  constraint participants_cohost_is_member check (not is_cohost or user_id is not null),
  -- 254: a display name can be a whole e-mail local part (e-mails are <= 254).
  constraint participants_name_length check (char_length(name) between 1 and 254),
  -- No double joins (the API inserts with `on conflict do nothing`).
  constraint participants_plan_id_user_id_key unique (plan_id, user_id),
  constraint participants_guest_id_plan_id_key unique (guest_id, plan_id),
  -- Target of the composite FK from app.rsvps (an answer cannot point into another plan).
  constraint participants_id_plan_id_key unique (id, plan_id)
);
comment on table app.participants is
  'Who takes part in a plan: members (user_id) and guests (guest_id). The host is always one of them.';

-- "My plans" (GET /api/plans) and private.my_plan_ids() look up by user_id.
create index participants_user_id_idx on app.participants (user_id);

grant select, delete on app.participants to anon, authenticated;
-- Not joined_at: an earlier join time would jump the queue for the host
-- hand-over. name is listed because the API may send one; the trigger
-- overwrites it.
grant insert (id, plan_id, user_id, guest_id, name) on app.participants to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Membership helpers (SECURITY DEFINER)
-- -----------------------------------------------------------------------------
-- Why definer: the policies of app.participants (and of every table that asks
-- "is the caller a participant?") must read app.participants; an invoker
-- helper would re-enter those policies forever. They answer only about the
-- CALLER (auth.uid() / claim guest_id), so bypassing RLS reveals nothing;
-- is_participant_as, for a definer that read the caller once, has no grant.
-- Two EXISTS, not "user_id = me or guest_id = me": each is one lookup on its
-- unique key, (plan_id, user_id) or (guest_id, plan_id).
create function private.is_participant_as(p_plan_id uuid, p_user_id uuid, p_guest_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (p_user_id is not null and exists (
           select 1 from app.participants pa
            where pa.plan_id = p_plan_id and pa.user_id = p_user_id))
      or (p_guest_id is not null and exists (
           select 1 from app.participants pa
            where pa.guest_id = p_guest_id and pa.plan_id = p_plan_id))
$$;
comment on function private.is_participant_as(uuid, uuid, uuid) is
  'True when the user or the guest given has a participants row in the plan (for definers that read the caller once).';
revoke all on function private.is_participant_as(uuid, uuid, uuid) from public;

create function private.is_participant(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_participant_as(p_plan_id, (select auth.uid()), (select private.claimed_guest_id()))
$$;
comment on function private.is_participant(uuid) is
  'True when the caller (auth.uid() or claim guest_id) has a participants row in the plan.';
revoke all on function private.is_participant(uuid) from public;
grant execute on function private.is_participant(uuid) to anon, authenticated;

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

revoke all on function private.my_plan_ids() from public;
grant execute on function private.my_plan_ids() to anon, authenticated;

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
revoke all on function private.can_read_plan(uuid) from public;
grant execute on function private.can_read_plan(uuid) to anon, authenticated;

-- Whether the caller runs the plan: its host, or a member the host made a
-- co-host (docs/decisions/0098-cohosts.md). The one check of every host
-- action: the plans UPDATE policy, private.plan_for_host (the lock file) and
-- private.require_plan_host (the plans file). What stays the host's alone
-- (deleting the plan, handing it over, choosing co-hosts, resetting the
-- link) asks plans.host_id itself. Two lookups by key: the plan by id, the
-- caller's row by (plan_id, user_id).
create function private.is_plan_manager(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from app.plans p where p.id = p_plan_id and p.host_id = (select auth.uid()))
      or exists (select 1 from app.participants pa
                  where pa.plan_id = p_plan_id and pa.user_id = (select auth.uid()) and pa.is_cohost)
$$;
comment on function private.is_plan_manager(uuid) is
  'True when the caller hosts the plan or is one of its co-hosts (docs/decisions/0098-cohosts.md).';
revoke all on function private.is_plan_manager(uuid) from public;
grant execute on function private.is_plan_manager(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The participant count of a plan read by its slug
-- -----------------------------------------------------------------------------
-- Every plan JSON carries participantCount (docs/api.md "Plans"). A caller
-- who holds only the slug (GET /api/plans/slug/{slug}, claim plan_slug) may
-- read the plan row (plans_select_* policies) but not its participants rows:
-- those policies know only the plan_id claim, on purpose (the slug claim is
-- for this one read). Counting through RLS would answer 0 there.
--
-- private.plan_participant_count answers the count for a plan the caller can
-- read by any means (claim plan_id, claim plan_slug of that plan, host, or
-- participant), and null for any other plan, so it reveals nothing that the
-- caller could not read anyway (the plan JSON, including its id, is readable
-- by the same caller, and with the id the participants are readable too).
--
-- SECURITY DEFINER: it must count rows the participants policies hide from a
-- slug-only caller. It reads nothing but the count, about the plan it is
-- asked for, after the readability check. search_path = '' and qualified names.
create function private.plan_participant_count(p_plan_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case
           when exists (
                  select 1 from app.plans p
                   where p.id = p_plan_id
                     and (p.id = (select private.claimed_plan_id())
                          or p.slug = (select private.claimed_plan_slug())
                          or p.host_id = (select auth.uid())))
             or private.is_participant(p_plan_id)
           then (select count(*)::integer from app.participants pa where pa.plan_id = p_plan_id)
         end
$$;
comment on function private.plan_participant_count(uuid) is
  'Number of participants of a plan the caller can read (claim plan_id/plan_slug, host, participant); null otherwise.';

revoke all on function private.plan_participant_count(uuid) from public;
grant execute on function private.plan_participant_count(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- RLS: plans
-- -----------------------------------------------------------------------------
-- The row security of app.plans and app.guests is here rather than in their
-- own files: it is built on the membership helpers above, which read
-- app.participants, and PostgreSQL needs both before a policy can name them.
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

-- The host and its co-hosts edit (private.is_plan_manager). The new row may
-- name another host (hand-over in app.leave_plan); the trigger
-- plans_check_new_host makes sure that one is a member of the plan and that
-- only the host hands it over (a co-host runs the plan, it does not take it:
-- docs/decisions/0098-cohosts.md).
create policy plans_update_manager on app.plans
  for update to authenticated
  using (private.is_plan_manager(id))
  with check (
    host_id = (select auth.uid())
    -- (qualified: inside the sub-select a bare `id` would be participants.id)
    or host_id in (select pa.user_id from app.participants pa where pa.plan_id = plans.id)
  );

create policy plans_delete_host on app.plans
  for delete to authenticated
  using (host_id = (select auth.uid()));

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
  with check (plan_id = (select private.claimed_plan_id()) and private.may_join_plan(plan_id));

-- A guest leaving its plan (app.leave_plan) removes itself.
create policy guests_delete_self on app.guests
  for delete to anon
  using (id = (select private.claimed_guest_id()));

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

-- A signed-in user joins itself to a plan it can read (holds the link) or
-- hosts (right after creating it); with closed invitations only by the
-- plan's slug (private.may_join_plan).
create policy participants_insert_authenticated on app.participants
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and guest_id is null
    and (plan_id = (select private.claimed_plan_id())
         or plan_id in (select private.my_plan_ids()))
    and private.may_join_plan(plan_id)
  );

-- Leaving: only one's own row (the host's row is protected by trigger).
create policy participants_delete_anon on app.participants
  for delete to anon
  using (guest_id = (select private.claimed_guest_id()));

create policy participants_delete_authenticated on app.participants
  for delete to authenticated
  using (user_id = (select auth.uid()));

create policy participants_insert_anon on app.participants
  for insert to anon
  with check (
    user_id is null
    and guest_id is not null
    and plan_id = (select private.claimed_plan_id())
    and private.may_join_as_guest(guest_id)
  );

-- -----------------------------------------------------------------------------
-- Triggers keeping names right and the host a member
-- -----------------------------------------------------------------------------

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

-- -----------------------------------------------------------------------------
-- Leaving a plan (with host hand-over)
-- -----------------------------------------------------------------------------

-- Both rules change "who is in the plan". They serialise per plan on a
-- transaction-scoped advisory lock, so e.g. the last two participants leaving
-- at the same moment cannot both see "someone else is still here" and leave
-- an empty plan behind. (pg_advisory_xact_lock is callable by any role and is
-- released at commit/rollback.)
create function private.lock_plan_membership(p_plan_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('hangplan.plan_membership:' || p_plan_id::text, 0))
$$;
revoke all on function private.lock_plan_membership(uuid) from public;
grant execute on function private.lock_plan_membership(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Co-hosts: the host chooses them (docs/decisions/0098-cohosts.md)
-- -----------------------------------------------------------------------------
-- POST/DELETE /api/plans/{id}/cohosts: the host makes a member a co-host or
-- an ordinary participant again. Definer (nobody has UPDATE on app.participants),
-- checking once: readable plan (HP404), the caller hosts it (HP403: a co-host
-- does not choose co-hosts), the participant is of this plan (HP404), a
-- member (HP409: a guest has no account to run a plan with) and not the host
-- (HP409). On the membership lock, like removal and leaving. Answers the row.
create function private.set_cohost(p_plan_id uuid, p_participant_id uuid, p_is_cohost boolean)
returns app.participants
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_target app.participants;
begin
  perform private.lock_plan_membership(p_plan_id);
  if private.require_plan_host(p_plan_id, 'Only the host can choose co-hosts') is distinct from (select auth.uid()) then
    raise exception using errcode = 'HP403', message = 'Only the host can choose co-hosts';
  end if;
  select * into v_target from app.participants pa where pa.id = p_participant_id and pa.plan_id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'This person is not in the plan';
  elsif v_target.guest_id is not null then
    raise exception using errcode = 'HP409', message = 'A guest can''t be a co-host; ask them to sign in first.';
  elsif v_target.user_id = (select auth.uid()) then
    raise exception using errcode = 'HP409', message = 'You host this plan already';
  end if;
  update app.participants pa set is_cohost = p_is_cohost where pa.id = p_participant_id returning * into v_target;
  return v_target;
end;
$$;
comment on function private.set_cohost(uuid, uuid, boolean) is
  'The host makes a member of the plan a co-host (or not). HP404 plan/participant, HP403 not the host, HP409 a guest or the host.';
revoke all on function private.set_cohost(uuid, uuid, boolean) from public;
grant execute on function private.set_cohost(uuid, uuid, boolean) to authenticated;

-- -----------------------------------------------------------------------------
-- Who hosts next: the earliest-joined co-host, else member with an account
-- -----------------------------------------------------------------------------
-- When the host leaves (app.leave_plan) or deletes the account
-- (private.delete_account): the earliest-joined (joined_at, id) co-host, the
-- one the host chose to run the plan (docs/decisions/0098-cohosts.md), else
-- participant with an account, other than p_leaving; null when only guests
-- would remain.
create function private.next_host(p_plan_id uuid, p_leaving uuid)
returns uuid
language sql
stable
set search_path = ''
as $$
  select pa.user_id
    from app.participants pa
   where pa.plan_id = p_plan_id
     and pa.user_id is not null
     and pa.user_id <> p_leaving
   order by pa.is_cohost desc, pa.joined_at, pa.id
   limit 1
$$;
comment on function private.next_host(uuid, uuid) is
  'The member who hosts the plan once p_leaving is gone: the earliest-joined other co-host, else participant with an account, or null.';
revoke all on function private.next_host(uuid, uuid) from public;
grant execute on function private.next_host(uuid, uuid) to authenticated;

-- -----------------------------------------------------------------------------
-- app.leave_plan -> planDeleted
-- -----------------------------------------------------------------------------
-- docs/api.md "Leaving and deleting": the last participant leaving deletes the plan. A host who
-- leaves hands the host role to the earliest-joined remaining member with an
-- account; if only guests would remain: HP409.
-- Also: the leaver's votes in the plan are removed (someone who left is no
-- longer part of the group's decision); ideas and comments they wrote stay,
-- signed with their name. A guest who leaves is deleted altogether (its id is
-- its only credential and is of no use outside this plan).
--
-- SECURITY INVOKER: every write is one the caller's RLS allows (own votes, own
-- participants row / own guest, host hands over to a member and deletes its
-- own plan). The protect-host and new-host triggers of app.participants /
-- app.plans keep the invariants even for direct writes.
create function app.leave_plan(p_plan_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id     uuid := auth.uid();
  v_guest_id    uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_plan        app.plans;
  v_me          app.participants;
  v_others      integer;
  v_next_host   uuid;
begin
  -- Lock first, read after: a leaver that waited for a parallel leaver must
  -- see who hosts NOW (it may just have been handed the plan).
  perform private.lock_plan_membership(p_plan_id);

  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;

  select * into v_me from app.participants pa
   where pa.plan_id = p_plan_id
     and ((v_user_id is not null and pa.user_id = v_user_id)
          or (v_guest_id is not null and pa.guest_id = v_guest_id));
  if not found then
    raise exception using errcode = 'HP403', message = 'You are not a participant of this plan';
  end if;
  if v_guest_id is not null then
    -- Leaving deletes the guest: not from a device that only knew its name.
    perform private.require_joining_device(v_guest_id);
  end if;

  select count(*) into v_others
    from app.participants pa
   where pa.plan_id = p_plan_id and pa.id <> v_me.id;

  if v_others = 0 then
    -- Last one out. The host is always a participant, so this is the host,
    -- whom the delete policy allows. Everything cascades.
    delete from app.plans p where p.id = p_plan_id;
    if not found then
      raise exception using errcode = 'HP403', message = 'Only the host can delete the plan';
    end if;
    return true;
  end if;

  if v_plan.host_id = v_user_id then
    v_next_host := private.next_host(p_plan_id, v_user_id);
    if v_next_host is null then
      raise exception using errcode = 'HP409',
        message = 'Delete the plan instead: no one else with an account can host it';
    end if;
    update app.plans p set host_id = v_next_host where p.id = p_plan_id;
  end if;

  if v_user_id is not null then
    delete from app.idea_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.time_slot_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.participants pa where pa.id = v_me.id;
  else
    -- Cascades to the participants row and the guest's votes.
    delete from app.guests g where g.id = v_guest_id;
  end if;
  return false;
end;
$$;
comment on function app.leave_plan(uuid) is
  'Removes the caller (and its votes) from the plan; returns true when it was the last one and the plan was deleted. A leaving host hands over to the earliest-joined member, else HP409.';

revoke all on function app.leave_plan(uuid) from public;
grant execute on function app.leave_plan(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Who may write in a plan: the checks every idea, comment and vote rule makes
-- -----------------------------------------------------------------------------
-- A signed-in user who is not yet a participant is joined on first write
-- (docs/api.md "Plans"); a guest must be a guest OF THIS plan. The rules
-- that write ideas, comments and votes are PL/pgSQL functions because of
-- that join: inside one plain statement the insert's policy could not see the
-- participants row the same statement just added, while each statement of a
-- function takes a new snapshot and does.
--
-- SECURITY INVOKER: the join is an insert the caller's own RLS allows (it can
-- read the plan), so these add rules and readable errors and grant nothing.
-- HP401 is not in the shared HP4xx mapping of _shared/http/errors.ts; the idea
-- routes map it to 401 themselves.

-- For ideas and comments: HP401 p_denied for no identity (or a guest without
-- its row), HP403 'This guest belongs to another plan', HP401 'Your session
-- has expired...' for a token whose account no longer exists. A member who is
-- already a participant (nearly every write) is found by one lookup; only a
-- first write inserts.
create function private.ensure_writer(p_plan_id uuid, p_denied text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id    uuid := auth.uid();
  v_guest_id   uuid;
  v_guest_plan uuid;
begin
  -- Nothing is written on a cancelled plan (docs/decisions/0100-cancelling-a-plan.md).
  perform private.refuse_cancelled_plan(p_plan_id);
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
    -- Joined on first write, unless invitations are closed (the plan's id is
    -- not its link); the name is derived by trigger (participants_set_name).
    perform private.require_plan_link(p_plan_id);
    insert into app.participants (plan_id, user_id, name)
    values (p_plan_id, v_user_id, '-')
    on conflict do nothing;
    return;
  end if;

  -- A guest of this plan (every guest who writes): one lookup.
  v_guest_id := private.claimed_guest_id();
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
comment on function private.ensure_writer(uuid, text) is
  'HP409 on a cancelled plan; joins a signed-in caller to the plan if needed (HP403 when its invitations are closed); HP403 for a guest of another plan; HP401 p_denied unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_writer(uuid, text) from public;
grant execute on function private.ensure_writer(uuid, text) to anon, authenticated;

-- For votes: the same join on first write; anyone else who is not a
-- participant gets HP403 'Please join the plan first to vote'.
create function private.ensure_participant(p_plan_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id uuid := auth.uid();
begin
  -- No date votes on a cancelled plan (docs/decisions/0100-cancelling-a-plan.md).
  perform private.refuse_cancelled_plan(p_plan_id);
  if v_user_id is not null then
    if not exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      -- Joined on first vote, unless invitations are closed; the name is
      -- derived by trigger (participants_set_name).
      perform private.require_plan_link(p_plan_id);
      insert into app.participants (plan_id, user_id, name)
      values (p_plan_id, v_user_id, '-')
      on conflict do nothing;
    end if;
  elsif not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP403', message = 'Please join the plan first to vote';
  end if;
end;
$$;
comment on function private.ensure_participant(uuid) is
  'HP409 on a cancelled plan; joins a signed-in caller to the plan if needed (HP403 when its invitations are closed); raises HP403 unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_participant(uuid) from public;
grant execute on function private.ensure_participant(uuid) to anon, authenticated;

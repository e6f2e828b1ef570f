-- =============================================================================
-- Domain: participant_removals (participants). The host removes someone from
-- a plan (docs/decisions/0065-moderation.md), and the removal holds until the
-- host allows them back (docs/decisions/0083-removal-holds.md).
-- =============================================================================

-- -----------------------------------------------------------------------------
-- app.plan_removals: who the host removed, so that the removal holds
-- -----------------------------------------------------------------------------
-- docs/decisions/0083-removal-holds.md. One row per person the host removed
-- from a plan, until the host allows them back:
--   a member   user_id: joining the plan again, also implicitly on a first
--              write, is HP403 'The host removed you from this plan'
--              (trigger participants_refuse_removed);
--   a guest    its name (shown to the host; guest_name_key compared as
--              guests.name_key is, so no new guest of that name can be
--              created: trigger guests_refuse_removed), its id and the
--              SHA-256 of each of its devices' secrets (the gate,
--              private.check_request, answers those devices HP403, and a
--              device presenting one cannot create a new guest:
--              private.refuse_removed_device).
-- A guest who clears its device and picks another name cannot be told apart
-- from a new friend; the host's tool for that is a new link.
-- Deny-all, no grants: read and written only by the definers of this file
-- and the gate.
create table app.plan_removals (
  id                  uuid primary key default gen_random_uuid(),
  plan_id             uuid not null references app.plans (id) on delete cascade,
  user_id             uuid references app.users (id) on delete cascade,
  -- The removed guest's id (its row is gone, so no foreign key): the gate's lookup.
  guest_id            uuid,
  guest_name          text,
  guest_name_key      text generated always as (lower(btrim(guest_name))) stored,
  -- Lower-case hex SHA-256 of each device secret the guest had (at most 11).
  guest_secret_hashes text[] not null default '{}',
  removed_at          timestamptz not null default now(),

  constraint plan_removals_one_person check (
    (user_id is not null and guest_id is null and guest_name is null and cardinality(guest_secret_hashes) = 0)
    or (user_id is null and guest_id is not null and guest_name is not null)),
  -- The joins' and the new guests' lookups; each also serves the plan's list.
  constraint plan_removals_plan_id_user_id_key unique (plan_id, user_id),
  constraint plan_removals_plan_id_guest_name_key_key unique (plan_id, guest_name_key)
);
comment on table app.plan_removals is
  'People the host removed from a plan, until allowed back: a member (user_id), or a guest (its name, id and device secret hashes). No grants: only the moderation definers and private.check_request.';

-- The foreign key on user_id (an account deleted takes its removals along).
create index plan_removals_user_id_idx on app.plan_removals (user_id);
-- The gate: a removed guest's device presenting its id and secret.
create index plan_removals_guest_id_idx on app.plan_removals (guest_id);

alter table app.plan_removals enable row level security;
create policy plan_removals_no_direct_access on app.plan_removals
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- -----------------------------------------------------------------------------
-- The host removes someone (moderation)
-- -----------------------------------------------------------------------------
-- docs/decisions/0065-moderation.md. The host may remove any participant but
-- themselves, a co-host anyone but the host and the co-hosts
-- (docs/decisions/0099-what-stays-the-hosts.md): what the person wrote goes with them (their ideas, with the
-- votes and comments on those ideas, and their comments elsewhere) and so do
-- their votes. A removed guest is deleted with its device credentials, so the
-- secrets it holds stop working at once. The removal itself is kept
-- (app.plan_removals, docs/decisions/0083-removal-holds.md): a removed member
-- cannot join again, a removed guest's devices and name cannot come back,
-- until the host allows them back. A picked idea that goes is unpicked by its
-- foreign key; the locked date stays (a locked slot is kept even without votes).
--
-- Definer, like the write rules: the host may delete rows the host's own row
-- security does not show as deletable (others' votes, others' rows). It makes
-- the checks itself, once: the plan is readable, the caller is its host or a
-- co-host, the participant is of this plan and is not the host. Serialised with leaving
-- on the plan's membership lock, so a host hand-over and a removal never
-- interleave.
create function private.remove_participant(p_plan_id uuid, p_participant_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_host_id uuid;
  v_target  app.participants;
begin
  perform private.lock_plan_membership(p_plan_id);
  v_host_id := private.require_plan_host(p_plan_id, 'Only the host can remove people from the plan');

  select * into v_target from app.participants pa
   where pa.id = p_participant_id and pa.plan_id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'This person is not in the plan';
  end if;
  -- A co-host removes ordinary participants only (docs/decisions/0099-what-stays-the-hosts.md).
  if (v_target.user_id = v_host_id or v_target.is_cohost) and v_host_id is distinct from (select auth.uid()) then
    raise exception using errcode = 'HP403', message = 'A co-host cannot remove the host or another co-host';
  end if;
  if v_target.user_id = v_host_id then
    raise exception using errcode = 'HP409',
      message = 'You host this plan: hand it over by leaving, or delete the plan instead';
  end if;

  -- Before anything goes, the locks in the order an answer takes them (the
  -- rsvps file's lock order; docs/api-after-the-date.md "Who's coming"): a
  -- guest's device rows (the request's gate notes a device's use), the
  -- plan's row (a plan being deleted holds it), then the plan's rsvps lock,
  -- which the trigger participants_rsvps_lock would take only after the
  -- participants row is locked, the other way round. An answer at the same
  -- moment then either comes first (and its answer goes with the person) or
  -- waits and is refused with the removal's sentence (private.rsvp); neither
  -- holds what the other waits for.
  if v_target.guest_id is not null then
    perform 1 from app.guest_credentials gc where gc.guest_id = v_target.guest_id for update;
  end if;
  perform 1 from app.plans p where p.id = p_plan_id for key share;
  if not found then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.lock_rsvps(p_plan_id, 'all');

  if v_target.guest_id is not null then
    -- Kept before the guest goes: its name, and its devices' secret hashes.
    insert into app.plan_removals as r (plan_id, guest_id, guest_name, guest_secret_hashes)
    select p_plan_id, g.id, g.name,
           array(select gc.secret_hash from app.guest_credentials gc where gc.guest_id = g.id order by gc.created_at)
      from app.guests g where g.id = v_target.guest_id
    on conflict (plan_id, guest_name_key) do update
       set guest_id = excluded.guest_id, guest_name = excluded.guest_name,
           guest_secret_hashes = excluded.guest_secret_hashes, removed_at = now();
    delete from app.idea_comments ic where ic.guest_id = v_target.guest_id and ic.plan_id = p_plan_id;
    delete from app.ideas i where i.guest_id = v_target.guest_id and i.plan_id = p_plan_id;
    -- Cascades to the participants row, the guest's votes and its credentials.
    delete from app.guests g where g.id = v_target.guest_id;
  else
    insert into app.plan_removals as r (plan_id, user_id) values (p_plan_id, v_target.user_id)
    on conflict (plan_id, user_id) do update set removed_at = now();
    delete from app.idea_comments ic where ic.user_id = v_target.user_id and ic.plan_id = p_plan_id;
    delete from app.ideas i where i.user_id = v_target.user_id and i.plan_id = p_plan_id;
    delete from app.idea_votes v where v.user_id = v_target.user_id and v.plan_id = p_plan_id;
    delete from app.time_slot_votes v where v.user_id = v_target.user_id and v.plan_id = p_plan_id;
    delete from app.participants pa where pa.id = v_target.id;
  end if;
end;
$$;
comment on function private.remove_participant(uuid, uuid) is
  'app.remove_participant''s rule, as a definer that checks once: readable plan (HP404), the caller hosts or co-hosts it (HP403), the participant is of the plan (HP404), not the host (HP409) and, for a co-host, neither the host nor a co-host (HP403). Removes the participant with their ideas, comments and votes, and keeps the removal (app.plan_removals).';
revoke all on function private.remove_participant(uuid, uuid) from public;
grant execute on function private.remove_participant(uuid, uuid) to authenticated;

create function app.remove_participant(p_plan_id uuid, p_participant_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.remove_participant(p_plan_id, p_participant_id)
$$;
comment on function app.remove_participant(uuid, uuid) is
  'The host removes a participant with everything they wrote and their votes (private.remove_participant).';
revoke all on function app.remove_participant(uuid, uuid) from public;
grant execute on function app.remove_participant(uuid, uuid) to authenticated;

-- -----------------------------------------------------------------------------
-- The removal holds (docs/decisions/0083-removal-holds.md)
-- -----------------------------------------------------------------------------
-- A removed member's participants row and a removed guest's name are refused
-- whatever path inserts them: POST join, the join on a first write
-- (ensure_writer, ensure_participant), moving a guest into the account
-- (private.transfer_guest_votes), POST /api/guest-session. The plan's
-- membership lock first, as private.remove_participant takes it: a join that
-- raced a removal waits for it and then sees it. Definer: the removals are
-- readable by nobody else; it answers only about the row being inserted.
create function private.refuse_removed()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.lock_plan_membership(new.plan_id);
  if tg_table_name = 'participants' then
    if exists (select 1 from app.plan_removals r where r.plan_id = new.plan_id and r.user_id = new.user_id) then
      raise exception using errcode = 'HP403', message = 'The host removed you from this plan';
    end if;
  -- A new guest: its name_key is not computed yet in a BEFORE trigger.
  elsif exists (select 1 from app.plan_removals r
                 where r.plan_id = new.plan_id and r.guest_name_key = lower(btrim(new.name))) then
    raise exception using errcode = 'HP403', message = format('The host removed %s from this plan', btrim(new.name));
  end if;
  return new;
end;
$$;
comment on function private.refuse_removed() is
  'BEFORE INSERT on participants (a member) and guests: HP403 for a member or a guest name the host removed from the plan.';
revoke all on function private.refuse_removed() from public;

create trigger participants_refuse_removed
  before insert on app.participants
  for each row when (new.user_id is not null) execute function private.refuse_removed();
create trigger guests_refuse_removed
  before insert on app.guests
  for each row execute function private.refuse_removed();

-- A device that still holds a removed guest's secret (X-Guest-Secret on POST
-- /api/guest-session) cannot start over as a new guest of that plan under
-- another name. True otherwise (also without a secret).
create function private.refuse_removed_device(p_plan_id uuid, p_secret_hash text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_secret_hash is not null and exists (
       select 1 from app.plan_removals r
        where r.plan_id = p_plan_id and r.guest_id is not null and p_secret_hash = any (r.guest_secret_hashes)) then
    raise exception using errcode = 'HP403', message = 'The host removed you from this plan';
  end if;
  return true;
end;
$$;
comment on function private.refuse_removed_device(uuid, text) is
  'HP403 when p_secret_hash is the secret hash of a device of a guest the host removed from the plan; true otherwise.';
revoke all on function private.refuse_removed_device(uuid, text) from public;
grant execute on function private.refuse_removed_device(uuid, text) to anon;

-- The host's list of who was removed, newest first: a member by the name
-- the account shows now, a guest by the name it had.
create function private.plan_removals(p_plan_id uuid)
returns table (id uuid, name text, is_guest boolean, removed_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_plan_host(p_plan_id, 'Only the host can see who was removed');
  return query
  select r.id, coalesce(r.guest_name, private.display_name(u.first_name, u.last_name, u.email)),
         r.guest_id is not null, r.removed_at
    from app.plan_removals r
    left join app.users u on u.id = r.user_id
   where r.plan_id = p_plan_id
   order by r.removed_at desc, r.id;
end;
$$;
comment on function private.plan_removals(uuid) is
  'The host''s list of the people removed from the plan (HP404 unreadable plan, HP403 not the host).';
revoke all on function private.plan_removals(uuid) from public;
grant execute on function private.plan_removals(uuid) to authenticated;

-- "Allow back": the removal ends. The member may join again; the guest's
-- name may be taken again (its old devices stay signed out: the guest is
-- gone). HP404 'This person was not removed from the plan' for a removal
-- that is not this plan's (or was already undone).
create function private.allow_back(p_plan_id uuid, p_removal_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.lock_plan_membership(p_plan_id);
  perform private.require_plan_host(p_plan_id, 'Only the host can allow people back');
  delete from app.plan_removals r where r.id = p_removal_id and r.plan_id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'This person was not removed from the plan';
  end if;
end;
$$;
comment on function private.allow_back(uuid, uuid) is
  'The host ends a removal (HP404 unreadable plan or no such removal, HP403 not the host).';
revoke all on function private.allow_back(uuid, uuid) from public;
grant execute on function private.allow_back(uuid, uuid) to authenticated;

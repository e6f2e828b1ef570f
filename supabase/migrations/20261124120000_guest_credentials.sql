-- =============================================================================
-- Guest credentials: a guest id is a display id, its device's secret the proof.
-- =============================================================================
--
-- Until now a guest's id was its only credential, and the API hands guest ids
-- out in public JSON (participants, voters, ideas, check-guest). Now creating
-- a guest (POST /api/guest-session) and the spec's "Is this you?" restore
-- (POST /api/guest-session/restore) each give the device a fresh random secret
-- (32 random bytes, base64url). The database keeps only its SHA-256 (hex), one
-- row per device, here. The API sends the hash of the secret the device
-- presents (header X-Guest-Secret) in the request claims as
-- `guest_secret_hash`, next to `guest_id`.
--
-- private.claimed_guest_id(), which every policy and rule uses to ask "which
-- guest is acting?", now answers the guest id only when a credential of that
-- guest with that hash exists. So RLS itself refuses a guest id without its
-- secret: a claim naming a guest is worth nothing on its own.
--
-- Trust model (docs/decisions.md "Guest secrets"): the spec's "Is this you?"
-- lets anyone holding the plan link who knows a guest's name continue as that
-- guest; private.issue_guest_credential keeps exactly that door (by plan and
-- name, never by guest id) and no other.

create table app.guest_credentials (
  guest_id    uuid not null references app.guests (id) on delete cascade,
  -- Lower-case hex SHA-256 of the device's secret. The secret has 256 random
  -- bits, so an unsalted fast hash is enough: nothing to brute-force.
  secret_hash text not null,
  created_at  timestamptz not null default now(),

  -- (guest_id, secret_hash) is the lookup of claimed_guest_id(); as the
  -- primary key it also serves the foreign key on guest_id.
  constraint guest_credentials_pkey primary key (guest_id, secret_hash),
  constraint guest_credentials_secret_hash_format check (secret_hash ~ '^[0-9a-f]{64}$')
);
comment on table app.guest_credentials is
  'One row per device that may act as a guest: the SHA-256 of its secret. No grants: reached only through private.claimed_guest_id() and private.issue_guest_credential().';

alter table app.guest_credentials enable row level security;
-- No grants and an explicit deny-all policy (as app.sign_in_codes): no request
-- role may read a hash or write a credential directly.
create policy guest_credentials_no_direct_access on app.guest_credentials
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- -----------------------------------------------------------------------------
-- private.claimed_guest_id(): the guest acting, only with its secret
-- -----------------------------------------------------------------------------
-- Same signature and grants as before (create or replace keeps them). Now
-- SECURITY DEFINER: it must read app.guest_credentials, which no request role
-- can. It reveals nothing: it answers the caller's own claim or null.
-- Policies call it as `(select private.claimed_guest_id())`: one lookup by
-- primary key per statement.
create or replace function private.claimed_guest_id()
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select gc.guest_id
    from (select private.jwt_claims() as claims) c
    join app.guest_credentials gc
      on gc.guest_id = private.try_uuid(c.claims ->> 'guest_id')
     and gc.secret_hash = c.claims ->> 'guest_secret_hash'
$$;
comment on function private.claimed_guest_id() is
  'The guest acting in this request (claim guest_id), or null. Only when a credential of that guest matches the claim guest_secret_hash: a guest id alone authorizes nothing.';

-- -----------------------------------------------------------------------------
-- private.issue_guest_credential: a device becomes able to act as a guest
-- -----------------------------------------------------------------------------
-- By plan and NAME, never by guest id (ids are public; the spec's restore goes
-- by name): the request must name the plan (claim plan_id, the URL's plan),
-- and the guest of that name (compared like check-guest and the unique key:
-- trimmed, case-insensitive) gets a new credential. Answers the guest id, or
-- null when the plan has no guest of that name. Used right after creating a
-- guest (POST /api/guest-session) and by "Yes, that's me" (restore).
--
-- A guest keeps at most 10 devices: the oldest credential goes when an 11th
-- is issued (so the table cannot grow without bound by repeated restores).
create function private.issue_guest_credential(p_plan_id uuid, p_name text, p_secret_hash text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_guest_id uuid;
begin
  if p_plan_id is null or p_plan_id is distinct from (select private.claimed_plan_id()) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  if p_secret_hash is null or p_secret_hash !~ '^[0-9a-f]{64}$' then
    raise exception using errcode = 'HP400', message = 'Invalid guest secret';
  end if;

  select g.id into v_guest_id
    from app.guests g
   where g.plan_id = p_plan_id and g.name_key = lower(btrim(p_name))
   for update;
  if v_guest_id is null then
    return null;
  end if;

  insert into app.guest_credentials (guest_id, secret_hash)
  values (v_guest_id, p_secret_hash)
  on conflict do nothing;

  delete from app.guest_credentials gc
   where gc.guest_id = v_guest_id
     and gc.secret_hash not in (
       select newest.secret_hash from app.guest_credentials newest
        where newest.guest_id = v_guest_id
        order by newest.created_at desc, newest.secret_hash
        limit 10);
  return v_guest_id;
end;
$$;
comment on function private.issue_guest_credential(uuid, text, text) is
  'Gives the device whose secret hashes to p_secret_hash a credential for the guest named p_name in the plan the request names (claim plan_id). Returns the guest id, or null when no such guest. Keeps the 10 newest credentials per guest.';
revoke all on function private.issue_guest_credential(uuid, text, text) from public;
grant execute on function private.issue_guest_credential(uuid, text, text) to anon;

-- -----------------------------------------------------------------------------
-- The guest-vote transfer needs the guest's secret too
-- -----------------------------------------------------------------------------
-- Before: any signed-in account took over a guest (votes, ideas, comments)
-- from its id alone. Now the request must also carry that guest's credential
-- (claims guest_id + guest_secret_hash, checked by claimed_guest_id()).
create or replace function private.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id     uuid := (select auth.uid());
  v_guest       app.guests;
  v_joined_at   timestamptz;
  v_idea_votes  integer;
  v_time_votes  integer;
begin
  if v_user_id is null then
    raise exception using errcode = 'HP403', message = 'Sign in to keep your votes';
  end if;

  select * into v_guest from app.guests g where g.id = p_guest_id;
  if found then
    perform private.lock_plan_membership(v_guest.plan_id);
    -- Re-read under the lock: the guest may have left meanwhile.
    select * into v_guest from app.guests g where g.id = p_guest_id for update;
  end if;
  if not found then
    raise exception using errcode = 'HP404', message = 'Guest not found';
  end if;
  -- The caller must hold this guest's secret, not only its (public) id.
  if p_guest_id is distinct from (select private.claimed_guest_id()) then
    raise exception using errcode = 'HP403',
      message = 'This device is no longer confirmed as that guest, please confirm your name again';
  end if;

  select pa.joined_at into v_joined_at
    from app.participants pa where pa.guest_id = p_guest_id;

  -- Join (or keep) the user, at the earlier of the two join times. The name
  -- is derived by trigger.
  insert into app.participants as pa (plan_id, user_id, name, joined_at)
  values (v_guest.plan_id, v_user_id, '-', coalesce(v_joined_at, now()))
  on conflict (plan_id, user_id) do update
    set joined_at = least(pa.joined_at, excluded.joined_at);

  -- Copy the votes the user does not have yet; count what moved.
  with moved as (
    insert into app.idea_votes (idea_id, plan_id, user_id)
    select v.idea_id, v.plan_id, v_user_id
      from app.idea_votes v
     where v.guest_id = p_guest_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer into v_idea_votes from moved;

  with moved as (
    insert into app.time_slot_votes (time_slot_id, plan_id, user_id)
    select v.time_slot_id, v.plan_id, v_user_id
      from app.time_slot_votes v
     where v.guest_id = p_guest_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer into v_time_votes from moved;

  update app.ideas i set user_id = v_user_id, guest_id = null where i.guest_id = p_guest_id;
  update app.idea_comments c set user_id = v_user_id, guest_id = null where c.guest_id = p_guest_id;

  -- Cascades: the guest's participants row, its (now copied) votes and its credentials.
  delete from app.guests g where g.id = p_guest_id;

  return query select v_idea_votes, v_time_votes;
end;
$$;
comment on function private.transfer_guest_votes(uuid) is
  'Moves a guest''s votes (minus duplicates), ideas and comments to the signed-in caller, replaces the guest by the user in the plan, deletes the guest. Needs the guest''s credential in the claims (HP403 otherwise). Returns the counts of moved votes.';

-- adopt_guest_name runs first in app.transfer_guest_votes: it must not rename
-- the account after a guest whose secret the caller does not hold.
create or replace function private.adopt_guest_name(p_guest_id uuid)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update app.users u
     set first_name = split_part(btrim(g.name), ' ', 1),
         last_name  = nullif(btrim(substr(btrim(g.name), length(split_part(btrim(g.name), ' ', 1)) + 1)), ''),
         updated_at = now()
    from app.guests g
   where g.id = p_guest_id
     and g.id = (select private.claimed_guest_id())
     and u.id = (select auth.uid())
     and u.first_name is null
     and u.last_name is null
$$;

-- -----------------------------------------------------------------------------
-- Joining as a guest needs the secret too
-- -----------------------------------------------------------------------------
-- A guest's participants row is inserted right after the guest itself, in the
-- same transaction, before its first credential exists (POST
-- /api/guest-session). From then on only a device holding a credential of
-- that guest may (re)join it (POST /api/plans/{id}/join as a guest).
create function private.may_join_as_guest(p_guest_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_guest_id = (select private.claimed_guest_id())
      or not exists (select 1 from app.guest_credentials gc where gc.guest_id = p_guest_id)
$$;
comment on function private.may_join_as_guest(uuid) is
  'True when the request holds a credential of the guest, or the guest has none yet (it is being created in this transaction).';
revoke all on function private.may_join_as_guest(uuid) from public;
grant execute on function private.may_join_as_guest(uuid) to anon;

drop policy participants_insert_anon on app.participants;
create policy participants_insert_anon on app.participants
  for insert to anon
  with check (
    user_id is null
    and guest_id is not null
    and plan_id = (select private.claimed_plan_id())
    and private.may_join_as_guest(guest_id)
  );

-- =============================================================================
-- Domain: guests. People who joined a plan with only a name, and the device
-- credentials that let a device act as one: issuing them (a new guest, "Is
-- this you?"), what only the device that joined may do, and "That wasn't me".
-- A guest who signs in is the guest_transfer file's. The policies of
-- app.guests are in the participants file, after the membership helpers they
-- are built on.
-- =============================================================================

-- -----------------------------------------------------------------------------
-- app.guests
-- -----------------------------------------------------------------------------
create table app.guests (
  id         uuid primary key default gen_random_uuid(),
  plan_id    uuid not null references app.plans (id) on delete cascade,
  name       text not null,
  -- Guest names are unique within a plan, compared trimmed and
  -- case-insensitively (docs/api-accounts.md "Guests"). A generated key + unique constraint
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

grant select on app.guests to anon, authenticated;
grant insert (id, plan_id, name), delete on app.guests to anon;

-- -----------------------------------------------------------------------------
-- app.guest_credentials: a guest id is a display id, its device's secret the proof.
-- -----------------------------------------------------------------------------
-- The API hands guest ids out in public JSON (participants, voters, ideas,
-- check-guest), so an id can authorize nothing. Creating a guest
-- (POST /api/guest-session) and the spec's "Is this you?" restore
-- (POST /api/guest-session/restore) each give the device a fresh random secret
-- (32 random bytes, base64url). The database keeps only its SHA-256 (hex), one
-- row per device, here. The API sends the hash of the secret the device
-- presents (header X-Guest-Secret) in the request claims as
-- `guest_secret_hash`, next to `guest_id`.
--
-- private.claimed_guest_id(), which every policy and rule uses to ask "which
-- guest is acting?", answers the guest id only when a credential of that
-- guest with that hash exists. So RLS itself refuses a guest id without its
-- secret: a claim naming a guest is worth nothing on its own.
--
-- Trust model (docs/auth-and-guests.md "Guests"): the spec's "Is this you?"
-- lets anyone holding the plan link who knows a guest's name continue as that
-- guest; private.issue_guest_credential keeps exactly that door (by plan and
-- name, never by guest id) and no other. What a name opens is the voting,
-- never the guest itself: a credential has a kind,
--   joined    the device that created the guest: everything the guest may do;
--   restored  a device that continued by name: read, vote, comment, suggest,
--             but not leave, move the guest into an account or delete what
--             it wrote (private.require_joining_device); and restores never
--             push out the joined device (private.issue_guest_credential).
-- A restored device stays restored, however long the joined device goes
-- unused: the joined device, when it comes back, always finds its guest as
-- it left it (docs/decisions/0085-no-promotion-by-name.md).
-- "That wasn't me": the joined device may sign out every other device of its
-- guest and stop restores by name (stops_restores) for as long as it stays
-- in use (private.end_other_guest_devices); last_used_at (refreshed at most
-- daily by private.check_request) says when a device was last used.

create table app.guest_credentials (
  guest_id     uuid not null references app.guests (id) on delete cascade,
  -- Lower-case hex SHA-256 of the device's secret. The secret has 256 random
  -- bits, so an unsalted fast hash is enough: nothing to brute-force.
  secret_hash  text not null,
  kind         text not null,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  -- Set by private.end_other_guest_devices on the device that asked: while it
  -- was used in the last 30 days, nobody continues as the guest by name.
  stops_restores boolean not null default false,

  -- (guest_id, secret_hash) is the lookup of claimed_guest_id(); as the
  -- primary key it also serves the foreign key on guest_id.
  constraint guest_credentials_pkey primary key (guest_id, secret_hash),
  constraint guest_credentials_secret_hash_format check (secret_hash ~ '^[0-9a-f]{64}$'),
  constraint guest_credentials_kind check (kind in ('joined', 'restored'))
);
comment on table app.guest_credentials is
  'One row per device that may act as a guest: the SHA-256 of its secret, and whether the device joined as the guest or continued by name. No grants: reached only through private.claimed_guest_id(), private.issue_guest_credential(), private.require_joining_device(), private.guest_continued_at() and private.end_other_guest_devices().';

-- A device "in use": used in the last 30 days. A joined device in use keeps
-- its stop on restores in force (private.issue_guest_credential); unused
-- longer, the stop lapses, so a lost phone never keeps its owner from
-- continuing by name on a new one.
create function private.guest_device_in_use(p_last_used_at timestamptz)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_last_used_at > now() - interval '30 days'
$$;
comment on function private.guest_device_in_use(timestamptz) is
  'Whether a guest device last used at p_last_used_at still counts as in use (30 days).';
-- Called only inside definers (its callers), so no request role needs it.
revoke all on function private.guest_device_in_use(timestamptz) from public;

-- A device credential unused for 180 days is over (docs/auth-and-guests.md
-- "Guests"): refused like a revoked one (private.claimed_guest_id,
-- private.check_request), and deleted by the scheduler's housekeeping
-- (private.end_idle_credentials) with the device's push subscriptions. The
-- guest, its votes and what it wrote stay: "Is this you?" gives the person
-- a new credential. The one place of the number: a credential last used
-- before this moment is over.
create function private.guest_credential_cutoff()
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select now() - interval '180 days'
$$;
comment on function private.guest_credential_cutoff() is
  'A guest device credential last used before this moment no longer works (180 days).';
revoke all on function private.guest_credential_cutoff() from public;

-- The housekeeping's scan for credentials nobody uses.
create index guest_credentials_last_used_at_idx on app.guest_credentials (last_used_at);

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
-- SECURITY DEFINER: it must read app.guest_credentials, which no request role
-- can. It reveals nothing: it answers the caller's own claim or null.
-- Policies call it as `(select private.claimed_guest_id())`: one lookup by
-- primary key per statement.
create function private.claimed_guest_id()
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
   where gc.last_used_at > private.guest_credential_cutoff()
$$;
comment on function private.claimed_guest_id() is
  'The guest acting in this request (claim guest_id), or null. Only when a live credential of that guest matches the claim guest_secret_hash: a guest id alone authorizes nothing.';
revoke all on function private.claimed_guest_id() from public;
grant execute on function private.claimed_guest_id() to anon, authenticated;

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
-- The guest's first credential is its joined device's; every later one is a
-- restored device's. A guest keeps at most 10 restored devices: the oldest
-- restored credential goes when an 11th is issued (so the table cannot grow
-- without bound by repeated restores), and the joined device is never pushed
-- out by restores.
create function private.issue_guest_credential(p_plan_id uuid, p_name text, p_secret_hash text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_guest_id uuid;
  v_name     text;
begin
  if p_plan_id is null or p_plan_id is distinct from (select private.claimed_plan_id()) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  if p_secret_hash is null or p_secret_hash !~ '^[0-9a-f]{64}$' then
    raise exception using errcode = 'HP400', message = 'Invalid guest secret';
  end if;

  select g.id, g.name into v_guest_id, v_name
    from app.guests g
   where g.plan_id = p_plan_id and g.name_key = lower(btrim(p_name))
   for update;
  if v_guest_id is null then
    return null;
  end if;
  -- The guest's own device turned restores off ("That wasn't me") and is
  -- still in use.
  if exists (select 1 from app.guest_credentials gc
              where gc.guest_id = v_guest_id and gc.stops_restores
                and private.guest_device_in_use(gc.last_used_at)) then
    raise exception using errcode = 'HP403',
      message = format('%s turned off continuing on other devices', v_name);
  end if;

  -- Continuing by name brings a new device into the plan: with closed
  -- invitations only by the plan's link (the guest's first credential is
  -- issued with the guest, which the guests policy let in already).
  if exists (select 1 from app.guest_credentials gc where gc.guest_id = v_guest_id) then
    perform private.require_plan_link(p_plan_id);
  end if;

  -- The guest row is locked above, so two first credentials cannot race.
  insert into app.guest_credentials (guest_id, secret_hash, kind)
  values (v_guest_id, p_secret_hash,
          case when exists (select 1 from app.guest_credentials gc where gc.guest_id = v_guest_id)
               then 'restored' else 'joined' end)
  on conflict do nothing;

  delete from app.guest_credentials gc
   where gc.guest_id = v_guest_id
     and gc.kind = 'restored'
     and gc.secret_hash not in (
       select newest.secret_hash from app.guest_credentials newest
        where newest.guest_id = v_guest_id and newest.kind = 'restored'
        order by newest.created_at desc, newest.secret_hash
        limit 10);
  return v_guest_id;
end;
$$;
comment on function private.issue_guest_credential(uuid, text, text) is
  'Gives the device whose secret hashes to p_secret_hash a credential for the guest named p_name in the plan the request names (claim plan_id): joined for the guest''s first, restored after. Returns the guest id, or null when no such guest. Keeps the 10 newest restored credentials per guest. HP403 while a device of the guest stops restores, or (a restore) when the plan''s invitations are closed and the request does not carry its slug.';
revoke all on function private.issue_guest_credential(uuid, text, text) from public;
grant execute on function private.issue_guest_credential(uuid, text, text) to anon;

-- -----------------------------------------------------------------------------
-- private.require_joining_device: what only the guest's own device may do
-- -----------------------------------------------------------------------------
-- What would remove the guest, its devices or its writing needs the device
-- that joined as the guest; a device that continued by name gets HP403
-- saying so, however long the joined device has gone unused: a name never
-- becomes the guest (docs/decisions/0085-no-promotion-by-name.md). Called,
-- once the caller is known to be that guest, by leaving (app.leave_plan),
-- moving the guest into an account (private.transfer_guest_votes), deleting
-- what it wrote (private.may_delete_writing) and signing its other devices
-- out (private.end_other_guest_devices).
create function private.require_joining_device(p_guest_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from app.guest_credentials gc
              where gc.guest_id = p_guest_id
                and gc.secret_hash = private.jwt_claims() ->> 'guest_secret_hash'
                and gc.kind = 'joined') then
    return;
  end if;
  raise exception using errcode = 'HP403',
    message = format('This can only be done from the device that joined as %s',
                     (select g.name from app.guests g where g.id = p_guest_id));
end;
$$;
comment on function private.require_joining_device(uuid) is
  'HP403 unless the request''s credential of the guest is its joined device''s; a device that continued by name never becomes one.';
revoke all on function private.require_joining_device(uuid) from public;
grant execute on function private.require_joining_device(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.guest_continued_at: "your name was continued on another device"
-- -----------------------------------------------------------------------------
-- For the device asking (its credential in the claims): when another device
-- last continued as the same guest by name after this device got its own
-- credential; null when none did, or when the caller holds no credential of
-- the guest. GET /api/guest-session/{id} answers it as `continuedAt`, and the
-- web app tells the guest once per new value. A restore announces itself on
-- the change feed (part participants, trigger in the live file), so
-- the guest's open devices ask at once.
create function private.guest_continued_at(p_guest_id uuid)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select max(other.created_at)
    from app.guest_credentials me
    join app.guest_credentials other on other.guest_id = me.guest_id
   where me.guest_id = p_guest_id
     and me.secret_hash = private.jwt_claims() ->> 'guest_secret_hash'
     and other.kind = 'restored'
     and other.created_at > me.created_at
$$;
comment on function private.guest_continued_at(uuid) is
  'When another device last continued by name as the guest whose credential the request holds, after this device got its own; null otherwise.';
revoke all on function private.guest_continued_at(uuid) from public;
grant execute on function private.guest_continued_at(uuid) to anon;

-- -----------------------------------------------------------------------------
-- private.end_other_guest_devices: "That wasn't me"
-- -----------------------------------------------------------------------------
-- The guest's joined device (private.require_joining_device) signs out every
-- other device of the guest and stops restores by name while it stays in use
-- (issue_guest_credential refuses them; after 30 days unused the stop lapses,
-- so the owner of a lost phone can continue by name again). Only the joined
-- device ever asks: a device that continued by name can neither sign the
-- joined one out nor turn restores off. Answers how many devices were
-- signed out. The guest row is locked first, as issue_guest_credential locks
-- it, so a restore and this cannot interleave.
create function private.end_other_guest_devices(p_guest_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_hash  text := private.jwt_claims() ->> 'guest_secret_hash';
  v_ended integer;
begin
  perform 1 from app.guests g where g.id = p_guest_id for update;
  if not found then
    raise exception using errcode = 'HP404', message = 'Guest not found';
  end if;
  perform private.require_joining_device(p_guest_id);
  delete from app.guest_credentials gc where gc.guest_id = p_guest_id and gc.secret_hash <> v_hash;
  get diagnostics v_ended = row_count;
  update app.guest_credentials gc set stops_restores = true
   where gc.guest_id = p_guest_id and gc.secret_hash = v_hash;
  return v_ended;
end;
$$;
comment on function private.end_other_guest_devices(uuid) is
  'From the guest''s joined device: deletes every other credential of the guest and stops restores by name while this device stays in use. Returns how many were deleted. HP403 from any other device, HP404 unknown guest.';
revoke all on function private.end_other_guest_devices(uuid) from public;
grant execute on function private.end_other_guest_devices(uuid) to anon;

-- =============================================================================
-- Domain: auth. Accounts and passwordless sign-in (e-mail + 6-digit code).
-- The rest of auth has files of its own: sessions, the e-mail change, and
-- the end of an account (account).
-- =============================================================================
--
-- The API (not Supabase Auth) signs users in: it generates the code, stores only
-- its HMAC-SHA-256 (hex) here through private.issue_sign_in_code, mails the
-- code, and on verify calls private.verify_sign_in_code, which returns the user
-- id it then puts as `sub` into its own JWT. Both run under role `anon`, which
-- has no privilege on the tables: they are SECURITY DEFINER and are the only
-- way in.
--
-- A code belongs to the device that asked for it (docs/auth-and-guests.md
-- "Sign-in codes"; decision 0076): the web app keeps a random device key and
-- sends it with send-otp and verify-otp, and only that key's hash can try the
-- code. A stranger's guesses never reach the owner's code, a stranger's send
-- never replaces it, and the mail a stranger can cause an address is one
-- budget per address that the account's own devices do not draw on.

-- -----------------------------------------------------------------------------
-- app.users
-- -----------------------------------------------------------------------------
create table app.users (
  id         uuid primary key default gen_random_uuid(),
  email      text not null,
  first_name text,
  last_name  text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),

  -- One account per e-mail. PATCH /api/auth/profile with an e-mail taken by
  -- another account hits this (23505) and the API answers 409.
  constraint users_email_key unique (email),
  -- The API normalises (trim + lower-case) before it gets here; the check makes
  -- a forgotten normalisation a loud bug instead of a duplicate account that
  -- differs only by case.
  constraint users_email_normalised check (email = lower(btrim(email))),
  constraint users_email_length check (char_length(email) between 3 and 254),
  -- Deliberately loose (the API validates the full syntax): one "@" that is
  -- neither first nor last, no whitespace anywhere.
  constraint users_email_shape check (email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  constraint users_first_name_length check (first_name is null or char_length(first_name) between 1 and 80),
  constraint users_last_name_length check (last_name is null or char_length(last_name) between 1 and 80)
);
comment on table app.users is
  'Accounts. Created only by private.verify_sign_in_code; each user reads and updates only its own row.';

-- Column-level UPDATE: the profile form changes names; id and timestamps are
-- not the caller's to change (updated_at is set by trigger), and the e-mail
-- moves only through private.confirm_email_change (a code sent to the new
-- address), never by a direct update.
grant select on app.users to authenticated;
grant update (first_name, last_name) on app.users to authenticated;

-- Names are trimmed and a blank name becomes null, so that "display name"
-- ('first last', else first, else e-mail local part) never shows stray spaces
-- and the profile form may send "" to clear a name.
create function private.normalise_user_names()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.first_name := nullif(btrim(new.first_name), '');
  new.last_name := nullif(btrim(new.last_name), '');
  return new;
end;
$$;
revoke all on function private.normalise_user_names() from public;

create trigger users_normalise_names
  before insert or update of first_name, last_name on app.users
  for each row execute function private.normalise_user_names();

create trigger users_set_updated_at
  before update on app.users
  for each row execute function private.set_updated_at();

-- The display name of spec §3, in one place for the participants trigger and
-- for rule functions that join a user to a plan.
create function private.display_name(p_first_name text, p_last_name text, p_email text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when nullif(btrim(p_first_name), '') is not null and nullif(btrim(p_last_name), '') is not null
      then btrim(p_first_name) || ' ' || btrim(p_last_name)
    when nullif(btrim(p_first_name), '') is not null
      then btrim(p_first_name)
    else split_part(p_email, '@', 1)
  end
$$;
comment on function private.display_name(text, text, text) is
  'Display name of spec §3: ''first last'', else first, else the e-mail local part.';
revoke all on function private.display_name(text, text, text) from public;
grant execute on function private.display_name(text, text, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.sign_in_codes
-- -----------------------------------------------------------------------------
-- One row per e-mail and asking device. It holds that device's live code (if
-- any) AND its send-rate counters. The row outlives a successful sign-in
-- (only the code is cleared), otherwise signing in would reset the 30 s /
-- hourly limits.
create table app.sign_in_codes (
  email           text not null,
  -- SHA-256 (hex) of the device key the request carried; '' for a request
  -- without one (an API client that predates the key): such codes are
  -- shared by every request without a key, as all codes once were.
  device_hash     text not null default '',
  -- hex HMAC-SHA-256 of the code, computed by the API with its secret. Null
  -- means "no live code" (used, or killed after 5 wrong tries).
  code_hash       text,
  expires_at      timestamptz,
  failed_attempts integer not null default 0,
  last_sent_at    timestamptz not null default now(),
  hour_started_at timestamptz not null default now(),
  sends_this_hour integer not null default 1,

  constraint sign_in_codes_pkey primary key (email, device_hash),
  constraint sign_in_codes_email_normalised check (email = lower(btrim(email))),
  constraint sign_in_codes_email_length check (char_length(email) between 3 and 254),
  constraint sign_in_codes_device_hash_format check (device_hash = '' or device_hash ~ '^[0-9a-f]{64}$'),
  constraint sign_in_codes_code_hash_length check (code_hash is null or char_length(code_hash) between 1 and 512),
  constraint sign_in_codes_live_code_expires check ((code_hash is null) = (expires_at is null)),
  constraint sign_in_codes_failed_attempts_range check (failed_attempts between 0 and 5),
  constraint sign_in_codes_sends_this_hour_range check (sends_this_hour between 0 and 5)
);
comment on table app.sign_in_codes is
  'Hashed one-time sign-in codes and send-rate counters, per address and asking device. No grants to anon/authenticated: reached only through private.issue_sign_in_code / private.verify_sign_in_code.';

-- For the housekeeping delete of stale rows in issue_sign_in_code.
create index sign_in_codes_last_sent_at_idx on app.sign_in_codes (last_sent_at);

-- -----------------------------------------------------------------------------
-- app.sign_in_devices: the devices an account has signed in from
-- -----------------------------------------------------------------------------
-- A device key that completed a sign-in is the account's own device: its
-- codes are sent from a budget of its own (30 s apart, 5 an hour), so a
-- stranger who fills the address's budget for unknown devices cannot stop
-- the owner's sign-in from a phone they used before. Known for 180 days
-- after its last sign-in, at most 20 per account (the newest); "Sign out
-- everywhere" and undoing an e-mail change forget them all.
create table app.sign_in_devices (
  user_id           uuid not null references app.users (id) on delete cascade,
  device_hash       text not null,
  last_signed_in_at timestamptz not null default now(),

  constraint sign_in_devices_pkey primary key (user_id, device_hash),
  constraint sign_in_devices_device_hash_format check (device_hash ~ '^[0-9a-f]{64}$')
);
comment on table app.sign_in_devices is
  'Device keys (SHA-256) that completed a sign-in, per account: their codes have a send budget of their own. Written only by private.verify_sign_in_code; a user deletes its own (sign out everywhere).';
grant select, delete on app.sign_in_devices to authenticated;


-- -----------------------------------------------------------------------------
-- Helpers
-- -----------------------------------------------------------------------------

-- The rule for a stored e-mail, for the sign-in functions to reject bad input
-- with HP400 instead of a check violation.
create function private.is_normalised_email(p_email text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_email is not null
     and p_email = lower(btrim(p_email))
     and char_length(p_email) between 3 and 254
     and p_email ~ '^[^@[:space:]]+@[^@[:space:]]+$'
$$;
revoke all on function private.is_normalised_email(text) from public;

-- Constant-time equality of two secrets. Comparing with `=` stops at the first
-- differing byte, which leaks through timing how much of a guess is right. Here
-- both sides are first hashed with sha256 (fixed 32 bytes whatever the input,
-- and an attacker cannot steer the hash prefix), then every byte pair is XORed
-- and OR-ed together: the loop always runs 32 times.
create function private.secure_equals(p_a text, p_b text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_a bytea := sha256(convert_to(coalesce(p_a, ''), 'UTF8'));
  v_b bytea := sha256(convert_to(coalesce(p_b, ''), 'UTF8'));
  v_diff integer := 0;
begin
  for i in 0..31 loop
    v_diff := v_diff | (get_byte(v_a, i) # get_byte(v_b, i));
  end loop;
  return v_diff = 0 and p_a is not null and p_b is not null;
end;
$$;
revoke all on function private.secure_equals(text, text) from public;

-- -----------------------------------------------------------------------------
-- The address's send lock and the account's own devices
-- -----------------------------------------------------------------------------
-- Every code mailed to an address (a sign-in code, an e-mail change's code)
-- is decided under one lock per address, held to COMMIT (the API mails before
-- it), so the checks below and the address's budget are race-free.
create function private.lock_address_sends(p_email text)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('hangplan:address-sends:' || p_email, 0))
$$;
revoke all on function private.lock_address_sends(text) from public;

-- Whether a device key (its hash) completed a sign-in to the address's
-- account within 180 days.
create function private.is_known_sign_in_device(p_email text, p_device_hash text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_device_hash <> '' and exists (
    select 1 from app.users u
      join app.sign_in_devices d on d.user_id = u.id
     where u.email = p_email and d.device_hash = p_device_hash
       and d.last_signed_in_at > now() - interval '180 days')
$$;
revoke all on function private.is_known_sign_in_device(text, text) from public;

-- An address's budget for codes it did not ask for (a device that never
-- signed in to its account, or an e-mail change of another account that
-- names it): p_address_limit, one {key, max, window, message} entry the API
-- builds (_shared/db/limits.ts 'otp-address'). Then the source pays: the
-- per-network limits (p_network_limits) are hit only by a send that happens,
-- and raise HP429 when full. Returns 0 when the send may go ahead (and has
-- been counted), else the seconds until the address's budget has room (the
-- caller answers 'too_many'; nothing was counted). Under
-- private.lock_address_sends.
create function private.count_code_send(p_address_limit jsonb, p_network_limits jsonb)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_wait integer := 0;
begin
  if p_address_limit is not null then
    v_wait := private.rate_limit_wait(p_address_limit ->> 'key', (p_address_limit ->> 'max')::integer);
    if v_wait > 0 then
      return v_wait;
    end if;
  end if;
  perform private.enforce_rate_limits(coalesce(p_network_limits, '[]'));
  if p_address_limit is not null then
    perform private.enforce_rate_limits(jsonb_build_array(p_address_limit));
  end if;
  return 0;
end;
$$;
revoke all on function private.count_code_send(jsonb, jsonb) from public;

-- -----------------------------------------------------------------------------
-- private.issue_sign_in_code
-- -----------------------------------------------------------------------------
-- (outcome, retry_after): 'ok' (the API then mails the code), 'too_soon'
-- (< 30 s since this device's last code, while that code is live) or
-- 'too_many' (this device had 5 codes in its hour, or the address's budget
-- for unknown devices is spent), retry_after the seconds until it may ask
-- again. On 'ok' the new code replaces this device's previous one (never
-- another device's), expires in 10 minutes, and its failed-attempt count
-- starts at 0.
--
-- The checks that cost nothing come first: a refused request counts nothing
-- anywhere. Only a code that is sent counts, on the address's budget (unless
-- the device is the account's own: private.is_known_sign_in_device) and on
-- the client's network (p_network_limits, HP429 when full). The API mails
-- before COMMIT, so a failed send counts nothing either.
--
-- SECURITY DEFINER because anon has no privilege on app.sign_in_codes (nobody
-- may read hashes or counters); the function checks its own input, and
-- `search_path = ''` with schema-qualified names makes it immune to objects a
-- caller could place on the search_path. Race-free under
-- private.lock_address_sends.
create function private.issue_sign_in_code(
  p_email text,
  p_device_hash text,
  p_code_hash text,
  p_address_limit jsonb,
  p_network_limits jsonb
)
returns table (outcome text, retry_after integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := now();
  v_row app.sign_in_codes;
  v_hour_open boolean;
  v_wait integer;
begin
  if not private.is_normalised_email(p_email) then
    raise exception using errcode = 'HP400', message = 'Enter a valid e-mail address';
  end if;
  if p_device_hash is null or (p_device_hash <> '' and p_device_hash !~ '^[0-9a-f]{64}$') then
    raise exception using errcode = 'HP400', message = 'Invalid device hash';
  end if;
  if p_code_hash is null or char_length(p_code_hash) not between 1 and 512 then
    raise exception using errcode = 'HP400', message = 'Invalid code hash';
  end if;

  -- Housekeeping: rows untouched for a day carry no live code (10 min) and no
  -- rate-limit state (1 h) any more. Rows locked by concurrent calls are
  -- skipped, so this never waits nor deadlocks.
  delete from app.sign_in_codes s
  where (s.email, s.device_hash) in (
    select o.email, o.device_hash from app.sign_in_codes o
    where o.last_sent_at < v_now - interval '1 day'
    limit 20
    for update skip locked
  );

  perform private.lock_address_sends(p_email);
  select * into v_row from app.sign_in_codes s
   where s.email = p_email and s.device_hash = p_device_hash;

  if found then
    -- The 30 s pause guards against resend spam while a code is pending. Once
    -- the code was used (or killed by wrong tries) there is nothing to
    -- resend, so someone who just signed out can sign in again at once; the
    -- hourly cap still bounds the e-mails.
    if v_row.code_hash is not null and v_row.last_sent_at > v_now - interval '30 seconds' then
      return query select 'too_soon', greatest(1, ceil(extract(epoch from (v_row.last_sent_at + interval '30 seconds' - v_now))))::integer;
      return;
    end if;
    v_hour_open := v_row.hour_started_at > v_now - interval '1 hour';
    if v_hour_open and v_row.sends_this_hour >= 5 then
      return query select 'too_many', greatest(1, ceil(extract(epoch from (v_row.hour_started_at + interval '1 hour' - v_now))))::integer;
      return;
    end if;
  end if;

  v_wait := private.count_code_send(
    case when private.is_known_sign_in_device(p_email, p_device_hash) then null else p_address_limit end,
    p_network_limits);
  if v_wait > 0 then
    return query select 'too_many', v_wait;
    return;
  end if;

  insert into app.sign_in_codes as s
    (email, device_hash, code_hash, expires_at, failed_attempts, last_sent_at, hour_started_at, sends_this_hour)
  values
    (p_email, p_device_hash, p_code_hash, v_now + interval '10 minutes', 0, v_now, v_now, 1)
  on conflict (email, device_hash) do update
     set code_hash = excluded.code_hash,
         expires_at = excluded.expires_at,
         failed_attempts = 0,
         last_sent_at = v_now,
         -- A send after the hour window opens a new one.
         hour_started_at = case when s.hour_started_at > v_now - interval '1 hour' then s.hour_started_at else v_now end,
         sends_this_hour = case when s.hour_started_at > v_now - interval '1 hour' then s.sends_this_hour + 1 else 1 end;
  return query select 'ok', null::integer;
end;
$$;
comment on function private.issue_sign_in_code(text, text, text, jsonb, jsonb) is
  'Stores a new hashed sign-in code for a normalised e-mail and asking device: (ok | too_soon (30 s) | too_many (5 per hour per device, or the address''s budget for unknown devices), retry_after). Only a code that is sent counts, on the address and the network (HP429 when the network is full). HP400 on malformed input.';

revoke all on function private.issue_sign_in_code(text, text, text, jsonb, jsonb) from public;
grant execute on function private.issue_sign_in_code(text, text, text, jsonb, jsonb) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.verify_sign_in_code
-- -----------------------------------------------------------------------------
-- Returns the user id (creating the account on first sign-in) when the hash
-- matches the live, unexpired code of this address AND device; else null. A
-- wrong guess counts: at the 5th wrong guess the code is cleared, so after
-- that even the right code fails and a new one must be requested. On success
-- the code is cleared (single use) and the device becomes one of the
-- account's own (app.sign_in_devices: the newest 20 are kept).
--
-- The row is locked (`for update`), so parallel guesses are counted one by one
-- and cannot exceed 5 between them. It never raises for a wrong/expired code:
-- the attempt counter must be COMMITTED, and a raise would roll it back.
--
-- SECURITY DEFINER for the same reason as issue_sign_in_code, and because
-- creating the account must bypass RLS (anon may not insert into app.users).
create function private.verify_sign_in_code(p_email text, p_device_hash text, p_code_hash text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row app.sign_in_codes;
  v_user_id uuid;
begin
  if not private.is_normalised_email(p_email) then
    raise exception using errcode = 'HP400', message = 'Enter a valid e-mail address';
  end if;
  if p_device_hash is null or (p_device_hash <> '' and p_device_hash !~ '^[0-9a-f]{64}$') then
    raise exception using errcode = 'HP400', message = 'Invalid device hash';
  end if;

  select * into v_row from app.sign_in_codes s
   where s.email = p_email and s.device_hash = p_device_hash
   for update;
  if not found
     or v_row.code_hash is null
     or v_row.expires_at <= now()
     or v_row.failed_attempts >= 5 then
    return null;
  end if;

  if not private.secure_equals(v_row.code_hash, p_code_hash) then
    update app.sign_in_codes s
       set failed_attempts = failed_attempts + 1,
           -- The 5th wrong try kills the code.
           code_hash  = case when failed_attempts + 1 >= 5 then null else code_hash end,
           expires_at = case when failed_attempts + 1 >= 5 then null else expires_at end
     where s.email = p_email and s.device_hash = p_device_hash;
    return null;
  end if;

  update app.sign_in_codes s
     set code_hash = null, expires_at = null, failed_attempts = 0
   where s.email = p_email and s.device_hash = p_device_hash;

  -- Find-or-create, race-free against a parallel first sign-in of the same
  -- e-mail (the unique constraint decides, nobody gets a 500).
  insert into app.users (email) values (p_email)
  on conflict (email) do nothing
  returning id into v_user_id;
  if v_user_id is null then
    select u.id into v_user_id from app.users u where u.email = p_email;
  end if;

  if p_device_hash <> '' then
    insert into app.sign_in_devices as d (user_id, device_hash) values (v_user_id, p_device_hash)
    on conflict (user_id, device_hash) do update set last_signed_in_at = now();
    delete from app.sign_in_devices d
     where d.user_id = v_user_id
       and d.device_hash not in (
         select n.device_hash from app.sign_in_devices n
          where n.user_id = v_user_id
          order by n.last_signed_in_at desc
          limit 20);
  end if;
  return v_user_id;
end;
$$;
comment on function private.verify_sign_in_code(text, text, text) is
  'Checks a hashed sign-in code of an address and device in constant time. Returns the (possibly new) user id, or null for a wrong/expired/dead code. 5 wrong tries kill the code. A device that signs in becomes the account''s own.';
revoke all on function private.verify_sign_in_code(text, text, text) from public;
grant execute on function private.verify_sign_in_code(text, text, text) to anon, authenticated;

-- RLS: a signed-in user sees and edits its own row, nobody else's. anon: nothing.
alter table app.users enable row level security;

create policy users_select_own on app.users
  for select to authenticated
  using (id = (select auth.uid()));

create policy users_update_own on app.users
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

alter table app.sign_in_codes enable row level security;
-- No grants and an explicit deny-all policy: documents that no request role may
-- touch this table directly (and keeps the advisors from flagging "RLS enabled,
-- no policy").
create policy sign_in_codes_no_direct_access on app.sign_in_codes
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

alter table app.sign_in_devices enable row level security;
-- A user may read and forget its own devices ("Sign out everywhere");
-- nothing else reaches the table but the sign-in definers.
create policy sign_in_devices_select_own on app.sign_in_devices
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy sign_in_devices_delete_own on app.sign_in_devices
  for delete to authenticated
  using (user_id = (select auth.uid()));

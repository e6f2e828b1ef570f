-- =============================================================================
-- Domain: sessions. Revocable sessions, and the check the API's claims
-- statement runs at the start of every request.
-- =============================================================================
--
-- A session token (our own HS256 JWT) names a session (claim `sid`), and
-- sessions live here. Sign-out deletes the device's session, "Sign out
-- everywhere" every session of the user, a verified e-mail change every other
-- one. The API checks the session on EVERY request without an extra round
-- trip: the claims statement that starts each request's transaction (see
-- supabase/functions/_shared/db/client.ts withRequest) calls private.check_request,
-- which raises HP401 for a session that is gone or expired. The statement
-- fails, the transaction is aborted, nothing of the request runs, and the API
-- answers 401 "Your session has expired, please sign in again".
--
-- The same call checks a guest's secret (HP401 when a guest id comes without
-- one, HP403 when it does not match or the host removed the guest, HP404 when
-- the guest is gone), so a guest request with a wrong secret stops before it
-- starts, with a sentence the web app recognises; private.claimed_guest_id()
-- enforces the same inside every policy and rule anyway.

create table app.sessions (
  id         uuid primary key default gen_random_uuid(),
  user_id    uuid not null references app.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- The token's own expiry (30 days) is checked by the API too; the row's
  -- expiry makes the database refuse an old session even with a valid token.
  expires_at timestamptz not null default now() + interval '30 days',

  constraint sessions_expiry_after_start check (expires_at > created_at)
);
comment on table app.sessions is
  'Signed-in sessions (one per sign-in, named by the token''s sid). Created only by private.sign_in_with_code; a user reads and ends (deletes) only its own.';

-- Sign out everywhere, the housekeeping at sign-in, and the foreign key.
create index sessions_user_id_idx on app.sessions (user_id);
-- The scheduler's housekeeping of expired sessions (private.end_idle_credentials).
create index sessions_expires_at_idx on app.sessions (expires_at);

-- No insert or update for anyone: sessions start only through the sign-in rule.
grant select, delete on app.sessions to authenticated;

-- -----------------------------------------------------------------------------
-- private.check_request: the claims statement's gate
-- -----------------------------------------------------------------------------
-- Called by the API's claims statement with what the request presents: the
-- token's user and session, and a guest id with the hash of the secret the
-- device sent (null when it sent none). Raises with the sentence the API
-- answers; returns true otherwise. SECURITY DEFINER: sessions of others and
-- guest credentials are unreadable to the request roles. It only answers
-- about what the caller already holds.
create function private.check_request(
  p_user_id uuid,
  p_session_id uuid,
  p_guest_id uuid,
  p_guest_secret_hash text
)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_last_used timestamptz;
begin
  -- Two IFs, not one AND: a guest's request then evaluates a plain
  -- expression, not a query (PL/pgSQL runs a condition with a subquery
  -- through the executor even when the AND's first half is false).
  if p_user_id is not null then
    if not exists (
         select 1 from app.sessions s
          where s.id = p_session_id and s.user_id = p_user_id and s.expires_at > now()) then
      raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
    end if;
  end if;
  if p_guest_id is not null then
    if p_guest_secret_hash is null then
      raise exception using errcode = 'HP401',
        message = 'Please confirm your name to continue as a guest on this device';
    end if;
    select gc.last_used_at into v_last_used
      from app.guest_credentials gc
     where gc.guest_id = p_guest_id and gc.secret_hash = p_guest_secret_hash;
    -- A device unused for too long is refused like a revoked one.
    if not found or v_last_used <= private.guest_credential_cutoff() then
      if not exists (select 1 from app.guests g where g.id = p_guest_id) then
        -- A device of a guest the host removed (app.plan_removals) is told so.
        if exists (select 1 from app.plan_removals r
                    where r.guest_id = p_guest_id and p_guest_secret_hash = any (r.guest_secret_hashes)) then
          raise exception using errcode = 'HP403', message = 'The host removed you from this plan';
        end if;
        raise exception using errcode = 'HP404', message = 'Guest not found';
      end if;
      raise exception using errcode = 'HP403',
        message = 'This device is no longer confirmed as that guest, please confirm your name again';
    end if;
    -- When the device was last used, to the day (a write at most once a day
    -- per device): private.require_joining_device reads it.
    if v_last_used < now() - interval '1 day' then
      update app.guest_credentials gc set last_used_at = now()
       where gc.guest_id = p_guest_id and gc.secret_hash = p_guest_secret_hash;
    end if;
  end if;
  return true;
end;
$$;
comment on function private.check_request(uuid, uuid, uuid, text) is
  'Gate of every API request (its claims statement): HP401 for a dead or unknown session; for a guest id, HP401 without a secret, HP403 for a device of a guest the host removed, HP404 for a gone guest, HP403 for a secret that does not match or a device unused too long (and the device''s last use noted, at most daily). True otherwise.';
revoke all on function private.check_request(uuid, uuid, uuid, text) from public;
grant execute on function private.check_request(uuid, uuid, uuid, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.sign_in_with_code: verify a code and start a session
-- -----------------------------------------------------------------------------
-- private.verify_sign_in_code (auth: constant-time compare, single use,
-- 5 tries, the code of this address and device only, account created on
-- first sign-in) plus a new session for the user.
-- Never raises for a wrong code (the try must be committed): then both
-- columns are null. Expired sessions of the user are cleared on the way.
--
-- p_guess_limits (limits: wrong codes per client network and per wider
-- site): while one is full the request is refused (HP429) before the code is
-- compared; a wrong code counts a hit on each. No limit is kept per address:
-- the code's own 5 tries bound the guesses at it, and only the device that
-- asked for a code can try it, so a stranger's wrong codes never lock the
-- owner out (decision 0076).
create function private.sign_in_with_code(p_email text, p_device_hash text, p_code_hash text, p_guess_limits jsonb)
returns table (user_id uuid, session_id uuid)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_session_id uuid;
begin
  perform private.refuse_when_full(p_guess_limits);
  v_user_id := private.verify_sign_in_code(p_email, p_device_hash, p_code_hash);
  if v_user_id is null then
    perform private.count_failure(p_guess_limits);
    return query select null::uuid, null::uuid;
    return;
  end if;
  delete from app.sessions s where s.user_id = v_user_id and s.expires_at <= now();
  insert into app.sessions (user_id) values (v_user_id) returning id into v_session_id;
  return query select v_user_id, v_session_id;
end;
$$;
comment on function private.sign_in_with_code(text, text, text, jsonb) is
  'Checks a hashed sign-in code of an address and device (private.verify_sign_in_code) and on success starts a session: (user_id, session_id), or nulls for a wrong/expired/dead code, which counts on p_guess_limits. HP429 while a guess limit is full.';
revoke all on function private.sign_in_with_code(text, text, text, jsonb) from public;
grant execute on function private.sign_in_with_code(text, text, text, jsonb) to anon, authenticated;

alter table app.sessions enable row level security;

create policy sessions_select_own on app.sessions
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy sessions_delete_own on app.sessions
  for delete to authenticated
  using (user_id = (select auth.uid()));

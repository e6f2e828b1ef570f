-- =============================================================================
-- Domain: email_change (auth). An account's address changes only once a
-- code mailed to the new address is confirmed, and the old address can undo
-- the change (docs/auth-and-guests.md "E-mail change").
-- =============================================================================

-- -----------------------------------------------------------------------------
-- Verified e-mail change: a code to the NEW address, confirmed like sign-in.
-- -----------------------------------------------------------------------------
-- An address changes only once its mailbox proved it is the user's, and no
-- answer tells anyone which addresses have accounts:
--   1. PATCH with a new e-mail calls private.request_email_change: a code
--      (hashed by the API: HMAC of "email-change:{user id}:{code}") is stored
--      for the account with the address it would move to, and mailed to that
--      address. The answer is the same whether or not the address is taken.
--   2. POST /api/auth/confirm-email {code} calls private.confirm_email_change:
--      only a right code (constant time, 10 minutes, 5 tries) moves the
--      account to the address, or answers 'taken' when another account has it
--      (the first moment that is revealed, to the owner of the address's
--      mailbox only). A change ends every OTHER session of the user.
-- The send limits are those of sign-in codes (a resend needs 30 s while a code
-- is pending, at most 5 per hour), counted per account; and the code counts on
-- the new address's budget for codes it did not ask for and on the client's
-- network, like a sign-in code from an unknown device
-- (private.count_code_send): K accounts naming one address mail it no more
-- than that budget.

create table app.email_changes (
  user_id         uuid primary key references app.users (id) on delete cascade,
  -- The address the account would move to; null once used or killed.
  new_email       text,
  code_hash       text,
  expires_at      timestamptz,
  failed_attempts integer not null default 0,
  last_sent_at    timestamptz not null default now(),
  hour_started_at timestamptz not null default now(),
  sends_this_hour integer not null default 1,

  constraint email_changes_new_email_normalised check (new_email is null or private.is_normalised_email(new_email)),
  constraint email_changes_code_hash_length check (code_hash is null or char_length(code_hash) between 1 and 512),
  constraint email_changes_live_code check ((code_hash is null) = (expires_at is null) and (code_hash is null) = (new_email is null)),
  constraint email_changes_failed_attempts_range check (failed_attempts between 0 and 5),
  constraint email_changes_sends_this_hour_range check (sends_this_hour between 0 and 5)
);
comment on table app.email_changes is
  'Pending e-mail changes: the hashed code mailed to the new address and its send limits, one row per account. No grants: reached only through private.request_email_change / private.confirm_email_change.';

-- -----------------------------------------------------------------------------
-- private.request_email_change -> (outcome 'ok' | 'same' | 'too_soon' | 'too_many' | 'address_busy', retry_after)
-- -----------------------------------------------------------------------------
-- 'same': the address is already the account's (nothing to confirm, no mail).
-- 'address_busy': the new address's budget for codes it did not ask for is
-- spent (others named it, or strangers asked it for sign-in codes).
-- On 'ok' the new code replaces any earlier one (also for another address).
-- The refusals count nothing; only a code that is sent counts.
create function private.request_email_change(
  p_new_email text,
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
  v_user_id uuid := auth.uid();
  v_now timestamptz := now();
  v_row app.email_changes;
  v_wait integer;
begin
  if v_user_id is null then
    raise exception using errcode = 'HP401', message = 'Not signed in';
  end if;
  if not private.is_normalised_email(p_new_email) then
    raise exception using errcode = 'HP400', message = 'Email must be a valid e-mail address';
  end if;
  if p_code_hash is null or char_length(p_code_hash) not between 1 and 512 then
    raise exception using errcode = 'HP400', message = 'Invalid code hash';
  end if;
  if exists (select 1 from app.users u where u.id = v_user_id and u.email = p_new_email) then
    -- Back to the current address: forget a pending change.
    update app.email_changes
       set new_email = null, code_hash = null, expires_at = null, failed_attempts = 0
     where user_id = v_user_id;
    return query select 'same', null::integer;
    return;
  end if;

  -- The account's row first (parallel requests of one account queue here),
  -- then the address's lock: always in this order, as sign-in takes only the
  -- second.
  insert into app.email_changes as e (user_id, last_sent_at, hour_started_at, sends_this_hour)
  values (v_user_id, '-infinity', v_now, 0)
  on conflict (user_id) do nothing;
  select * into v_row from app.email_changes where user_id = v_user_id for update;
  if v_row.code_hash is not null and v_row.last_sent_at > v_now - interval '30 seconds' then
    return query select 'too_soon', greatest(1, ceil(extract(epoch from (v_row.last_sent_at + interval '30 seconds' - v_now))))::integer;
    return;
  end if;
  if v_row.hour_started_at > v_now - interval '1 hour' and v_row.sends_this_hour >= 5 then
    return query select 'too_many', greatest(1, ceil(extract(epoch from (v_row.hour_started_at + interval '1 hour' - v_now))))::integer;
    return;
  end if;

  perform private.lock_address_sends(p_new_email);
  v_wait := private.count_code_send(p_address_limit, p_network_limits);
  if v_wait > 0 then
    return query select 'address_busy', v_wait;
    return;
  end if;

  update app.email_changes e
     set new_email = p_new_email, code_hash = p_code_hash, expires_at = v_now + interval '10 minutes',
         failed_attempts = 0, last_sent_at = v_now,
         hour_started_at = case when e.hour_started_at > v_now - interval '1 hour' then e.hour_started_at else v_now end,
         sends_this_hour = case when e.hour_started_at > v_now - interval '1 hour' then e.sends_this_hour + 1 else 1 end
   where e.user_id = v_user_id;
  return query select 'ok', null::integer;
end;
$$;
comment on function private.request_email_change(text, text, jsonb, jsonb) is
  'Stores a hashed code for moving the signed-in account to p_new_email: (ok | same (already its address) | too_soon (30 s) | too_many (5 per hour per account) | address_busy (the address''s budget for codes it did not ask for), retry_after). Only a sent code counts, on the address and the network (HP429 when the network is full). Never tells whether the address is taken.';
revoke all on function private.request_email_change(text, text, jsonb, jsonb) from public;
grant execute on function private.request_email_change(text, text, jsonb, jsonb) to authenticated;

-- -----------------------------------------------------------------------------
-- private.confirm_email_change -> (outcome 'changed' | 'invalid' | 'taken', old_email)
-- -----------------------------------------------------------------------------
-- Like private.verify_sign_in_code: the row is locked, a wrong code counts
-- (the 5th kills it) and is COMMITTED (never raises for it), a right code is
-- single use. Then the address moves, unless another account has it
-- ('taken'), and every other session of the user ends (the request's own
-- session, claim session_id, stays). p_guess_limits as for sign-in codes
-- (private.sign_in_with_code): refused while full, a wrong code counts.
-- A change leaves an undo behind (app.email_change_undos, the token hashed
-- by the API, p_undo_token_hash) and answers the old address, which the API
-- mails before COMMIT: the owner is always told, or nothing changed.
create function private.confirm_email_change(p_code_hash text, p_guess_limits jsonb, p_undo_token_hash text)
returns table (outcome text, old_email text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := auth.uid();
  v_row app.email_changes;
  v_old_email text;
begin
  if v_user_id is null then
    raise exception using errcode = 'HP401', message = 'Not signed in';
  end if;
  perform private.refuse_when_full(p_guess_limits);
  select * into v_row from app.email_changes where user_id = v_user_id for update;
  if not found
     or v_row.code_hash is null
     or v_row.expires_at <= now()
     or v_row.failed_attempts >= 5 then
    perform private.count_failure(p_guess_limits);
    return query select 'invalid', null::text;
    return;
  end if;

  if not private.secure_equals(v_row.code_hash, p_code_hash) then
    update app.email_changes
       set failed_attempts = failed_attempts + 1,
           code_hash  = case when failed_attempts + 1 >= 5 then null else code_hash end,
           expires_at = case when failed_attempts + 1 >= 5 then null else expires_at end,
           new_email  = case when failed_attempts + 1 >= 5 then null else new_email end
     where user_id = v_user_id;
    perform private.count_failure(p_guess_limits);
    return query select 'invalid', null::text;
    return;
  end if;

  update app.email_changes
     set new_email = null, code_hash = null, expires_at = null, failed_attempts = 0
   where user_id = v_user_id;

  select u.email into v_old_email from app.users u where u.id = v_user_id;
  begin
    update app.users set email = v_row.new_email where id = v_user_id;
  exception
    when unique_violation then
      return query select 'taken', null::text;
      return;
  end;

  delete from app.sessions s
   where s.user_id = v_user_id
     and s.id is distinct from (select private.claimed_session_id());
  perform private.purge_expired_undos();
  insert into app.email_change_undos (token_hash, user_id, old_email, new_email)
  values (p_undo_token_hash, v_user_id, v_old_email, v_row.new_email);
  return query select 'changed', v_old_email;
end;
$$;
comment on function private.confirm_email_change(text, jsonb, text) is
  'Completes the signed-in account''s pending e-mail change when the hashed code is right: changed (with the old address; an undo is stored) | invalid (wrong, expired, none; a wrong try counts, 5 kill it, and counts on p_guess_limits) | taken (another account has the address). A change ends every other session of the user. HP429 while a guess limit is full.';
revoke all on function private.confirm_email_change(text, jsonb, text) from public;
grant execute on function private.confirm_email_change(text, jsonb, text) to authenticated;

-- -----------------------------------------------------------------------------
-- Undoing an e-mail change: the old address is told, and can take it back
-- -----------------------------------------------------------------------------
-- docs/auth-and-guests.md "E-mail change". Each change stores an undo: the
-- SHA-256 of a random token the API mails to the OLD address (in the link's
-- fragment, so no server log or Referer sees it), valid 7 days, single use.
-- private.undo_email_change puts that old address back, ends every session
-- of the account, forgets the devices it signed in from, and drops the
-- pending change and this undo and every later one (a thief who changed the address twice holds the second undo,
-- which must not outlive the owner's). An earlier undo stays: the owner's
-- first link still works if a later one was used first.
create table app.email_change_undos (
  token_hash text primary key,
  user_id    uuid not null references app.users (id) on delete cascade,
  old_email  text not null,
  new_email  text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',

  constraint email_change_undos_token_hash_format check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint email_change_undos_old_email_normalised check (private.is_normalised_email(old_email)),
  constraint email_change_undos_new_email_normalised check (private.is_normalised_email(new_email))
);
comment on table app.email_change_undos is
  'The undo of each e-mail change, by the hash of the token mailed to the old address (7 days, single use). No grants: reached only through private.confirm_email_change / private.undo_email_change.';
create index email_change_undos_user_id_created_at_idx on app.email_change_undos (user_id, created_at);
-- Purged by expiry (private.undo_email_change clears expired ones on the way).
create index email_change_undos_expires_at_idx on app.email_change_undos (expires_at);

-- Housekeeping where undos are added and used: up to 20 expired ones go each
-- time (skipping any another request holds), so they cannot pile up and
-- nothing has to run on a schedule.
create function private.purge_expired_undos()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from app.email_change_undos u
   where u.token_hash in (
     select o.token_hash from app.email_change_undos o
      where o.expires_at <= now() order by o.expires_at limit 20 for update skip locked)
$$;
revoke all on function private.purge_expired_undos() from public;
grant execute on function private.purge_expired_undos() to anon, authenticated;

-- -> (outcome 'undone' | 'invalid' | 'taken', email): invalid for an unknown,
-- used or expired token; taken when another account has the old address now.
create function private.undo_email_change(p_token_hash text)
returns table (outcome text, email text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_undo app.email_change_undos;
begin
  perform private.purge_expired_undos();

  select * into v_undo from app.email_change_undos u
   where u.token_hash = p_token_hash and u.expires_at > now()
   for update;
  if not found then
    return query select 'invalid', null::text;
    return;
  end if;

  begin
    update app.users set email = v_undo.old_email where id = v_undo.user_id;
  exception
    when unique_violation then
      return query select 'taken', null::text;
      return;
  end;
  delete from app.sessions s where s.user_id = v_undo.user_id;
  -- Whoever changed the address may have signed in from devices of their own.
  delete from app.sign_in_devices d where d.user_id = v_undo.user_id;
  delete from app.email_changes c where c.user_id = v_undo.user_id;
  delete from app.email_change_undos u
   where u.user_id = v_undo.user_id and u.created_at >= v_undo.created_at;
  return query select 'undone', v_undo.old_email;
end;
$$;
comment on function private.undo_email_change(text) is
  'Puts back the address an e-mail change replaced, by the hash of the undo token mailed to it: undone (every session ends, the account''s devices are forgotten; this undo and later ones go) | invalid (unknown, used, expired) | taken (another account has the address).';
revoke all on function private.undo_email_change(text) from public;
grant execute on function private.undo_email_change(text) to anon, authenticated;
alter table app.email_changes enable row level security;
create policy email_changes_no_direct_access on app.email_changes
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

alter table app.email_change_undos enable row level security;
create policy email_change_undos_no_direct_access on app.email_change_undos
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

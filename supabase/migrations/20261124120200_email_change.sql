-- =============================================================================
-- Verified e-mail change: a code to the NEW address, confirmed like sign-in.
-- =============================================================================
--
-- Before: PATCH /api/auth/profile set any address at once, and its 409 told
-- anyone which addresses have accounts. Now:
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
-- is pending, at most 5 per hour), counted per account.

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

alter table app.email_changes enable row level security;
create policy email_changes_no_direct_access on app.email_changes
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- The e-mail moves only through private.confirm_email_change: no request role
-- may set it directly any more (names stay editable).
revoke update (email) on app.users from authenticated;

-- -----------------------------------------------------------------------------
-- private.request_email_change -> 'ok' | 'same' | 'too_soon' | 'too_many'
-- -----------------------------------------------------------------------------
-- 'same': the address is already the account's (nothing to confirm, no mail).
-- On 'ok' the new code replaces any earlier one (also for another address).
create function private.request_email_change(p_new_email text, p_code_hash text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
  v_now timestamptz := now();
  v_row app.email_changes;
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
    return 'same';
  end if;

  insert into app.email_changes as e
    (user_id, new_email, code_hash, expires_at, failed_attempts, last_sent_at, hour_started_at, sends_this_hour)
  values
    (v_user_id, p_new_email, p_code_hash, v_now + interval '10 minutes', 0, v_now, v_now, 1)
  on conflict (user_id) do nothing;
  if found then
    return 'ok';
  end if;

  select * into v_row from app.email_changes where user_id = v_user_id for update;
  if v_row.code_hash is not null and v_row.last_sent_at > v_now - interval '30 seconds' then
    return 'too_soon';
  end if;
  if v_row.hour_started_at > v_now - interval '1 hour' then
    if v_row.sends_this_hour >= 5 then
      return 'too_many';
    end if;
    update app.email_changes
       set new_email = p_new_email, code_hash = p_code_hash, expires_at = v_now + interval '10 minutes',
           failed_attempts = 0, last_sent_at = v_now, sends_this_hour = sends_this_hour + 1
     where user_id = v_user_id;
  else
    update app.email_changes
       set new_email = p_new_email, code_hash = p_code_hash, expires_at = v_now + interval '10 minutes',
           failed_attempts = 0, last_sent_at = v_now, hour_started_at = v_now, sends_this_hour = 1
     where user_id = v_user_id;
  end if;
  return 'ok';
end;
$$;
comment on function private.request_email_change(text, text) is
  'Stores a hashed code for moving the signed-in account to p_new_email: ok | same (already its address) | too_soon (30 s) | too_many (5 per hour). Never tells whether the address is taken.';
revoke all on function private.request_email_change(text, text) from public;
grant execute on function private.request_email_change(text, text) to authenticated;

-- -----------------------------------------------------------------------------
-- private.confirm_email_change -> 'changed' | 'invalid' | 'taken'
-- -----------------------------------------------------------------------------
-- Like private.verify_sign_in_code: the row is locked, a wrong code counts
-- (the 5th kills it) and is COMMITTED (never raises for it), a right code is
-- single use. Then the address moves, unless another account has it
-- ('taken'), and every other session of the user ends (the request's own
-- session, claim session_id, stays).
create function private.confirm_email_change(p_code_hash text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
  v_row app.email_changes;
begin
  if v_user_id is null then
    raise exception using errcode = 'HP401', message = 'Not signed in';
  end if;
  select * into v_row from app.email_changes where user_id = v_user_id for update;
  if not found
     or v_row.code_hash is null
     or v_row.expires_at <= now()
     or v_row.failed_attempts >= 5 then
    return 'invalid';
  end if;

  if not private.secure_equals(v_row.code_hash, p_code_hash) then
    update app.email_changes
       set failed_attempts = failed_attempts + 1,
           code_hash  = case when failed_attempts + 1 >= 5 then null else code_hash end,
           expires_at = case when failed_attempts + 1 >= 5 then null else expires_at end,
           new_email  = case when failed_attempts + 1 >= 5 then null else new_email end
     where user_id = v_user_id;
    return 'invalid';
  end if;

  update app.email_changes
     set new_email = null, code_hash = null, expires_at = null, failed_attempts = 0
   where user_id = v_user_id;

  begin
    update app.users set email = v_row.new_email where id = v_user_id;
  exception
    when unique_violation then
      return 'taken';
  end;

  delete from app.sessions s
   where s.user_id = v_user_id
     and s.id is distinct from (select private.claimed_session_id());
  return 'changed';
end;
$$;
comment on function private.confirm_email_change(text) is
  'Completes the signed-in account''s pending e-mail change when the hashed code is right: changed | invalid (wrong, expired, none; a wrong try counts, 5 kill it) | taken (another account has the address). A change ends every other session of the user.';
revoke all on function private.confirm_email_change(text) from public;
grant execute on function private.confirm_email_change(text) to authenticated;

-- =============================================================================
-- Domain: account (auth), the end of what an account or a device reached.
-- Signing out everywhere, deleting an account, and the housekeeping that ends
-- credentials nobody uses any more.
-- =============================================================================
--
-- What a session could reach ends with it
-- (docs/decisions/0080-ending-a-session-ends-what-it-reached.md): a member's
-- push subscriptions belong to the session that gave them (a foreign key with
-- on delete cascade, the notifications file), so every way a session ends
-- (sign-out, sign-out everywhere, an e-mail change confirmed on another device
-- or undone, expiry, the account deleted) ends them in the same statement. The
-- calendar feed is the account's, not a session's: it ends when the member
-- signs out everywhere (below) and when the address changes (the calendar file).
--
-- Deleting an account (docs/decisions/0081-deleting-an-account.md) leaves
-- every plan as the person leaving it would, hands hosting over or deletes
-- what no one else with an account can host, keeps what the person wrote
-- under a neutral name, and deletes the rest with the account row (every
-- table of the person cascades from app.users).
--
-- Nothing kept too long (docs/decisions/0082-nothing-kept-too-long.md): the
-- scheduler's housekeeping deletes sessions past their expiry, guest device
-- credentials unused for 180 days (private.guest_credential_cutoff) and
-- calendar feeds nobody polled for 180 days (private.feed_cutoff); both are
-- refused where they are read from the moment they are over.

-- -----------------------------------------------------------------------------
-- private.sign_out_everywhere: "Sign out everywhere"
-- -----------------------------------------------------------------------------
-- Every session of the caller, this one too (and with them every device's
-- push subscriptions for the account), the devices known to sign-in (their
-- code budgets of their own, the auth file) and the calendar feed: a
-- lost phone, or whoever copied the feed's URL, hears nothing more. The
-- member's next look at the feed's card issues a new URL.
create function private.sign_out_everywhere()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from app.sessions s where s.user_id = (select auth.uid());
  delete from app.sign_in_devices d where d.user_id = (select auth.uid());
  delete from app.calendar_feeds f where f.user_id = (select auth.uid());
$$;
comment on function private.sign_out_everywhere() is
  'Ends every session of the caller (their push subscriptions go with them), forgets the devices known to its sign-in, and ends the caller''s calendar feed.';
revoke all on function private.sign_out_everywhere() from public;
grant execute on function private.sign_out_everywhere() to authenticated;

-- -----------------------------------------------------------------------------
-- private.delete_account: DELETE /api/auth/account
-- -----------------------------------------------------------------------------
-- One statement, the caller's account:
--   * every plan the person hosts is handed to the earliest-joined other
--     member with an account (private.next_host, as leaving does), or, when
--     no one else with an account is in it, deleted (its guests are told,
--     as when a host deletes a plan: the reminders file's trigger);
--   * the ideas and comments the person wrote stay (others voted on and
--     answered them) signed "Deleted account" instead of the person's name;
--   * the account row goes, and with it everything of the person's
--     (cascades): participants rows in every plan (the person leaves them),
--     votes, sessions and their push subscriptions, the calendar feed,
--     interests, pending e-mail changes and their undos, per-plan e-mail
--     opt-outs, Idempotency-Keys, deliveries still owed to the person; and
--     the sign-in code row of the address (keyed by the address, no foreign
--     key).
-- Plans are taken one by one in id order, each under its membership lock
-- (as leaving and removing take it), so a hand-over never races a leave.
-- HP401 without an account (a second delete at the same moment waits for the
-- first on the account's row, then finds nothing).
create function private.delete_account()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user  uuid := auth.uid();
  v_email text;
  v_plan  uuid;
  v_next  uuid;
begin
  select u.email into v_email from app.users u where u.id = v_user for update;
  if v_email is null then
    raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
  end if;

  for v_plan in
    select p.id from app.plans p where p.host_id = v_user order by p.id
  loop
    perform private.lock_plan_membership(v_plan);
    -- Read after the lock: a parallel leave may have changed who is in it.
    v_next := private.next_host(v_plan, v_user);
    if v_next is null then
      delete from app.plans p where p.id = v_plan;
    else
      update app.plans p set host_id = v_next where p.id = v_plan;
    end if;
  end loop;

  update app.ideas i set author_name = 'Deleted account' where i.user_id = v_user;
  update app.idea_comments c set author_name = 'Deleted account' where c.user_id = v_user;
  delete from app.sign_in_codes c where c.email = v_email;
  delete from app.users u where u.id = v_user;
end;
$$;
comment on function private.delete_account() is
  'Deletes the caller''s account: hosted plans handed over (or deleted when no one else has an account), what they wrote signed "Deleted account", everything else of theirs with the account row. HP401 without an account.';
revoke all on function private.delete_account() from public;
grant execute on function private.delete_account() to authenticated;

-- -----------------------------------------------------------------------------
-- private.end_idle_credentials: the scheduler's housekeeping
-- -----------------------------------------------------------------------------
-- Up to p_limit of each: sessions past their expiry (their push
-- subscriptions go with them), guest device credentials no longer live
-- (their push subscriptions too) and calendar feeds no longer in use. Rows
-- another transaction holds are skipped (the next run takes them). Answers
-- how many rows went.
create function private.end_idle_credentials(p_limit integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_sessions    integer;
  v_credentials integer;
  v_feeds       integer;
begin
  delete from app.sessions s
   where s.id in (select o.id from app.sessions o
                   where o.expires_at <= now()
                   order by o.expires_at limit p_limit for update skip locked);
  get diagnostics v_sessions = row_count;

  delete from app.guest_credentials gc
   where (gc.guest_id, gc.secret_hash) in (
     select o.guest_id, o.secret_hash from app.guest_credentials o
      where o.last_used_at <= private.guest_credential_cutoff()
      order by o.last_used_at limit p_limit for update skip locked);
  get diagnostics v_credentials = row_count;

  delete from app.calendar_feeds f
   where f.user_id in (select o.user_id from app.calendar_feeds o
                        where o.last_polled_at <= private.feed_cutoff()
                        order by o.last_polled_at limit p_limit for update skip locked);
  get diagnostics v_feeds = row_count;

  return v_sessions + v_credentials + v_feeds;
end;
$$;
comment on function private.end_idle_credentials(integer) is
  'Scheduler: deletes up to p_limit each of expired sessions, guest device credentials unused too long and calendar feeds nobody polls. Returns how many went.';
revoke all on function private.end_idle_credentials(integer) from public;
grant execute on function private.end_idle_credentials(integer) to service_role;

-- =============================================================================
-- Domain: notifications. Devices that asked to be told (Web Push), the outbox
-- of what happened and who must hear of it, its delivery, the digest of new
-- ideas and comments, and members' per-plan e-mail opt-out
-- (docs/notifications.md). What the host's decisions, reminders and deadlines
-- write to the outbox, and when, is the reminders file's.
-- =============================================================================
--
-- The outbox
--
--   Whatever causes a notification writes it in its own transaction: an event
--   (app.notification_events: the plan, what happened, the text it needs) and
--   one delivery per device and per member's e-mail
--   (app.notification_deliveries), by private.enqueue_notification. Nothing
--   is sent from inside a transaction. After COMMIT the API delivers the new
--   event at once; whatever is left (a push service or the SMTP server was
--   down, the instance died) is retried by the scheduler with back-off.
--
--   Claims (private.claim_deliveries) take due deliveries FOR UPDATE SKIP
--   LOCKED and lease them for a while, so any number of function instances
--   deliver side by side and each delivery is sent by one of them. A sent
--   delivery is deleted (private.finish_deliveries); so is an event with no
--   delivery left.
--
-- Who causes what (all but the digest is the reminders file's)
--
--   * The decisions on app.plans (pick an idea, lock a date, set the time,
--     the place, unlock; the host's or the deadline's auto-lock): the trigger
--     on app.plans notes them in the plan's notice budget
--     (app.plan_notices), so every path that changes a plan is announced and
--     nothing else has to remember to. private.send_plan_notices writes the
--     notice to the outbox when the budget allows: at once (the host's
--     request calls it) or when the window ends (the scheduler), one notice
--     saying what is true then, and none when nothing is new.
--   * Deleting a plan: the trigger, at once (it happens once).
--   * New ideas and comments: private.run_digests, by the scheduler, at most
--     one digest per plan per window, never from the write itself.
--   * Reminders: app.remind_unanswered (the host), private.run_deadlines (a
--     day before the deadline), at most one per plan per window together.
--
-- Everyone is told except whoever caused it; what the scheduler does
-- (nobody's request) is told to everyone concerned.

-- -----------------------------------------------------------------------------
-- app.push_subscriptions: a browser's Web Push subscription.
-- -----------------------------------------------------------------------------
-- A member's belongs to the session (the sign-in on that device) that gave
-- it, and ends with it: signing out, "Sign out everywhere", an e-mail change
-- confirmed on another device or undone, the session's expiry (never sent to
-- once expired), the account deleted
-- (docs/decisions/0080-ending-a-session-ends-what-it-reached.md). A guest's
-- belongs to the guest's device credential (guest_id, secret_hash), and ends
-- with it: removed from the plan, signed out by "That wasn't me", the plan
-- deleted, the device unused too long. One browser (endpoint) may
-- belong to several identities, once each: a phone that is a guest in two
-- plans is told about both. Subscribing again refreshes the keys; a device is
-- told once per event even if it is there twice (private.enqueue_notification).
create table app.push_subscriptions (
  id          uuid primary key default gen_random_uuid(),
  endpoint    text not null,
  -- The browser's P-256 public key (65 bytes) and auth secret (16 bytes),
  -- base64url without padding, checked by the API (RFC 8291).
  p256dh      text not null,
  auth        text not null,
  user_id     uuid references app.users (id) on delete cascade,
  -- The member's session that gave it (with user_id, never without).
  session_id  uuid references app.sessions (id) on delete cascade,
  guest_id    uuid,
  secret_hash text,
  created_at  timestamptz not null default now(),

  constraint push_subscriptions_member_endpoint_key unique (endpoint, user_id),
  constraint push_subscriptions_member_session check ((user_id is null) = (session_id is null)),
  constraint push_subscriptions_guest_endpoint_key unique (endpoint, guest_id),
  constraint push_subscriptions_guest_credential_fkey foreign key (guest_id, secret_hash)
    references app.guest_credentials (guest_id, secret_hash) on delete cascade,
  constraint push_subscriptions_one_owner check (
    num_nonnulls(user_id, guest_id) = 1 and (guest_id is null) = (secret_hash is null)),
  constraint push_subscriptions_endpoint_length check (char_length(endpoint) between 9 and 2048),
  constraint push_subscriptions_keys_format check (
    p256dh ~ '^[A-Za-z0-9_-]{87}$' and auth ~ '^[A-Za-z0-9_-]{22}$')
);
comment on table app.push_subscriptions is
  'Web Push subscriptions of members (user_id) and of guest devices (guest_id, secret_hash). Reached only through private.save_push_subscription, private.delete_push_subscription and the outbox.';

create index push_subscriptions_user_id_idx on app.push_subscriptions (user_id);
-- The cascade when a session ends, and the outbox's "is it still live".
create index push_subscriptions_session_id_idx on app.push_subscriptions (session_id);
create index push_subscriptions_guest_credential_idx on app.push_subscriptions (guest_id, secret_hash);

-- -----------------------------------------------------------------------------
-- app.email_unsubscribes: "no more e-mails about this plan" (one click).
-- -----------------------------------------------------------------------------
create table app.email_unsubscribes (
  user_id    uuid not null references app.users (id) on delete cascade,
  plan_id    uuid not null references app.plans (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint email_unsubscribes_pkey primary key (user_id, plan_id)
);
comment on table app.email_unsubscribes is
  'Members who turned off e-mails about a plan (List-Unsubscribe, RFC 8058). Written only through private.set_plan_emails.';
create index email_unsubscribes_plan_id_idx on app.email_unsubscribes (plan_id);

-- -----------------------------------------------------------------------------
-- The outbox: events and their deliveries.
-- -----------------------------------------------------------------------------
-- An event keeps the plan's title and slug as they were: the plan may be gone
-- when it is delivered ("The host deleted Friday hangout"), so plan_id has no
-- foreign key.
create table app.notification_events (
  id         bigint generated always as identity primary key,
  plan_id    uuid not null,
  kind       text not null,
  plan_title text not null,
  plan_slug  text not null,
  -- What the one line says (the idea, the date, the place, the counts...).
  detail     jsonb not null default '{}',
  created_at timestamptz not null default now(),

  constraint notification_events_kind check (kind in (
    'idea_picked', 'date_locked', 'decided', 'time_set', 'time_changed', 'place_changed',
    'unlocked', 'plan_deleted', 'digest', 'reminder', 'deadline_soon', 'deadline_reached',
    -- The rsvps file's: a waitlisted person promoted (private.promote_waitlist).
    'spot_opened',
    -- docs/decisions/0100-cancelling-a-plan.md, 0102-event-reminders.md
    'plan_cancelled', 'event_reminder', 'rsvp_reminder'))
);
comment on table app.notification_events is
  'What happened to a plan that its people are told of (the outbox); deleted once every delivery is done.';

-- One row per device (push) or member (e-mail). A push delivery carries a copy
-- of where and how to send it: a guest's subscription goes with the plan's
-- guests when the plan is deleted, and "the host deleted the plan" must still
-- reach them. Any other push whose subscription is gone is dropped unsent.
create table app.notification_deliveries (
  id              bigint generated always as identity primary key,
  event_id        bigint not null references app.notification_events (id) on delete cascade,
  channel         text not null,
  -- The recipient: a member (also the e-mail's address) or a guest.
  user_id         uuid references app.users (id) on delete cascade,
  guest_id        uuid,
  subscription_id uuid references app.push_subscriptions (id) on delete set null,
  endpoint        text,
  p256dh          text,
  auth            text,
  -- This recipient's own part of the text (a digest's counts leave out what
  -- the recipient wrote), merged over the event's.
  detail          jsonb,
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- Set by a claim: until then no other instance takes the delivery.
  claimed_until   timestamptz,
  last_error      text,
  created_at      timestamptz not null default now(),

  constraint notification_deliveries_channel check (channel in ('push', 'email')),
  constraint notification_deliveries_push_target check (
    (channel = 'push') = (endpoint is not null and p256dh is not null and auth is not null)),
  constraint notification_deliveries_email_member check (channel = 'push' or user_id is not null)
);
comment on table app.notification_deliveries is
  'One notification still to send to one device (push) or member (e-mail): claimed, sent, then deleted; retried with back-off on failure.';

create index notification_events_plan_id_idx on app.notification_events (plan_id);

create index notification_deliveries_due_idx on app.notification_deliveries (next_attempt_at);
create index notification_deliveries_event_id_idx on app.notification_deliveries (event_id);
create index notification_deliveries_subscription_id_idx on app.notification_deliveries (subscription_id);
create index notification_deliveries_user_id_idx on app.notification_deliveries (user_id);

-- -----------------------------------------------------------------------------
-- app.plan_digests: what the last digest of a plan covered, and when it went.
-- -----------------------------------------------------------------------------
create table app.plan_digests (
  plan_id       uuid primary key references app.plans (id) on delete cascade,
  covered_until timestamptz not null,
  sent_at       timestamptz not null
);
comment on table app.plan_digests is
  'The newest idea or comment the last digest of a plan counted, and when it was sent (one per window).';

-- The digest finds the plans with new ideas or comments by these. BRIN:
-- rows arrive in created_at order, so a block range's summary is all a
-- "since yesterday" scan needs, and a new comment or idea (a hot write) costs
-- next to nothing to index, unlike a b-tree entry per row.
create index ideas_created_at_idx on app.ideas using brin (created_at);
create index idea_comments_created_at_idx on app.idea_comments using brin (created_at);

-- -----------------------------------------------------------------------------
-- private.enqueue_notification: the outbox's one writer.
-- -----------------------------------------------------------------------------
-- p_to: 'everyone' (the plan's participants but p_caused_by, the member who
-- caused it; null: nobody is left out), 'host', or 'unanswered' (who has not
-- voted on anything yet), or 'participant:<id>' (that one participant: the
-- rsvps file's spot_opened), 'attending' (who answered Going or Maybe; each
-- one's answer in its detail: the event reminders) or 'unanswered_rsvp' (who
-- has not answered since the date was set: the host's reminder after the
-- lock). 'unanswered' and 'unanswered_rsvp' never reach the plan's managers,
-- the host and the co-hosts (those private.is_plan_manager lets remind): they
-- are the ones reminding (docs/notifications.md "Who is told what"). Push
-- goes to every device of each
-- recipient; with p_email, members also get an e-mail, unless they turned
-- e-mails about this plan off (the time's e-mail goes to every member,
-- whoever set it). A digest
-- (p_detail {from, until}) counts per recipient the ideas and comments of
-- others, and leaves out whoever has nothing new.
--
-- Returns how many people were reached (with at least one delivery); an event
-- that reaches nobody is not kept.
create function private.enqueue_notification(
  p_plan_id uuid, p_kind text, p_detail jsonb, p_to text, p_email boolean, p_caused_by uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan    app.plans;
  v_event   bigint;
  v_reached integer;
begin
  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found then
    return 0;
  end if;
  insert into app.notification_events (plan_id, kind, plan_title, plan_slug, detail)
  values (p_plan_id, p_kind, v_plan.title, v_plan.slug, coalesce(p_detail, '{}'))
  returning id into v_event;

  with chosen as (
    select pa.user_id, pa.guest_id,
           case when p_kind = 'digest' then jsonb_build_object(
             'ideas', (select count(*) from app.ideas i
                        where i.plan_id = p_plan_id
                          and i.created_at > (p_detail ->> 'from')::timestamptz
                          and i.created_at <= (p_detail ->> 'until')::timestamptz
                          and (pa.user_id is null or i.user_id is distinct from pa.user_id)
                          and (pa.guest_id is null or i.guest_id is distinct from pa.guest_id)),
             'comments', (select count(*) from app.idea_comments c
                           where c.plan_id = p_plan_id
                             and c.created_at > (p_detail ->> 'from')::timestamptz
                             and c.created_at <= (p_detail ->> 'until')::timestamptz
                             and (pa.user_id is null or c.user_id is distinct from pa.user_id)
                             and (pa.guest_id is null or c.guest_id is distinct from pa.guest_id)))
             when p_kind = 'event_reminder' then jsonb_build_object('answer', r.answer)
           end as detail
      from app.participants pa
      -- Who's coming (the rsvps file), for 'attending' and 'unanswered_rsvp'.
      left join app.rsvps r on r.participant_id = pa.id and r.plan_id = pa.plan_id
     where pa.plan_id = p_plan_id
       and case p_to
             when 'everyone' then p_caused_by is null or pa.user_id is distinct from p_caused_by
             when 'host' then pa.user_id = v_plan.host_id
             when 'unanswered' then pa.user_id is distinct from v_plan.host_id and not pa.is_cohost
                                    and not private.has_responded(p_plan_id, pa.user_id, pa.guest_id)
             -- One person (the rsvps file's promotion): 'participant:<participants.id>'.
             when 'attending' then r.answer in ('going', 'maybe')
             when 'unanswered_rsvp' then pa.user_id is distinct from v_plan.host_id and not pa.is_cohost
                                         and r.answer is null
             else p_to = 'participant:' || pa.id::text
           end
  ), recipients as (
    select * from chosen c
     where p_kind <> 'digest' or (c.detail ->> 'ideas')::integer + (c.detail ->> 'comments')::integer > 0
  ), pushes as (
    insert into app.notification_deliveries
      (event_id, channel, user_id, guest_id, subscription_id, endpoint, p256dh, auth, detail)
    select distinct on (s.endpoint) v_event, 'push', r.user_id, r.guest_id, s.id, s.endpoint, s.p256dh, s.auth, r.detail
      from recipients r
      join app.push_subscriptions s on s.user_id = r.user_id or s.guest_id = r.guest_id
     -- A member's device only while its session lives (an expired one waits
     -- for housekeeping to delete it, and hears nothing meanwhile).
     where s.session_id is null
        or exists (select 1 from app.sessions ss where ss.id = s.session_id and ss.expires_at > now())
     order by s.endpoint, s.created_at desc
    returning user_id, guest_id
  ), emails as (
    -- With the recipient's own part of the detail, as the push has it (an
    -- event reminder's answer).
    insert into app.notification_deliveries (event_id, channel, user_id, detail)
    select v_event, 'email', m.user_id, m.detail
      from (select r.user_id, r.detail from recipients r
            union
            -- The time's e-mail carries the calendar invite: every member
            -- gets it, the host who set it too (docs/api.md set-event-time).
            select pa.user_id, null::jsonb from app.participants pa
             where p_kind in ('time_set', 'time_changed') and pa.plan_id = p_plan_id) m
     where p_email
       and m.user_id is not null
       and not exists (select 1 from app.email_unsubscribes u
                        where u.user_id = m.user_id and u.plan_id = p_plan_id)
    returning user_id, guest_id
  )
  select count(distinct coalesce(x.user_id, x.guest_id)) into v_reached
    from (select * from pushes union all select * from emails) x;

  if v_reached = 0 then
    delete from app.notification_events e where e.id = v_event;
  end if;
  return v_reached;
end;
$$;
comment on function private.enqueue_notification(uuid, text, jsonb, text, boolean, uuid) is
  'The outbox''s writer: an event and a delivery per device (and per member''s e-mail) of the chosen people, in the caller''s transaction. Returns how many people it reaches.';
revoke all on function private.enqueue_notification(uuid, text, jsonb, text, boolean, uuid) from public;

-- -----------------------------------------------------------------------------
-- Subscriptions: save and delete (the device's own identity, from the claims).
-- -----------------------------------------------------------------------------
-- A member's subscription is the session's that gives it (the claims'
-- session_id, which the claims statement found live; HP401 without one); a
-- guest's is the device credential's (the claims' guest_id and
-- guest_secret_hash, which the claims statement has checked). The same
-- endpoint given again by another session of the member moves to that
-- session. Beyond p_per_identity the oldest of that identity
-- go (a new phone must not be refused because old browsers never said
-- goodbye); beyond p_per_guest of one guest's devices together the oldest of
-- its restored devices go first, never the joined device's while those last
-- (so no one guest, however many times its name is continued, fills the
-- plan's share: docs/decisions/0084-caps-per-participant.md); beyond
-- p_per_plan devices of one plan's guests the new one is refused (HP409).
create function private.save_push_subscription(
  p_endpoint text, p_p256dh text, p_auth text, p_per_identity integer, p_per_guest integer, p_per_plan integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user   uuid := auth.uid();
  v_guest  uuid := private.claimed_guest_id();
  v_hash   text := case when v_guest is not null then private.jwt_claims() ->> 'guest_secret_hash' end;
  v_session uuid := private.claimed_session_id();
  v_plan   uuid;
begin
  if v_user is null and v_guest is null then
    raise exception using errcode = 'HP401', message = 'Sign in or continue as a guest to turn on notifications';
  end if;
  if v_user is not null then
    v_guest := null;
    v_hash := null;
    if not exists (select 1 from app.sessions ss
                    where ss.id = v_session and ss.user_id = v_user and ss.expires_at > now()) then
      raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
    end if;
  else
    select g.plan_id into v_plan from app.guests g where g.id = v_guest;
    -- One plan's guests at a time (the count must not race past the cap).
    perform private.lock_cap('push_subscriptions', v_plan);
    if (select count(*) from app.push_subscriptions s join app.guests g on g.id = s.guest_id
         where g.plan_id = v_plan and not (s.endpoint = p_endpoint and s.guest_id = v_guest)) >= p_per_plan then
      raise exception using errcode = 'HP409', message = 'Too many devices of this plan have notifications on';
    end if;
  end if;

  if v_user is not null then
    insert into app.push_subscriptions as s (endpoint, p256dh, auth, user_id, session_id)
    values (p_endpoint, p_p256dh, p_auth, v_user, v_session)
    on conflict (endpoint, user_id) do update
       set p256dh = excluded.p256dh, auth = excluded.auth, session_id = excluded.session_id, created_at = now();
  else
    insert into app.push_subscriptions as s (endpoint, p256dh, auth, guest_id, secret_hash)
    values (p_endpoint, p_p256dh, p_auth, v_guest, v_hash)
    on conflict (endpoint, guest_id) do update
       set p256dh = excluded.p256dh, auth = excluded.auth, secret_hash = excluded.secret_hash, created_at = now();
  end if;

  delete from app.push_subscriptions s
   where s.id in (select o.id from app.push_subscriptions o
                   where (v_user is not null and o.user_id = v_user)
                      or (v_guest is not null and o.guest_id = v_guest and o.secret_hash = v_hash)
                   order by o.created_at desc, o.id
                  offset p_per_identity);
  if v_guest is not null then
    delete from app.push_subscriptions s
     where s.id in (select o.id from app.push_subscriptions o
                      join app.guest_credentials gc on gc.guest_id = o.guest_id and gc.secret_hash = o.secret_hash
                     where o.guest_id = v_guest
                     order by gc.kind = 'joined' desc, o.created_at desc, o.id
                    offset p_per_guest);
  end if;
end;
$$;
comment on function private.save_push_subscription(text, text, text, integer, integer, integer) is
  'Saves (or refreshes) the caller''s Web Push subscription: the member''s, or the guest device''s (the oldest beyond p_per_identity, and beyond p_per_guest the oldest of the guest''s restored devices, go). HP401 nobody; HP409 the plan''s guests have too many.';
revoke all on function private.save_push_subscription(text, text, text, integer, integer, integer) from public;
grant execute on function private.save_push_subscription(text, text, text, integer, integer, integer) to anon, authenticated;

-- Only the caller's own (any device of the member, or of the guest): someone
-- else's endpoint is left alone, and the answer is the same either way.
create function private.delete_push_subscription(p_endpoint text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from app.push_subscriptions s
   where s.endpoint = p_endpoint
     and (s.user_id = (select auth.uid()) or s.guest_id = private.claimed_guest_id())
$$;
revoke all on function private.delete_push_subscription(text) from public;
grant execute on function private.delete_push_subscription(text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The scheduler's work (role service_role, docs/notifications.md): digests,
-- and the deliveries that are due (deadlines: the reminders file).
-- -----------------------------------------------------------------------------

-- New ideas and comments, at most one digest per plan per p_window_seconds,
-- once the oldest new one is p_settle_seconds old (a burst goes out as one).
-- The upsert is the claim: of two runs, one moves the plan's row and the
-- other finds it moved (its WHERE fails) and skips the plan.
create function private.run_digests(p_window_seconds integer, p_settle_seconds integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row     record;
  v_claimed uuid;
  v_sent    integer := 0;
begin
  for v_row in
    with activity as (
      select i.plan_id, i.created_at from app.ideas i where i.created_at > now() - interval '1 day'
      union all
      select c.plan_id, c.created_at from app.idea_comments c where c.created_at > now() - interval '1 day'
    )
    select a.plan_id, d.covered_until, max(a.created_at) as newest
      from activity a
      left join app.plan_digests d on d.plan_id = a.plan_id
     where a.created_at > coalesce(d.covered_until, '-infinity')
       and (d.sent_at is null or d.sent_at <= now() - make_interval(secs => p_window_seconds))
     group by a.plan_id, d.covered_until
    having min(a.created_at) <= now() - make_interval(secs => p_settle_seconds)
  loop
    insert into app.plan_digests as d (plan_id, covered_until, sent_at)
    values (v_row.plan_id, v_row.newest, now())
    on conflict (plan_id) do update
       set covered_until = excluded.covered_until, sent_at = excluded.sent_at
     where d.covered_until is not distinct from v_row.covered_until
       and d.sent_at <= now() - make_interval(secs => p_window_seconds)
    returning d.plan_id into v_claimed;
    continue when v_claimed is null;
    v_claimed := null;
    perform private.enqueue_notification(v_row.plan_id, 'digest', jsonb_build_object(
      'from', coalesce(v_row.covered_until, '-infinity'::timestamptz), 'until', v_row.newest), 'everyone', false, null);
    v_sent := v_sent + 1;
  end loop;
  return v_sent;
end;
$$;
comment on function private.run_digests(integer, integer) is
  'Scheduler: one digest of new ideas and comments per plan and window. Returns how many plans got one.';
revoke all on function private.run_digests(integer, integer) from public;
grant execute on function private.run_digests(integer, integer) to service_role;

-- Takes up to p_limit due deliveries (of one plan's events, or any), leased
-- for p_lease_seconds, with what sending them needs. What can no longer be
-- sent (its subscription or its plan is gone, unless it says the plan was
-- deleted) is deleted instead.
create function private.claim_deliveries(p_plan_id uuid, p_limit integer, p_lease_seconds integer)
returns table (
  id bigint, event_id bigint, channel text, endpoint text, p256dh text, auth text, email text, name text,
  user_id uuid, guest_id uuid, plan_id uuid, plan_title text, plan_slug text, kind text,
  detail jsonb, attempts integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- A guest's "the plan was deleted" keeps its copy of where to send (the
  -- guest's subscription went with the plan); a member's subscription that
  -- is gone ended with its session, and hears nothing more.
  delete from app.notification_deliveries d
   using app.notification_events e
   where e.id = d.event_id
     and d.next_attempt_at <= now()
     and (p_plan_id is null or e.plan_id = p_plan_id)
     and ((d.channel = 'push' and d.subscription_id is null and (e.kind <> 'plan_deleted' or d.guest_id is null))
          or (e.kind <> 'plan_deleted' and not exists (select 1 from app.plans p where p.id = e.plan_id)));

  return query
  with due as (
    select d.id from app.notification_deliveries d
     where d.next_attempt_at <= now()
       and (d.claimed_until is null or d.claimed_until < now())
       and (p_plan_id is null
            or d.event_id in (select e.id from app.notification_events e where e.plan_id = p_plan_id))
     order by d.next_attempt_at, d.id
     limit p_limit
     for update skip locked
  ), claimed as (
    update app.notification_deliveries d
       set claimed_until = now() + make_interval(secs => p_lease_seconds),
           attempts = d.attempts + 1
      from due
     where d.id = due.id
    returning d.*
  )
  select c.id, c.event_id, c.channel, c.endpoint, c.p256dh, c.auth, u.email,
         coalesce(pa.name, nullif(concat_ws(' ', u.first_name, u.last_name), ''), g.name),
         c.user_id, c.guest_id, e.plan_id, e.plan_title, e.plan_slug, e.kind,
         e.detail || coalesce(c.detail, '{}'), c.attempts
    from claimed c
    join app.notification_events e on e.id = c.event_id
    left join app.users u on u.id = c.user_id
    left join app.guests g on g.id = c.guest_id
    left join app.participants pa on pa.plan_id = e.plan_id
                                  and (pa.user_id = c.user_id or pa.guest_id = c.guest_id)
   order by c.id;
end;
$$;
comment on function private.claim_deliveries(uuid, integer, integer) is
  'Scheduler and API: leases due deliveries (FOR UPDATE SKIP LOCKED) and returns what sending them needs.';
revoke all on function private.claim_deliveries(uuid, integer, integer) from public;
grant execute on function private.claim_deliveries(uuid, integer, integer) to service_role;

-- What became of claimed deliveries, [{id, outcome, error}]: 'sent' is done;
-- 'failed' cannot succeed (the message could not be built or sent) and is
-- dropped; 'gone' (any 4xx but 429 from the push service: the subscription
-- fails for good) deletes the subscription too;
-- 'retry' waits first * 2^(attempts - 1) seconds, at most p_max_seconds,
-- and is given up once older than p_give_up_seconds. Returns how many were
-- dropped unsent (failed, gone, given up).
create function private.finish_deliveries(
  p_results jsonb, p_first_seconds integer, p_max_seconds integer, p_give_up_seconds integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_events   bigint[];
  v_given_up integer;
begin
  create temporary table if not exists pg_temp.finished (id bigint, outcome text, error text) on commit drop;
  truncate pg_temp.finished;
  insert into pg_temp.finished
  select r.id, r.outcome, left(r.error, 500) from jsonb_to_recordset(p_results) as r(id bigint, outcome text, error text);

  select array_agg(distinct d.event_id) into v_events
    from app.notification_deliveries d join pg_temp.finished f on f.id = d.id;

  delete from app.push_subscriptions s
   using app.notification_deliveries d, pg_temp.finished f
   where f.outcome = 'gone' and d.id = f.id and s.endpoint = d.endpoint;

  update app.notification_deliveries d
     set claimed_until = null,
         last_error = f.error,
         next_attempt_at = now() + make_interval(secs => least(p_max_seconds, p_first_seconds * power(2, least(d.attempts - 1, 20))))
    from pg_temp.finished f
   where f.outcome = 'retry' and d.id = f.id
     and d.created_at > now() - make_interval(secs => p_give_up_seconds);

  with gone as (
    delete from app.notification_deliveries d
     using pg_temp.finished f
     where d.id = f.id
       and (f.outcome in ('sent', 'failed', 'gone') or d.created_at <= now() - make_interval(secs => p_give_up_seconds))
    returning f.outcome
  )
  select count(*) filter (where outcome <> 'sent') into v_given_up from gone;

  delete from app.notification_events e
   where e.id = any (v_events)
     and not exists (select 1 from app.notification_deliveries d where d.event_id = e.id);
  return v_given_up;
end;
$$;
comment on function private.finish_deliveries(jsonb, integer, integer, integer) is
  'Scheduler and API: records what became of claimed deliveries (sent, gone, retry with back-off, given up).';
revoke all on function private.finish_deliveries(jsonb, integer, integer, integer) from public;
grant execute on function private.finish_deliveries(jsonb, integer, integer, integer) to service_role;

-- -----------------------------------------------------------------------------
-- private.set_plan_emails: the one-click unsubscribe (and turning back on).
-- -----------------------------------------------------------------------------
-- Called by the API for a member and plan named by a verified unsubscribe
-- token (an HMAC only the API can make), as service_role. p_on: true turns
-- the plan's e-mails on, false off, null only reads. Answers the plan's title,
-- whether its e-mails are on, and the member's address (the API checks the
-- link was mailed to it, and rolls back when not); no row when the plan or
-- the member is gone.
create function private.set_plan_emails(p_user_id uuid, p_plan_id uuid, p_on boolean)
returns table (plan_title text, emails boolean, email text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_title text;
  v_email text;
begin
  select p.title into v_title from app.plans p where p.id = p_plan_id;
  select u.email into v_email from app.users u where u.id = p_user_id;
  if v_title is null or v_email is null then
    return;
  end if;
  if p_on then
    delete from app.email_unsubscribes u where u.user_id = p_user_id and u.plan_id = p_plan_id;
  elsif not p_on then
    insert into app.email_unsubscribes (user_id, plan_id) values (p_user_id, p_plan_id)
    on conflict do nothing;
  end if;
  return query
  select v_title, not exists (select 1 from app.email_unsubscribes u
                               where u.user_id = p_user_id and u.plan_id = p_plan_id), v_email;
end;
$$;
comment on function private.set_plan_emails(uuid, uuid, boolean) is
  'The unsubscribe link''s work: turns a member''s e-mails about a plan on, off (or only reads), answers the plan''s title, the state and the member''s address.';
revoke all on function private.set_plan_emails(uuid, uuid, boolean) from public;
grant execute on function private.set_plan_emails(uuid, uuid, boolean) to service_role;

-- The same for the signed-in member (the claims' sub), when the link's days
-- are over or the account's address changed since it was mailed: the member
-- signs in and uses the link's page again (docs/api.md "Notifications").
create function private.set_my_plan_emails(p_plan_id uuid, p_on boolean)
returns table (plan_title text, emails boolean)
language sql
volatile
security definer
set search_path = ''
as $$
  select e.plan_title, e.emails
    from private.set_plan_emails((select auth.uid()), p_plan_id, p_on) e
   where (select auth.uid()) is not null
$$;
comment on function private.set_my_plan_emails(uuid, boolean) is
  'private.set_plan_emails for the signed-in member: turns their e-mails about a plan on, off (or only reads); no row when the plan is gone.';
revoke all on function private.set_my_plan_emails(uuid, boolean) from public;
grant execute on function private.set_my_plan_emails(uuid, boolean) to authenticated;

-- -----------------------------------------------------------------------------
-- RLS: nothing of this domain is read or written directly by a request.
-- -----------------------------------------------------------------------------
alter table app.push_subscriptions enable row level security;
alter table app.email_unsubscribes enable row level security;
alter table app.notification_events enable row level security;
alter table app.notification_deliveries enable row level security;
alter table app.plan_digests enable row level security;

create policy push_subscriptions_no_direct_access on app.push_subscriptions
  as restrictive for all to anon, authenticated using (false) with check (false);
create policy email_unsubscribes_no_direct_access on app.email_unsubscribes
  as restrictive for all to anon, authenticated using (false) with check (false);
create policy notification_events_no_direct_access on app.notification_events
  as restrictive for all to anon, authenticated using (false) with check (false);
create policy notification_deliveries_no_direct_access on app.notification_deliveries
  as restrictive for all to anon, authenticated using (false) with check (false);
create policy plan_digests_no_direct_access on app.plan_digests
  as restrictive for all to anon, authenticated using (false) with check (false);

-- The scheduler's role reaches this schema's functions (each granted on its own,
-- above and in the reminders file).
grant usage on schema private to service_role;

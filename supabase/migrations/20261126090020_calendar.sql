-- =============================================================================
-- Domain: calendar, the calendar feed. Each plan's calendar event has a
-- revision that rises whenever the event changes, and each member may have a
-- personal feed of every plan they are in that has a date
-- (docs/calendars.md "Calendar feed").
-- =============================================================================
--
-- docs/decisions/0072-calendar-feed.md. Three parts:
--
--   1. The event's revision: app.plans.calendar_sequence (with
--      calendar_changed_at), raised by the trigger below whenever what a
--      calendar shows of the plan changes (title, picked idea, date, time,
--      place, locked or not). Every .ics of the plan (the e-mailed invite,
--      the download, the feed) carries it as SEQUENCE with the plan's one
--      UID, so a calendar replaces the copy it has instead of adding one.
--
--   2. The feed's credential, app.calendar_feeds: one row per member who
--      opened "Subscribe in your calendar". The feed's URL carries a secret
--      (base64url of HMAC-SHA-256 under a key only the API holds, over the
--      member's id and the row's nonce); the row keeps the nonce, so the API
--      can show the same URL again, and the SHA-256 of the secret, by which
--      the feed is found. Neither reveals the secret without the API's key.
--      Resetting the link replaces both at once: the old URL finds nothing.
--      A feed ends (its row goes, so its URL finds nothing and the next
--      request for the member's link issues a new one) when the member signs
--      out everywhere (the account file), when the account's address changes
--      (confirmed or undone: the trigger below), and when no calendar has
--      polled it for 180 days (private.feed_cutoff; deleted by the
--      scheduler's housekeeping, the account file).
--
--   3. The feed itself, private.calendar_feed: ONE statement per poll. It
--      finds the member by the secret's hash, sums up the member's plans that
--      have a date (ids and calendar sequences) in a tag, the ETag, and builds
--      the events only when the tag is not one the caller already has (the
--      client's copy, or the API instance's): an unchanged poll is two
--      indexed lookups.
--
-- No grants on the table and a deny-all policy: reached only through the
-- definers below (as app.guest_credentials, app.sessions' credentials).

-- -----------------------------------------------------------------------------
-- The event's revision
-- -----------------------------------------------------------------------------
-- BEFORE UPDATE, so the row is written once with its new revision (and the
-- change feed's triggers see one change of the plan). The WHEN clause lists
-- everything the event is built from (contract/calendar.ts buildCalendarEvent
-- and the feed's choice of plans): a picked idea removed by its foreign key
-- (on delete set null) is an update of app.plans too, and counts.
create function private.bump_calendar_sequence()
returns trigger
language plpgsql
volatile
set search_path = ''
as $$
begin
  new.calendar_sequence := old.calendar_sequence + 1;
  new.calendar_changed_at := now();
  return new;
end;
$$;
comment on function private.bump_calendar_sequence() is
  'Trigger: the plan''s calendar event changed; raises its SEQUENCE and notes when.';
revoke all on function private.bump_calendar_sequence() from public;

create trigger plans_bump_calendar_sequence
  before update on app.plans
  for each row
  when ((old.title, old.location, old.event_time, old.time_zone, old.locked_idea_id, old.locked_time_slot_id,
         old.locked_time_slot_date, old.status)
        is distinct from
        (new.title, new.location, new.event_time, new.time_zone, new.locked_idea_id, new.locked_time_slot_id,
         new.locked_time_slot_date, new.status))
  execute function private.bump_calendar_sequence();

-- -----------------------------------------------------------------------------
-- app.calendar_feeds
-- -----------------------------------------------------------------------------
create table app.calendar_feeds (
  user_id     uuid primary key references app.users (id) on delete cascade,
  -- 16 random bytes (base64url) chosen by the API when the link was issued or
  -- reset; the secret is the API's HMAC over the member's id and this.
  nonce       text not null,
  -- Lower-case hex SHA-256 of the URL's secret: how a poll finds its feed.
  secret_hash text not null,
  issued_at   timestamptz not null default now(),
  -- When a calendar last fetched it (to the day: private.calendar_feed
  -- writes it at most once a day), or when it was issued.
  last_polled_at timestamptz not null default now(),

  constraint calendar_feeds_nonce_shape check (nonce ~ '^[A-Za-z0-9_-]{22}$'),
  constraint calendar_feeds_secret_hash_shape check (secret_hash ~ '^[0-9a-f]{64}$'),
  -- Also the index every poll uses.
  constraint calendar_feeds_secret_hash_key unique (secret_hash)
);
comment on table app.calendar_feeds is
  'The personal calendar feed of a member: the nonce its secret is made from and the secret''s SHA-256. No grants: reached only through private.issue_calendar_feed, private.reset_calendar_feed and private.calendar_feed.';

-- The housekeeping's scan for feeds nobody polls.
create index calendar_feeds_last_polled_at_idx on app.calendar_feeds (last_polled_at);

alter table app.calendar_feeds enable row level security;
create policy calendar_feeds_no_direct_access on app.calendar_feeds
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- -----------------------------------------------------------------------------
-- A feed nobody polls ends
-- -----------------------------------------------------------------------------
-- docs/calendars.md "Calendar feed": a feed no calendar fetched for 180 days
-- (or, never polled, issued that long ago) is over: its URL is 404 like a
-- reset one, the member's next look at the link issues a new one, and the
-- scheduler deletes it (private.end_idle_credentials). The one place of the
-- number: a feed last polled before this moment is over.
create function private.feed_cutoff()
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select now() - interval '180 days'
$$;
comment on function private.feed_cutoff() is
  'A calendar feed last polled (or issued) before this moment no longer works (180 days).';
revoke all on function private.feed_cutoff() from public;

-- -----------------------------------------------------------------------------
-- A new address ends the feed
-- -----------------------------------------------------------------------------
-- An e-mail change (confirmed, or undone from the old address) is the moment
-- someone else may have held the account: whatever URL they copied stops at
-- once (docs/decisions/0080-ending-a-session-ends-what-it-reached.md). The
-- member's card then shows a new link.
create function private.end_feed_on_new_address()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  delete from app.calendar_feeds f where f.user_id = new.id;
  return null;
end;
$$;
comment on function private.end_feed_on_new_address() is
  'Trigger: the account''s e-mail address changed; its calendar feed ends (the old URL is 404).';
revoke all on function private.end_feed_on_new_address() from public;

create trigger users_new_address_ends_calendar_feed
  after update of email on app.users
  for each row
  when (old.email is distinct from new.email)
  execute function private.end_feed_on_new_address();

-- -----------------------------------------------------------------------------
-- private.issue_calendar_feed: the member's feed, issued on first use
-- -----------------------------------------------------------------------------
-- GET /api/calendar/feed. The API sends a fresh nonce and the hash of the
-- secret made from it; they are kept only when the member has no feed yet
-- (or one that is no longer in use).
-- Answers the member's nonce and hash (the API makes the URL again from the
-- nonce, and checks the hash: a changed server key shows as a mismatch).
create function private.issue_calendar_feed(p_nonce text, p_secret_hash text)
returns table (nonce text, secret_hash text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null then
    raise exception using errcode = 'HP401', message = 'Not signed in';
  end if;
  -- A feed nobody polled for too long is over: replaced like a first issue.
  insert into app.calendar_feeds as f (user_id, nonce, secret_hash)
  values (v_user, p_nonce, p_secret_hash)
  on conflict (user_id) do update
     set nonce = excluded.nonce, secret_hash = excluded.secret_hash, issued_at = now(), last_polled_at = now()
   where f.last_polled_at <= private.feed_cutoff();
  -- A new statement, so a feed issued at the same moment by another request
  -- (which the insert waited for) is seen.
  return query select f.nonce, f.secret_hash from app.calendar_feeds f where f.user_id = v_user;
end;
$$;
comment on function private.issue_calendar_feed(text, text) is
  'The caller''s calendar feed (nonce, secret hash), issued with the given ones when the caller has none. HP401 without a member.';
revoke all on function private.issue_calendar_feed(text, text) from public;
grant execute on function private.issue_calendar_feed(text, text) to authenticated;

-- -----------------------------------------------------------------------------
-- private.reset_calendar_feed: a new link; the old one stops at once
-- -----------------------------------------------------------------------------
-- POST /api/calendar/feed/rotate (p_replacing null: always). With
-- p_replacing, only when the feed's hash is still that one (the API's repair
-- after its key changed: two requests doing it at once reset it once).
-- Answers the feed as it now is.
create function private.reset_calendar_feed(p_nonce text, p_secret_hash text, p_replacing text)
returns table (nonce text, secret_hash text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null then
    raise exception using errcode = 'HP401', message = 'Not signed in';
  end if;
  insert into app.calendar_feeds as f (user_id, nonce, secret_hash)
  values (v_user, p_nonce, p_secret_hash)
  on conflict (user_id) do update
     set nonce = excluded.nonce, secret_hash = excluded.secret_hash, issued_at = now(), last_polled_at = now()
   where p_replacing is null or f.secret_hash = p_replacing;
  return query select f.nonce, f.secret_hash from app.calendar_feeds f where f.user_id = v_user;
end;
$$;
comment on function private.reset_calendar_feed(text, text, text) is
  'Replaces the caller''s calendar feed secret (when p_replacing is null or still current); answers the feed. HP401 without a member.';
revoke all on function private.reset_calendar_feed(text, text, text) from public;
grant execute on function private.reset_calendar_feed(text, text, text) to authenticated;

-- -----------------------------------------------------------------------------
-- private.calendar_feed: one poll of a feed
-- -----------------------------------------------------------------------------
-- GET /api/calendar/feed/{secret}.ics, as anon with no claims (calendar apps
-- send no credentials: the secret is the credential).
--
--   p_secret_hash  SHA-256 (hex) of the URL's secret
--   p_known        the tags whose text the caller holds: the client's
--                  (If-None-Match) and the API instance's copy; may be empty
--   p_salt         what else the answer depends on (the format, the app's
--                  origin), folded into the tag
--   p_limits       {"miss": {key, max, window, message}, "feed": {...}}
--                  (_shared/db/limits.ts): "miss" is counted per client network
--                  for a secret that finds no feed; "feed" for each time the
--                  events are built, on the key's end the feed's member
--
-- Answers null for a wrong or old secret, or a feed nobody polled for too
-- long (private.feed_cutoff) (the API's 404: the miss counted, so the
-- transaction must commit), {"tag"} when the tag is one of p_known
-- (nothing counted), else {"tag", "events"}: the member's plans that have a
-- date, newest date first, at most 500. HP429 when a limit is full.
create function private.calendar_feed(p_secret_hash text, p_known text[], p_salt text, p_limits jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user   uuid;
  v_polled timestamptz;
  v_tag    text;
begin
  if p_secret_hash is null or p_secret_hash !~ '^[0-9a-f]{64}$' then
    -- The API hashes every secret it passes: a bug, not bad input.
    raise exception 'private.calendar_feed: invalid secret hash';
  end if;

  select f.user_id, f.last_polled_at into v_user, v_polled
    from app.calendar_feeds f where f.secret_hash = p_secret_hash;
  if v_user is null or v_polled <= private.feed_cutoff() then
    perform private.enforce_rate_limits(jsonb_build_array(p_limits -> 'miss'));
    return null;
  end if;
  -- In use: noted to the day, so a feed polled every hour writes once a day.
  if v_polled < now() - interval '1 day' then
    update app.calendar_feeds f set last_polled_at = now() where f.user_id = v_user;
  end if;

  -- The member's plans with a date (participants by user_id, plans by key).
  -- The link each event carries is in the tag too: a reset link or the
  -- member's becoming host changes it without a new calendar revision.
  -- The member's answer too (docs/decisions/0101-calendars-follow-the-answer.md):
  -- a plan answered Can't go is not in the feed, Maybe is TENTATIVE; an
  -- answer changes the feed without a new calendar revision.
  select md5(coalesce(p_salt, '') || '|' ||
             coalesce(string_agg(p.id::text || '.' || p.calendar_sequence || '.' ||
                                 coalesce(private.plan_link_for(p.slug, p.is_open_invite, p.host_id, v_user), '') || '.' ||
                                 coalesce(r.answer, ''),
                                 ',' order by p.id), ''))
    into v_tag
    from app.participants pa
    join app.plans p on p.id = pa.plan_id
    left join app.rsvps r on r.participant_id = pa.id and r.plan_id = pa.plan_id
   where pa.user_id = v_user and p.locked_time_slot_date is not null
     and r.answer is distinct from 'no';
  if v_tag = any(coalesce(p_known, '{}')) then
    return jsonb_build_object('tag', v_tag);
  end if;

  perform private.enforce_rate_limits(jsonb_build_array(
    jsonb_set(p_limits -> 'feed', '{key}', to_jsonb((p_limits #>> '{feed,key}') || v_user::text))));

  return jsonb_build_object('tag', v_tag, 'events', (
    select coalesce(jsonb_agg(x.event order by x.date desc, x.id), '[]'::jsonb)
      from (
        select p.id, p.locked_time_slot_date as date,
               jsonb_build_object(
                 'planId', p.id,
                 -- Null when the member may not see the link (closed
                 -- invitations, docs/decisions/0086): the event links /plan/{id}.
                 'slug', private.plan_link_for(p.slug, p.is_open_invite, p.host_id, v_user),
                 'title', p.title,
                 'ideaText', i.text,
                 'location', p.location,
                 'date', p.locked_time_slot_date,
                 'eventTime', p.event_time,
                 'timeZone', p.time_zone,
                 'period', ts.period,
                 -- docs/decisions/0101-calendars-follow-the-answer.md: a
                 -- cancelled plan is CANCELLED; Maybe (and the waitlist, not
                 -- yet going) TENTATIVE.
                 'status', case when p.status = 'cancelled' then 'CANCELLED'
                                when r.answer in ('maybe', 'waitlist') then 'TENTATIVE'
                                else 'CONFIRMED' end,
                 'sequence', p.calendar_sequence,
                 'changedAt', extract(epoch from date_trunc('second', p.calendar_changed_at))::bigint) as event
          from app.participants pa
          join app.plans p on p.id = pa.plan_id
          left join app.ideas i on i.id = p.locked_idea_id
          left join app.time_slots ts on ts.id = p.locked_time_slot_id
          left join app.rsvps r on r.participant_id = pa.id and r.plan_id = pa.plan_id
         where pa.user_id = v_user and p.locked_time_slot_date is not null
           and r.answer is distinct from 'no'
         order by p.locked_time_slot_date desc, p.id
         limit 500
      ) x));
end;
$$;
comment on function private.calendar_feed(text, text[], text, jsonb) is
  'One poll of a calendar feed by its secret''s hash: null (unknown: counted per network), {tag} (a known one), or {tag, events}. HP429 over a limit.';
revoke all on function private.calendar_feed(text, text[], text, jsonb) from public;
grant execute on function private.calendar_feed(text, text[], text, jsonb) to anon;

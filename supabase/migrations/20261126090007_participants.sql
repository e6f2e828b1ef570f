-- =============================================================================
-- Domain: plans and the people in them. Plans, guests and their device
-- credentials, participants, the membership helpers every policy is built on,
-- and the rules that change who is in a plan (joining, leaving, a guest's
-- first write as a member).
-- =============================================================================
--
-- Who may read a plan: whoever holds its link. The API proves "holds the link"
-- by putting the plan id (claim plan_id) or slug (claim plan_slug) that the URL
-- names into the request's claims. Without such a claim one sees only the
-- plans one takes part in (or hosts), so plans cannot be listed or searched.
--
-- Who may write: participants, i.e. a signed-in member (participants.user_id =
-- auth.uid()) or a guest of the plan (participants.guest_id = claim guest_id).

-- -----------------------------------------------------------------------------
-- app.plans
-- -----------------------------------------------------------------------------
create table app.plans (
  id                    uuid primary key default gen_random_uuid(),
  -- The public link /l/{slug}. Random and unguessable (the link is the only
  -- "secret" of a plan): by default 12 base64url characters of a fresh v4 uuid
  -- (~68 random bits), built from built-ins only (no pgcrypto). The API may pass
  -- its own slug instead; the check keeps it URL-safe and long enough.
  slug                  text not null
                          default rtrim(substr(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), 1, 12), '='),
  title                 text not null,
  description           text,
  is_open_invite        boolean not null default true,
  status                text not null default 'planning',
  -- restrict: an account that hosts plans cannot silently orphan them.
  host_id               uuid not null references app.users (id) on delete restrict,
  location              text,
  event_time            text,
  -- The IANA zone of the browser that set event_time ('Europe/Berlin'):
  -- event_time is the host's wall clock there, and every calendar file of the
  -- plan carries that instant (docs/decisions/0074). Null: a floating time.
  time_zone             text,
  locked_idea_id        uuid,   -- FK added with app.ideas (ideas_and_comments)
  locked_time_slot_id   uuid,   -- FK added with app.time_slots (dates_and_time_slots)
  locked_time_slot_date date,
  -- "Decide by" (docs/api.md "Notifications"): set by the host through
  -- app.set_deadline; the scheduler reminds the people who have not answered
  -- a day before (deadline_reminded_at), and at the deadline tells the host
  -- where things stand or, with auto_lock, locks the leaders
  -- (deadline_closed_at). Both marks are cleared when the deadline changes.
  deadline              timestamptz,
  auto_lock             boolean not null default false,
  deadline_reminded_at  timestamptz,
  deadline_closed_at    timestamptz,
  -- The host's last "Remind them" (app.remind_unanswered: one per window).
  reminded_at           timestamptz,
  -- The calendar event's revision (the calendar feed's domain): the SEQUENCE
  -- of every .ics of the plan and of the personal feed, and when the event
  -- last changed. Raised by the trigger plans_bump_calendar_sequence whenever
  -- the event's title, idea, date, time or place changes; never by a client.
  calendar_sequence     integer not null default 0,
  calendar_changed_at   timestamptz not null default now(),
  created_at            timestamptz not null default now(),
  updated_at            timestamptz not null default now(),

  constraint plans_slug_key unique (slug),
  constraint plans_slug_format check (slug ~ '^[A-Za-z0-9_-]{8,64}$'),
  -- Text limits of docs/api.md "Ideas, comments, votes", measured after trimming (the API trims; the
  -- database refuses what slipped through, the API maps 23514 to 400).
  constraint plans_title_length check (char_length(btrim(title)) between 1 and 120),
  constraint plans_description_length check (description is null or char_length(btrim(description)) <= 2000),
  constraint plans_location_length check (location is null or char_length(btrim(location)) <= 500),
  -- date_locked is a legacy reading of the same state as time_range_locked: it
  -- is accepted (never written by our rules) so old data stays valid.
  constraint plans_status_valid check (status in ('planning', 'time_range_locked', 'date_locked', 'completed')),
  -- event_time is the 12-hour text the client shows, e.g. '7:00 PM'.
  constraint plans_event_time_format check (event_time is null or event_time ~ '^(1[0-2]|[1-9]):[0-5][0-9] (AM|PM)$'),
  -- A zone name as contract/zoned-time.ts TIME_ZONE_NAME has it (the API checks that the zone exists),
  -- and only with a time.
  constraint plans_time_zone_format check (time_zone is null or time_zone ~ '^[A-Za-z][A-Za-z0-9_+/-]{0,63}$'),
  constraint plans_time_zone_with_time check (time_zone is null or event_time is not null),
  -- The lock flow's invariants (see app.lock_date / app.set_event_time):
  constraint plans_locked_status_has_date check (
    status = 'planning' or locked_time_slot_date is not null),
  constraint plans_completed_has_time check (
    status <> 'completed' or (locked_time_slot_id is not null and event_time is not null)),
  constraint plans_calendar_sequence_not_negative check (calendar_sequence >= 0)
);
comment on table app.plans is
  'A gathering. Readable by link holders (claim plan_id/plan_slug) and participants; written by its host.';

create index plans_host_id_idx on app.plans (host_id);
-- The scheduler's deadlines still to act on (private.run_deadlines).
create index plans_open_deadline_idx on app.plans (deadline) where deadline_closed_at is null;

create trigger plans_set_updated_at
  before update on app.plans
  for each row execute function private.set_updated_at();

grant select on app.plans to anon, authenticated;
grant insert, delete on app.plans to authenticated;
-- id, slug, timestamps and the calendar sequence are not editable.
grant update (title, description, is_open_invite, status, host_id, location, event_time, time_zone,
              locked_idea_id, locked_time_slot_id, locked_time_slot_date,
              deadline, auto_lock, deadline_reminded_at, deadline_closed_at, reminded_at)
  on app.plans to authenticated;

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
-- app.participants
-- -----------------------------------------------------------------------------
create table app.participants (
  id        uuid primary key default gen_random_uuid(),
  plan_id   uuid not null references app.plans (id) on delete cascade,
  user_id   uuid references app.users (id) on delete cascade,
  guest_id  uuid,
  -- Set by trigger from the user's display name / the guest's name, so that it
  -- is always right whatever the caller sends.
  name      text not null,
  joined_at timestamptz not null default now(),

  constraint participants_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint participants_one_identity check (num_nonnulls(user_id, guest_id) = 1),
  -- 254: a display name can be a whole e-mail local part (e-mails are <= 254).
  constraint participants_name_length check (char_length(name) between 1 and 254),
  -- No double joins (the API inserts with `on conflict do nothing`).
  constraint participants_plan_id_user_id_key unique (plan_id, user_id),
  constraint participants_guest_id_plan_id_key unique (guest_id, plan_id)
);
comment on table app.participants is
  'Who takes part in a plan: members (user_id) and guests (guest_id). The host is always one of them.';

-- "My plans" (GET /api/plans) and private.my_plan_ids() look up by user_id.
create index participants_user_id_idx on app.participants (user_id);

grant select, delete on app.participants to anon, authenticated;
-- Not joined_at: an earlier join time would jump the queue for the host
-- hand-over. name is listed because the API may send one; the trigger
-- overwrites it.
grant insert (id, plan_id, user_id, guest_id, name) on app.participants to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Membership helpers (SECURITY DEFINER)
-- -----------------------------------------------------------------------------
-- Why definer: the policies of app.participants (and of every table that asks
-- "is the caller a participant?") must read app.participants. An invoker
-- helper would re-enter the participants policies and recurse forever. These
-- helpers only ever answer about the CALLER (auth.uid() / claim guest_id), so
-- bypassing RLS inside them reveals nothing about others. They live in
-- `private` (not exposed) with `search_path = ''`.

-- Two EXISTS, not "user_id = me or guest_id = me": each is one lookup on its
-- unique key, (plan_id, user_id) or (guest_id, plan_id), which no single
-- index answers for the OR.
create function private.is_participant(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
           select 1 from app.participants pa
            where pa.plan_id = p_plan_id and pa.user_id = (select auth.uid()))
      or exists (
           select 1 from app.participants pa
            where pa.guest_id = (select private.claimed_guest_id()) and pa.plan_id = p_plan_id)
$$;
comment on function private.is_participant(uuid) is
  'True when the caller (auth.uid() or claim guest_id) has a participants row in the plan.';
revoke all on function private.is_participant(uuid) from public;
grant execute on function private.is_participant(uuid) to anon, authenticated;


-- The plans the caller takes part in or hosts. Policies use it as
-- `plan_id in (select private.my_plan_ids())`: an uncorrelated sub-select that
-- PostgreSQL evaluates once per statement (hashed subplan), instead of a
-- function call per row.
create function private.my_plan_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
rows 10
as $$
  select pa.plan_id from app.participants pa
   where pa.user_id = (select auth.uid())
  union
  select pa.plan_id from app.participants pa
   where pa.guest_id = (select private.claimed_guest_id())
  union
  select p.id from app.plans p
   where p.host_id = (select auth.uid())
$$;
comment on function private.my_plan_ids() is
  'Ids of the plans the caller (auth.uid() or claim guest_id) participates in or hosts.';

revoke all on function private.my_plan_ids() from public;
grant execute on function private.my_plan_ids() to anon, authenticated;

create function private.can_read_plan(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  -- coalesce: without a plan_id claim the comparison is NULL, and NULL must
  -- mean "no" here (callers write `if not private.can_read_plan(...)`).
  select coalesce(p_plan_id = (select private.claimed_plan_id()), false)
      or coalesce(p_plan_id in (select private.my_plan_ids()), false)
$$;
comment on function private.can_read_plan(uuid) is
  'True when the request names the plan (claim plan_id) or the caller participates in / hosts it.';
revoke all on function private.can_read_plan(uuid) from public;
grant execute on function private.can_read_plan(uuid) to anon, authenticated;
-- The public link names a plan by its slug. Holding the link is exactly what
-- lets someone look at a plan (docs/api.md "Plans"), so a request for
-- /api/plans/slug/{slug} is given the same plan_id claim as one naming the
-- plan's id: the API resolves it in the claims statement, like it does for
-- an idea or a time slot. Then the plan JSON read by slug is the same as the
-- one read by id (e.g. the picked idea's text, which the ideas policy shows
-- only to holders of the plan id).
create function private.plan_id_of_slug(p_slug text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from app.plans p where p.slug = p_slug
$$;

comment on function private.plan_id_of_slug(text) is
  'Plan of a public slug (null if unknown), for the plan_id claim of /api/plans/slug/{slug} requests.';

revoke all on function private.plan_id_of_slug(text) from public;
grant execute on function private.plan_id_of_slug(text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The participant count of a plan read by its slug
-- -----------------------------------------------------------------------------
-- Every plan JSON carries participantCount (docs/api.md "Plans"). A caller
-- who holds only the slug (GET /api/plans/slug/{slug}, claim plan_slug) may
-- read the plan row (plans_select_* policies) but not its participants rows:
-- those policies know only the plan_id claim, on purpose (the slug claim is
-- for this one read). Counting through RLS would answer 0 there.
--
-- private.plan_participant_count answers the count for a plan the caller can
-- read by any means (claim plan_id, claim plan_slug of that plan, host, or
-- participant), and null for any other plan, so it reveals nothing that the
-- caller could not read anyway (the plan JSON, including its id, is readable
-- by the same caller, and with the id the participants are readable too).
--
-- SECURITY DEFINER: it must count rows the participants policies hide from a
-- slug-only caller. It reads nothing but the count, about the plan it is
-- asked for, after the readability check. search_path = '' and qualified names.
create function private.plan_participant_count(p_plan_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case
           when exists (
                  select 1 from app.plans p
                   where p.id = p_plan_id
                     and (p.id = (select private.claimed_plan_id())
                          or p.slug = (select private.claimed_plan_slug())
                          or p.host_id = (select auth.uid())))
             or private.is_participant(p_plan_id)
           then (select count(*)::integer from app.participants pa where pa.plan_id = p_plan_id)
         end
$$;
comment on function private.plan_participant_count(uuid) is
  'Number of participants of a plan the caller can read (claim plan_id/plan_slug, host, participant); null otherwise.';

revoke all on function private.plan_participant_count(uuid) from public;
grant execute on function private.plan_participant_count(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Closed invitations: who sees the link, who may join (is_open_invite = false)
-- -----------------------------------------------------------------------------
-- docs/decisions/0086-closed-invitations-on-the-server.md. A plan's id
-- travels further than its link (/plan/{id} URLs, e-mails, the calendar
-- feed), and with open invitations holding either is holding the plan
-- (docs/decisions/0010). With invitations closed, the link (the slug) is
-- the host's to give: it is shown only to the host, and joining needs it.
-- Reading by id stays as it is (0010): closing invitations closes the door,
-- not the windows.

-- The slug a reader of the plan is shown: the host, anyone when invitations
-- are open, and a request that came by that very slug (claim plan_slug: it
-- holds the link already); null for everyone else. p_viewer is the member
-- who reads (auth.uid() for a request; the feed's member for the calendar
-- feed, which reads with no claims).
create function private.plan_link_for(p_slug text, p_is_open_invite boolean, p_host_id uuid, p_viewer uuid)
returns text
language sql
stable
set search_path = ''
as $$
  select case
           when p_is_open_invite or p_host_id = p_viewer or p_slug = private.claimed_plan_slug() then p_slug
         end
$$;
comment on function private.plan_link_for(text, boolean, uuid, uuid) is
  'The plan''s slug as p_viewer may see it: always with open invitations, else only for the host or a request that named the slug; null otherwise.';
revoke all on function private.plan_link_for(text, boolean, uuid, uuid) from public;
grant execute on function private.plan_link_for(text, boolean, uuid, uuid) to anon, authenticated;

-- Whether the caller may become a participant of the plan (a member joining,
-- a new guest, a device continuing as a guest by name): always with open
-- invitations; with closed ones only the host or a request that carries the
-- plan's current slug (claim plan_slug: the join page sends the link it was
-- opened with). A plan the caller cannot see yet (the host's own row, in
-- the statement that creates the plan) is not refused here.
-- Definer: it answers about the caller's own request, whatever the plans
-- policies show it.
create function private.may_join_plan(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not exists (
    select 1 from app.plans p
     where p.id = p_plan_id
       and not p.is_open_invite
       and p.host_id is distinct from (select auth.uid())
       and p.slug is distinct from (select private.claimed_plan_slug()))
$$;
comment on function private.may_join_plan(uuid) is
  'True unless the plan''s invitations are closed and the caller is neither its host nor holding its current slug (claim plan_slug).';
revoke all on function private.may_join_plan(uuid) from public;
grant execute on function private.may_join_plan(uuid) to anon, authenticated;

-- The refusal the rules answer before joining someone (ensure_writer,
-- ensure_participant, issue_guest_credential), so that no insert reaches
-- the policies that would refuse it less readably.
create function private.require_plan_link(p_plan_id uuid)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.may_join_plan(p_plan_id) then
    raise exception using errcode = 'HP403', message = 'Only people with the host''s link can join this plan';
  end if;
end;
$$;
comment on function private.require_plan_link(uuid) is
  'HP403 unless the caller may join the plan (private.may_join_plan).';
revoke all on function private.require_plan_link(uuid) from public;
grant execute on function private.require_plan_link(uuid) to anon, authenticated;

-- "Reset link" (POST /api/plans/{id}/rotate-link): the host gives the plan a
-- new random slug (the column's default), and the old one names no plan
-- from then on. Everyone already in keeps their access: members go by the
-- plan's id, guests by their device credentials, and a guest's device learns
-- the new slug from its own session (GET /api/guest-session/{id}).
-- Definer: the slug is not in anyone's update grant. It checks once, as the
-- host's other definers do (private.require_plan_host, below): readable
-- (HP404), the caller hosts it (HP403); the update names the host again, so
-- a hand-over at the same moment leaves the link alone.
create function private.reset_plan_link(p_plan_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_host_id uuid := private.require_plan_host(p_plan_id, 'Only the host can reset the plan''s link');
begin
  update app.plans p set slug = default where p.id = p_plan_id and p.host_id = v_host_id;
end;
$$;
comment on function private.reset_plan_link(uuid) is
  'The host gives the plan a new random slug; the old one stops naming it. HP404 unreadable plan, HP403 not the host.';
revoke all on function private.reset_plan_link(uuid) from public;
grant execute on function private.reset_plan_link(uuid) to authenticated;

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
-- RLS: plans
-- -----------------------------------------------------------------------------
alter table app.plans enable row level security;

create policy plans_select_anon on app.plans
  for select to anon
  using (
    id = (select private.claimed_plan_id())
    or slug = (select private.claimed_plan_slug())
    or id in (select private.my_plan_ids())
  );

-- The host clause lets `insert ... returning` work before the creator's
-- participants row exists (RETURNING needs the new row to be selectable).
create policy plans_select_authenticated on app.plans
  for select to authenticated
  using (
    id = (select private.claimed_plan_id())
    or slug = (select private.claimed_plan_slug())
    or host_id = (select auth.uid())
    or id in (select private.my_plan_ids())
  );

-- A new plan starts in the planning state with nothing locked.
create policy plans_insert_authenticated on app.plans
  for insert to authenticated
  with check (
    host_id = (select auth.uid())
    and status = 'planning'
    and locked_idea_id is null
    and locked_time_slot_id is null
    and locked_time_slot_date is null
    and event_time is null
  );

-- Only the host edits. The new row may name another host (hand-over in
-- app.leave_plan); the trigger plans_check_new_host makes sure that one is a
-- member of the plan.
create policy plans_update_host on app.plans
  for update to authenticated
  using (host_id = (select auth.uid()))
  with check (
    host_id = (select auth.uid())
    -- (qualified: inside the sub-select a bare `id` would be participants.id)
    or host_id in (select pa.user_id from app.participants pa where pa.plan_id = plans.id)
  );

create policy plans_delete_host on app.plans
  for delete to authenticated
  using (host_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- RLS: guests
-- -----------------------------------------------------------------------------
alter table app.guests enable row level security;

-- Link holders and participants see a plan's guests (check-guest, voters).
-- A guest also sees itself by its own id: GET /api/guest-session/{guestId}
-- names no plan.
create policy guests_select_anon on app.guests
  for select to anon
  using (
    plan_id = (select private.claimed_plan_id())
    or id = (select private.claimed_guest_id())
    or plan_id in (select private.my_plan_ids())
  );

create policy guests_select_authenticated on app.guests
  for select to authenticated
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

-- POST /api/guest-session {name, planId}: anon, into the plan the request names.
create policy guests_insert_anon on app.guests
  for insert to anon
  with check (plan_id = (select private.claimed_plan_id()) and private.may_join_plan(plan_id));

-- A guest leaving its plan (app.leave_plan) removes itself.
create policy guests_delete_self on app.guests
  for delete to anon
  using (id = (select private.claimed_guest_id()));

alter table app.guest_credentials enable row level security;
-- No grants and an explicit deny-all policy (as app.sign_in_codes): no request
-- role may read a hash or write a credential directly.
create policy guest_credentials_no_direct_access on app.guest_credentials
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- -----------------------------------------------------------------------------
-- RLS: participants
-- -----------------------------------------------------------------------------
alter table app.participants enable row level security;

create policy participants_select_anon on app.participants
  for select to anon
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

create policy participants_select_authenticated on app.participants
  for select to authenticated
  using (
    plan_id = (select private.claimed_plan_id())
    or plan_id in (select private.my_plan_ids())
  );

-- A signed-in user joins itself to a plan it can read (holds the link) or
-- hosts (right after creating it); with closed invitations only by the
-- plan's slug (private.may_join_plan).
create policy participants_insert_authenticated on app.participants
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and guest_id is null
    and (plan_id = (select private.claimed_plan_id())
         or plan_id in (select private.my_plan_ids()))
    and private.may_join_plan(plan_id)
  );

-- Leaving: only one's own row (the host's row is protected by trigger).
create policy participants_delete_anon on app.participants
  for delete to anon
  using (guest_id = (select private.claimed_guest_id()));

create policy participants_delete_authenticated on app.participants
  for delete to authenticated
  using (user_id = (select auth.uid()));
create policy participants_insert_anon on app.participants
  for insert to anon
  with check (
    user_id is null
    and guest_id is not null
    and plan_id = (select private.claimed_plan_id())
    and private.may_join_as_guest(guest_id)
  );

-- And the other direction: host_id may only move to a member (a participant
-- with an account) of the plan. Definer for the same reason as above.
create function private.plans_check_new_host()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
       select 1 from app.participants pa
        where pa.plan_id = new.id and pa.user_id = new.host_id) then
    raise exception using errcode = 'HP409',
      message = 'The new host must be a member of the plan';
  end if;
  return new;
end;
$$;
revoke all on function private.plans_check_new_host() from public;

create trigger plans_check_new_host
  before update of host_id on app.plans
  for each row
  when (new.host_id is distinct from old.host_id)
  execute function private.plans_check_new_host();

-- The host must stay a participant: deleting the host's own participants row
-- (directly, not through app.leave_plan which hands the plan over first) is
-- refused. When the whole plan is being deleted the plan row is already gone,
-- so the cascade passes. Definer: reads app.plans whatever the caller sees.
create function private.participants_protect_host()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.user_id is not null and exists (
       select 1 from app.plans p where p.id = old.plan_id and p.host_id = old.user_id) then
    raise exception using errcode = 'HP409',
      message = 'The host cannot leave without handing the plan over';
  end if;
  return old;
end;
$$;
revoke all on function private.participants_protect_host() from public;

create trigger participants_protect_host
  before delete on app.participants
  for each row execute function private.participants_protect_host();

-- -----------------------------------------------------------------------------
-- Triggers keeping names right and the host a member
-- -----------------------------------------------------------------------------

-- participants.name is derived, never trusted from the caller: a member's
-- display name (spec §3), a guest's guest name. Definer: a guest's insert must
-- read app.guests / a member's insert app.users whatever the caller's RLS
-- allows; it reads only the row being joined.
create function private.participants_set_name()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.user_id is not null then
    select private.display_name(u.first_name, u.last_name, u.email)
      into new.name
      from app.users u where u.id = new.user_id;
  elsif new.guest_id is not null then
    select btrim(g.name) into new.name from app.guests g where g.id = new.guest_id;
  end if;
  return new;
end;
$$;
revoke all on function private.participants_set_name() from public;

create trigger participants_set_name
  before insert or update of user_id, guest_id on app.participants
  for each row execute function private.participants_set_name();

-- A member's participants.name follows profile edits. Definer: the user has no
-- UPDATE on app.participants (nobody does), this trigger is the only writer.
create function private.users_sync_participant_names()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update app.participants pa
     set name = private.display_name(new.first_name, new.last_name, new.email)
   where pa.user_id = new.id
     and pa.name is distinct from private.display_name(new.first_name, new.last_name, new.email);
  return null;
end;
$$;
revoke all on function private.users_sync_participant_names() from public;

create trigger users_sync_participant_names
  after update of first_name, last_name, email on app.users
  for each row execute function private.users_sync_participant_names();

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
-- Leaving a plan (with host hand-over)
-- -----------------------------------------------------------------------------

-- Both rules change "who is in the plan". They serialise per plan on a
-- transaction-scoped advisory lock, so e.g. the last two participants leaving
-- at the same moment cannot both see "someone else is still here" and leave
-- an empty plan behind. (pg_advisory_xact_lock is callable by any role and is
-- released at commit/rollback.)
create function private.lock_plan_membership(p_plan_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('hangplan.plan_membership:' || p_plan_id::text, 0))
$$;
revoke all on function private.lock_plan_membership(uuid) from public;
grant execute on function private.lock_plan_membership(uuid) to anon, authenticated;

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
-- the change feed (part participants, trigger in the change feed's file), so
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

-- -----------------------------------------------------------------------------
-- Who hosts next: the earliest-joined member with an account
-- -----------------------------------------------------------------------------
-- When the host leaves (app.leave_plan) or deletes the account
-- (private.delete_account): the earliest-joined (joined_at, id) participant
-- with an account other than p_leaving; null when only guests would remain.
create function private.next_host(p_plan_id uuid, p_leaving uuid)
returns uuid
language sql
stable
set search_path = ''
as $$
  select pa.user_id
    from app.participants pa
   where pa.plan_id = p_plan_id
     and pa.user_id is not null
     and pa.user_id <> p_leaving
   order by pa.joined_at, pa.id
   limit 1
$$;
comment on function private.next_host(uuid, uuid) is
  'The member who hosts the plan once p_leaving is gone: the earliest-joined other participant with an account, or null.';
revoke all on function private.next_host(uuid, uuid) from public;
grant execute on function private.next_host(uuid, uuid) to authenticated;

-- -----------------------------------------------------------------------------
-- app.leave_plan -> planDeleted
-- -----------------------------------------------------------------------------
-- docs/api.md "Leaving and deleting": the last participant leaving deletes the plan. A host who
-- leaves hands the host role to the earliest-joined remaining member with an
-- account; if only guests would remain: HP409.
-- Also: the leaver's votes in the plan are removed (someone who left is no
-- longer part of the group's decision); ideas and comments they wrote stay,
-- signed with their name. A guest who leaves is deleted altogether (its id is
-- its only credential and is of no use outside this plan).
--
-- SECURITY INVOKER: every write is one the caller's RLS allows (own votes, own
-- participants row / own guest, host hands over to a member and deletes its
-- own plan). The protect-host and new-host triggers of app.participants /
-- app.plans keep the invariants even for direct writes.
create function app.leave_plan(p_plan_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id     uuid := (select auth.uid());
  v_guest_id    uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan        app.plans;
  v_me          app.participants;
  v_others      integer;
  v_next_host   uuid;
begin
  -- Lock first, read after: a leaver that waited for a parallel leaver must
  -- see who hosts NOW (it may just have been handed the plan).
  perform private.lock_plan_membership(p_plan_id);

  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;

  select * into v_me from app.participants pa
   where pa.plan_id = p_plan_id
     and ((v_user_id is not null and pa.user_id = v_user_id)
          or (v_guest_id is not null and pa.guest_id = v_guest_id));
  if not found then
    raise exception using errcode = 'HP403', message = 'You are not a participant of this plan';
  end if;
  if v_guest_id is not null then
    -- Leaving deletes the guest: not from a device that only knew its name.
    perform private.require_joining_device(v_guest_id);
  end if;

  select count(*) into v_others
    from app.participants pa
   where pa.plan_id = p_plan_id and pa.id <> v_me.id;

  if v_others = 0 then
    -- Last one out. The host is always a participant, so this is the host,
    -- whom the delete policy allows. Everything cascades.
    delete from app.plans p where p.id = p_plan_id;
    if not found then
      raise exception using errcode = 'HP403', message = 'Only the host can delete the plan';
    end if;
    return true;
  end if;

  if v_plan.host_id = v_user_id then
    v_next_host := private.next_host(p_plan_id, v_user_id);
    if v_next_host is null then
      raise exception using errcode = 'HP409',
        message = 'Delete the plan instead: no one else with an account can host it';
    end if;
    update app.plans p set host_id = v_next_host where p.id = p_plan_id;
  end if;

  if v_user_id is not null then
    delete from app.idea_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.time_slot_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.participants pa where pa.id = v_me.id;
  else
    -- Cascades to the participants row and the guest's votes.
    delete from app.guests g where g.id = v_guest_id;
  end if;
  return false;
end;
$$;
comment on function app.leave_plan(uuid) is
  'Removes the caller (and its votes) from the plan; returns true when it was the last one and the plan was deleted. A leaving host hands over to the earliest-joined member, else HP409.';

revoke all on function app.leave_plan(uuid) from public;
grant execute on function app.leave_plan(uuid) to anon, authenticated;

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
-- Deny-all, no grants: read and written only by the definers of this section
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
-- private.require_plan_host: the moderation definers' one check of the caller
-- -----------------------------------------------------------------------------
-- For definers (which see every plan): HP404 'Plan not found' for a plan the
-- caller cannot read (unknown and unreadable look the same), then HP403
-- p_denied unless the caller hosts it. Answers the host's id.
create function private.require_plan_host(p_plan_id uuid, p_denied text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_host_id uuid;
begin
  select p.host_id into v_host_id from app.plans p where p.id = p_plan_id;
  if v_host_id is null or not private.can_read_plan(p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  if v_host_id is distinct from (select auth.uid()) then
    raise exception using errcode = 'HP403', message = p_denied;
  end if;
  return v_host_id;
end;
$$;
comment on function private.require_plan_host(uuid, text) is
  'HP404 unless the caller can read the plan, HP403 p_denied unless it hosts it; the host''s id. For the moderation definers.';
-- Called only inside definers, so no request role needs it.
revoke all on function private.require_plan_host(uuid, text) from public;

-- -----------------------------------------------------------------------------
-- The host removes someone (moderation)
-- -----------------------------------------------------------------------------
-- docs/decisions/0065-moderation.md. The host may remove any participant but
-- themselves: what the person wrote goes with them (their ideas, with the
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
-- the checks itself, once: the plan is readable, the caller is its host, the
-- participant is of this plan and is not the host. Serialised with leaving
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
  if v_target.user_id = v_host_id then
    raise exception using errcode = 'HP409',
      message = 'You host this plan: hand it over by leaving, or delete the plan instead';
  end if;

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
  'app.remove_participant''s rule, as a definer that checks once: readable plan (HP404), the caller hosts it (HP403), the participant is of the plan (HP404) and not the host (HP409). Removes the participant with their ideas, comments and votes, and keeps the removal (app.plan_removals).';
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

-- -----------------------------------------------------------------------------
-- Who may write in a plan: the checks every idea, comment and vote rule makes
-- -----------------------------------------------------------------------------
-- A signed-in user who is not yet a participant is joined on first write
-- (docs/api.md "Plans"); a guest must be a guest OF THIS plan. The rules
-- that write ideas, comments and votes are PL/pgSQL functions because of
-- that join: inside one plain statement the insert's policy could not see the
-- participants row the same statement just added, while each statement of a
-- function takes a new snapshot and does.
--
-- SECURITY INVOKER: the join is an insert the caller's own RLS allows (it can
-- read the plan), so these add rules and readable errors and grant nothing.
-- HP401 is not in the shared HP4xx mapping of _shared/errors.ts; the idea
-- routes map it to 401 themselves.

-- For ideas and comments: HP401 p_denied for no identity (or a guest without
-- its row), HP403 'This guest belongs to another plan', HP401 'Your session
-- has expired...' for a token whose account no longer exists. A member who is
-- already a participant (nearly every write) is found by one lookup; only a
-- first write inserts.
create function private.ensure_writer(p_plan_id uuid, p_denied text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id    uuid := (select auth.uid());
  v_guest_id   uuid;
  v_guest_plan uuid;
begin
  if v_user_id is not null then
    -- Already a participant: nearly every write. (The row exists only while
    -- the account does: participants cascade with users.)
    if exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      return;
    end if;
    -- The users policy shows the caller its own row: a token of a deleted
    -- account is a dead session, not a foreign-key error further down.
    if not exists (select 1 from app.users u where u.id = v_user_id) then
      raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
    end if;
    -- Joined on first write, unless invitations are closed (the plan's id is
    -- not its link); the name is derived by trigger (participants_set_name).
    perform private.require_plan_link(p_plan_id);
    insert into app.participants (plan_id, user_id, name)
    values (p_plan_id, v_user_id, '-')
    on conflict do nothing;
    return;
  end if;

  -- A guest of this plan (every guest who writes): one lookup.
  v_guest_id := (select private.claimed_guest_id());
  if v_guest_id is not null
     and exists (select 1 from app.participants pa where pa.guest_id = v_guest_id and pa.plan_id = p_plan_id) then
    return;
  end if;
  if v_guest_id is not null then
    -- A guest sees its own row by its claim, whatever plan it belongs to.
    select g.plan_id into v_guest_plan from app.guests g where g.id = v_guest_id;
    if v_guest_plan is not null and v_guest_plan <> p_plan_id then
      raise exception using errcode = 'HP403', message = 'This guest belongs to another plan';
    end if;
  end if;
  raise exception using errcode = 'HP401', message = p_denied;
end;
$$;
comment on function private.ensure_writer(uuid, text) is
  'Joins a signed-in caller to the plan if needed (HP403 when its invitations are closed); HP403 for a guest of another plan; HP401 p_denied unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_writer(uuid, text) from public;
grant execute on function private.ensure_writer(uuid, text) to anon, authenticated;

-- For votes: the same join on first write; anyone else who is not a
-- participant gets HP403 'Please join the plan first to vote'.
create function private.ensure_participant(p_plan_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
begin
  if v_user_id is not null then
    if not exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      -- Joined on first vote, unless invitations are closed; the name is
      -- derived by trigger (participants_set_name).
      perform private.require_plan_link(p_plan_id);
      insert into app.participants (plan_id, user_id, name)
      values (p_plan_id, v_user_id, '-')
      on conflict do nothing;
    end if;
  elsif not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP403', message = 'Please join the plan first to vote';
  end if;
end;
$$;
comment on function private.ensure_participant(uuid) is
  'Joins a signed-in caller to the plan if needed (HP403 when its invitations are closed); raises HP403 unless an anonymous caller is a guest of the plan.';
revoke all on function private.ensure_participant(uuid) from public;
grant execute on function private.ensure_participant(uuid) to anon, authenticated;

-- =============================================================================
-- Domain: plans. A plan: its row, its link (the slug: who is shown it, who
-- may join by it with closed invitations, the host resetting it), and the
-- host's check its definers share.
-- =============================================================================
--
-- Who may read a plan: whoever holds its link. The API proves "holds the link"
-- by putting the plan id (claim plan_id) or slug (claim plan_slug) that the URL
-- names into the request's claims. Without such a claim one sees only the
-- plans one takes part in (or hosts), so plans cannot be listed or searched.
--
-- Who may write: participants, i.e. a signed-in member (participants.user_id =
-- auth.uid()) or a guest of the plan (participants.guest_id = claim guest_id).
--
-- The policies of app.plans are in the participants file, after the
-- membership helpers they are built on: PostgreSQL needs app.participants and
-- private.my_plan_ids() before a policy can name them.

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
  locked_idea_id        uuid,   -- FK added with app.ideas (the ideas file)
  locked_time_slot_id   uuid,   -- FK added with app.time_slots (the dates file)
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
  -- The calendar event's revision (the calendar file): the SEQUENCE
  -- of every .ics of the plan and of the personal feed, and when the event
  -- last changed. Raised by the trigger plans_bump_calendar_sequence whenever
  -- the event's title, idea, date, time or place changes; never by a client.
  calendar_sequence     integer not null default 0,
  calendar_changed_at   timestamptz not null default now(),
  -- Spots (the rsvps file; docs/api-after-the-date.md "Who's coming"): how many people may
  -- come, counting the friends they bring (null: no limit), and how many
  -- friends one person may bring. Written only by private.set_capacity.
  capacity              integer,
  max_plus_ones         integer not null default 2,
  -- Cancelled by the host (the lock file's app.cancel_plan; docs/decisions/0100):
  -- what the host said, if anything, and when. Both cleared by unlocking.
  cancel_message        text,
  cancelled_at          timestamptz,
  -- Event reminders (the reminders file's private.run_event_reminders;
  -- docs/decisions/0102-event-reminders.md): when the day-before and the
  -- about-two-hours-before reminders went (or their moment passed). Cleared
  -- by the trigger plans_clear_event_reminders when the date or time changes.
  event_day_reminded_at  timestamptz,
  event_soon_reminded_at timestamptz,
  -- "Show details in link previews" (the previews file; docs/decisions/0105-link-previews.md):
  -- the card a chat shows for /l/{slug} names the plan; off, the generic card.
  -- Written only by private.set_preview_details (the host).
  preview_details       boolean not null default true,
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
  constraint plans_status_valid check (status in ('planning', 'time_range_locked', 'date_locked', 'completed', 'cancelled')),
  -- event_time is the 12-hour text the client shows, e.g. '7:00 PM'.
  constraint plans_event_time_format check (event_time is null or event_time ~ '^(1[0-2]|[1-9]):[0-5][0-9] (AM|PM)$'),
  -- A zone name as contract/zoned-time.ts TIME_ZONE_NAME has it (the API checks that the zone exists),
  -- and only with a time.
  constraint plans_time_zone_format check (time_zone is null or time_zone ~ '^[A-Za-z][A-Za-z0-9_+/-]{0,63}$'),
  constraint plans_time_zone_with_time check (time_zone is null or event_time is not null),
  -- The lock flow's invariants (see app.lock_date / app.set_event_time):
  constraint plans_locked_status_has_date check (
    status in ('planning', 'cancelled') or locked_time_slot_date is not null),
  constraint plans_completed_has_time check (
    status <> 'completed' or (locked_time_slot_id is not null and event_time is not null)),
  constraint plans_calendar_sequence_not_negative check (calendar_sequence >= 0),
  -- contract/rsvps.ts CAPACITY_MAX and PLUS_ONES_MAX (docs/decisions/0096).
  constraint plans_capacity_range check (capacity is null or capacity between 1 and 1000),
  constraint plans_max_plus_ones_range check (max_plus_ones between 0 and 10),
  -- A cancelled plan says when; only a cancelled plan carries a message.
  constraint plans_cancelled_has_time check ((status = 'cancelled') = (cancelled_at is not null)),
  constraint plans_cancel_message_only_cancelled check (cancel_message is null or status = 'cancelled'),
  constraint plans_cancel_message_length check (
    cancel_message is null or char_length(btrim(cancel_message)) between 1 and 500)
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
              deadline, auto_lock, deadline_reminded_at, deadline_closed_at, reminded_at,
              cancel_message, cancelled_at)
  on app.plans to authenticated;

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

-- -----------------------------------------------------------------------------
-- private.require_plan_host: the host's definers' one check of the caller
-- -----------------------------------------------------------------------------
-- For definers (which see every plan): HP404 'Plan not found' for a plan the
-- caller cannot read (unknown and unreadable look the same), then HP403
-- p_denied unless the caller runs it: its host or a co-host
-- (private.is_plan_manager, docs/decisions/0098-cohosts.md). Answers the
-- host's id. Used by resetting the link (below, which then asks for the host
-- alone) and by the host's removal of someone (the participant_removals file).
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
  if v_host_id is distinct from (select auth.uid()) and not private.is_plan_manager(p_plan_id) then
    raise exception using errcode = 'HP403', message = p_denied;
  end if;
  return v_host_id;
end;
$$;
comment on function private.require_plan_host(uuid, text) is
  'HP404 unless the caller can read the plan, HP403 p_denied unless it hosts it or co-hosts it; the host''s id. For the moderation definers.';
-- Called only inside definers, so no request role needs it.
revoke all on function private.require_plan_host(uuid, text) from public;

-- "Reset link" (POST /api/plans/{id}/rotate-link): the host gives the plan a
-- new random slug (the column's default), and the old one names no plan
-- from then on. Everyone already in keeps their access: members go by the
-- plan's id, guests by their device credentials, and a guest's device learns
-- the new slug from its own session (GET /api/guest-session/{id}).
-- Definer: the slug is not in anyone's update grant. It checks once, as the
-- host's other definers do (private.require_plan_host, above): readable
-- (HP404), the caller hosts it (HP403: the link stays the host's alone, not
-- a co-host's, as it is the host's to show with closed invitations:
-- docs/decisions/0099-what-stays-the-hosts.md); the update names the host
-- again, so a hand-over at the same moment leaves the link alone.
create function private.reset_plan_link(p_plan_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_denied  text := 'Only the host can reset the plan''s link';
  v_host_id uuid := private.require_plan_host(p_plan_id, v_denied);
begin
  if v_host_id is distinct from (select auth.uid()) then
    raise exception using errcode = 'HP403', message = v_denied;
  end if;
  update app.plans p set slug = default where p.id = p_plan_id and p.host_id = v_host_id;
end;
$$;
comment on function private.reset_plan_link(uuid) is
  'The host gives the plan a new random slug; the old one stops naming it. HP404 unreadable plan, HP403 not the host.';
revoke all on function private.reset_plan_link(uuid) from public;
grant execute on function private.reset_plan_link(uuid) to authenticated;

-- The host is always a member: host_id may only move to a participant with
-- an account (the hand-over in app.leave_plan), and the participants file
-- keeps the host's own row from going (participants_protect_host). Only the
-- host hands the plan over: a co-host, whom the UPDATE policy lets edit the
-- plan, may not take it or give it away (docs/decisions/0099-what-stays-the-hosts.md;
-- a request's caller is known, the owner's maintenance has none). The new
-- host stops being a co-host: it hosts now. Definer: it reads and writes
-- app.participants whatever the caller's row security shows.
create function private.plans_check_new_host()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is distinct from old.host_id and auth.uid() is not null then
    raise exception using errcode = 'HP403', message = 'Only the host can hand the plan over';
  end if;
  update app.participants pa set is_cohost = false
   where pa.plan_id = new.id and pa.user_id = new.host_id and pa.is_cohost;
  if not found and not exists (
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

-- -----------------------------------------------------------------------------
-- private.refuse_cancelled_plan: a cancelled plan is frozen
-- -----------------------------------------------------------------------------
-- docs/decisions/0100-cancelling-a-plan.md. Nobody votes, suggests,
-- comments or answers on a cancelled plan, and the host's decisions but
-- unlocking (which reopens it) wait too: HP409 with contract/common.ts
-- PLAN_CANCELLED. Called by every write rule through ensure_writer and
-- ensure_participant (the participants file) and by private.plan_for_host,
-- every host action's check but unlocking (the lock file). Definer: one
-- look at the plan's row by its key, whatever the caller's row security
-- would make of it. Deleting what one
-- wrote, leaving and deleting the plan stay open.
create function private.refuse_cancelled_plan(p_plan_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from app.plans p where p.id = p_plan_id and p.status = 'cancelled') then
    raise exception using errcode = 'HP409', message = 'This plan was cancelled.';
  end if;
end;
$$;
comment on function private.refuse_cancelled_plan(uuid) is
  'HP409 ''This plan was cancelled.'' when the plan is cancelled (its writes are frozen until the host unlocks it).';
revoke all on function private.refuse_cancelled_plan(uuid) from public;
grant execute on function private.refuse_cancelled_plan(uuid) to anon, authenticated;

-- =============================================================================
-- Domain: reminders (notifications). Who has answered, each plan's notice
-- budget (what its people were last told of its decisions, and when they may
-- be told again), the host's reminder, and the deadline with what the
-- scheduler does at it (docs/notifications.md). Each writes through the
-- notifications file's outbox (private.enqueue_notification).
-- =============================================================================

-- -----------------------------------------------------------------------------
-- private.has_responded: voted on at least one idea or date of the plan, or
-- said none of its dates work (the dates file's app.no_dates).
-- -----------------------------------------------------------------------------
-- Definer: whoever reads the participants list sees everyone's answer, not
-- only the votes RLS shows the caller.
create function private.has_responded(p_plan_id uuid, p_user_id uuid, p_guest_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from app.idea_votes v
                  where v.plan_id = p_plan_id and (v.user_id = p_user_id or v.guest_id = p_guest_id))
      or exists (select 1 from app.time_slot_votes v
                  where v.plan_id = p_plan_id and (v.user_id = p_user_id or v.guest_id = p_guest_id))
      or exists (select 1 from app.participants pa join app.no_dates n on n.participant_id = pa.id and n.plan_id = pa.plan_id
                  where pa.plan_id = p_plan_id and (pa.user_id = p_user_id or pa.guest_id = p_guest_id))
$$;
comment on function private.has_responded(uuid, uuid, uuid) is
  'True when the member (user id) or guest has voted on an idea or a date of the plan, or said none of its dates work.';
revoke all on function private.has_responded(uuid, uuid, uuid) from public;
grant execute on function private.has_responded(uuid, uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.plan_notice_detail: what a notice about the plan's decisions says.
-- -----------------------------------------------------------------------------
create function private.plan_notice_detail(p_plan app.plans)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'ideaText', (select i.text from app.ideas i where i.id = p_plan.locked_idea_id),
    'date', p_plan.locked_time_slot_date,
    'eventTime', p_plan.event_time,
    'timeZone', p_plan.time_zone,
    'period', (select ts.period from app.time_slots ts where ts.id = p_plan.locked_time_slot_id),
    'location', p_plan.location,
    -- The host's words when cancelling (docs/decisions/0100-cancelling-a-plan.md).
    'cancelMessage', p_plan.cancel_message,
    -- The .ics of the time's e-mail carries it (the calendar feed's domain).
    'calendarSequence', p_plan.calendar_sequence,
    -- A new date reset answers (the rsvps file): the notice asks again.
    'askAgain', exists (select 1 from app.rsvps r
                         where r.plan_id = p_plan.id and r.answer is null and r.ask_again))
$$;
revoke all on function private.plan_notice_detail(app.plans) from public;

-- -----------------------------------------------------------------------------
-- The plan's notice budget: what its people were last told of its decisions.
-- -----------------------------------------------------------------------------
-- A host looping a change (the place; unlock, lock and time) must not e-mail
-- and push everyone each time (docs/notifications.md "The notice budget",
-- docs/decisions/0078-one-notice-budget-per-plan.md). Nothing the host does
-- is refused for it: the change always applies, only the notice waits. One
-- row per plan that changed since it was created:
--
--   * told_*: what the last notice said (before the first one: the plan as it
--     was before its first change), in the shape private.plan_notice_state
--     gives a plan;
--   * quiet_until: no notice before this (the last one plus the window, which
--     the API passes; null: none sent yet);
--   * pending_since, caused_by: since when a change waits that told_* does
--     not say yet, and the member who made it (null: nobody, i.e. the
--     deadline's auto-lock, or more than one).
--
-- The trigger below sets pending_since at a change that makes the plan differ
-- from what was told, and clears it when a change makes the plan what was
-- told again (nobody hears of a round trip). private.send_plan_notices writes
-- the one notice, built from the plan as it is when it goes.
create table app.plan_notices (
  plan_id         uuid primary key references app.plans (id) on delete cascade,
  -- As app.plans: the status, the picked idea, the locked date (null while
  -- planning), the time and its zone (null unless completed), the place.
  told_status     text not null,
  told_idea_id    uuid,
  told_date       date,
  told_event_time text,
  told_time_zone  text,
  told_location   text,
  quiet_until     timestamptz,
  pending_since   timestamptz,
  caused_by       uuid
);
comment on table app.plan_notices is
  'Each plan''s notice budget: what its people were last told of its decisions, until when no notice goes, and whether a change waits. Reached only through its trigger and private.send_plan_notices.';

-- The scheduler's pass takes the plans whose notice waits (few at any time).
create index plan_notices_pending_idx on app.plan_notices (pending_since) where pending_since is not null;

-- What a notice about the plan's decisions describes, as a row of
-- app.plan_notices (only plan_id and told_* set).
create function private.plan_notice_state(p_plan app.plans)
returns app.plan_notices
language sql
immutable
set search_path = ''
as $$
  select p_plan.id, p_plan.status, p_plan.locked_idea_id,
         case when p_plan.status <> 'planning' then p_plan.locked_time_slot_date end,
         case when p_plan.status = 'completed' then p_plan.event_time end,
         case when p_plan.status = 'completed' then p_plan.time_zone end,
         p_plan.location, null::timestamptz, null::timestamptz, null::uuid
$$;
revoke all on function private.plan_notice_state(app.plans) from public;

-- What the people who were told p_told must hear to know p_now: the most
-- telling kind, or null when nothing they were told is out of date (an idea
-- un-picked alone is not news). A cancelled plan is told that alone, once
-- (docs/decisions/0100-cancelling-a-plan.md); reopened, it is 'unlocked'.
create function private.plan_notice_kind(p_told app.plan_notices, p_now app.plan_notices)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_now.told_status = 'cancelled' then
    case when p_told.told_status <> 'cancelled' then 'plan_cancelled' end
  else coalesce(
    case
      when p_now.told_status = 'planning' then
        case when p_told.told_status <> 'planning' then 'unlocked' end
      when p_now.told_status = 'completed' then
        case when p_told.told_status <> 'completed' then 'time_set'
             when (p_told.told_date, p_told.told_event_time, p_told.told_time_zone)
                  is distinct from (p_now.told_date, p_now.told_event_time, p_now.told_time_zone) then 'time_changed'
        end
      -- A date locked without a time yet.
      when p_told.told_status in ('planning', 'completed') or p_told.told_date is distinct from p_now.told_date then
        case when p_now.told_idea_id is not null and p_now.told_idea_id is distinct from p_told.told_idea_id
             then 'decided' else 'date_locked' end
    end,
    case when p_now.told_idea_id is not null and p_now.told_idea_id is distinct from p_told.told_idea_id then 'idea_picked' end,
    case when p_now.told_location is distinct from p_told.told_location then 'place_changed' end)
  end
$$;
revoke all on function private.plan_notice_kind(app.plan_notices, app.plan_notices) from public;

-- Every change of a plan's decisions is noted in its budget; deleting the
-- plan is told at once (it happens once). The time is here too: its e-mail
-- carries the .ics.
create function private.announce_plan_change()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_actor uuid := auth.uid();
  v_told  app.plan_notices;
begin
  if tg_op = 'DELETE' then
    perform private.enqueue_notification(old.id, 'plan_deleted', '{}', 'everyone', true, v_actor);
    return old;
  end if;

  insert into app.plan_notices select * from private.plan_notice_state(old) on conflict (plan_id) do nothing;
  select * into v_told from app.plan_notices n where n.plan_id = new.id for update;
  if private.plan_notice_kind(v_told, private.plan_notice_state(new)) is null then
    update app.plan_notices n set pending_since = null, caused_by = null
     where n.plan_id = new.id and n.pending_since is not null;
  else
    update app.plan_notices n
       set caused_by = case when n.pending_since is null or n.caused_by = v_actor then v_actor end,
           pending_since = coalesce(n.pending_since, now())
     where n.plan_id = new.id;
  end if;
  return null;
end;
$$;
revoke all on function private.announce_plan_change() from public;

create trigger plans_announce_change
  after update on app.plans
  for each row
  when (old.status is distinct from new.status
        or old.locked_idea_id is distinct from new.locked_idea_id
        or old.locked_time_slot_date is distinct from new.locked_time_slot_date
        or old.event_time is distinct from new.event_time
        or old.time_zone is distinct from new.time_zone
        or old.location is distinct from new.location)
  execute function private.announce_plan_change();

-- BEFORE the delete: the participants are still there to be told.
create trigger plans_announce_delete
  before delete on app.plans
  for each row execute function private.announce_plan_change();

-- Writes the waiting notice of one plan (the host's request, right after its
-- change, in its transaction) or of every plan (p_plan_id null: the
-- scheduler) when the budget allows: no notice went out in the last
-- p_window_seconds, and a date the host locked has had that long to get its
-- time (the usual next step: then the one notice is the time's, with its
-- .ics). The notice says what is true now: its kind from what the people
-- were told (private.plan_notice_kind), its text the plan as it is, and
-- whether the place changed too. E-mail goes with the decisions that end
-- voting and whatever changes what members were e-mailed (the time). A
-- notice that reaches nobody does not start a window. Rows are taken FOR
-- UPDATE SKIP LOCKED, so each notice is written once however many run this.
-- Returns how many notices were written.
create function private.send_plan_notices(p_plan_id uuid, p_window_seconds integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_told app.plan_notices;
  v_plan app.plans;
  v_now  app.plan_notices;
  v_kind text;
  v_sent integer := 0;
begin
  for v_told in
    select * from app.plan_notices n
     where n.pending_since is not null
       and (p_plan_id is null or n.plan_id = p_plan_id)
       and (n.quiet_until is null or n.quiet_until <= now())
     order by n.pending_since
     for update skip locked
  loop
    select * into v_plan from app.plans p where p.id = v_told.plan_id;
    v_now := private.plan_notice_state(v_plan);
    continue when v_told.caused_by is not null
              and v_now.told_status not in ('planning', 'completed', 'cancelled')
              and v_told.pending_since > now() - make_interval(secs => p_window_seconds);

    v_kind := private.plan_notice_kind(v_told, v_now);
    if v_kind is null then
      update app.plan_notices n set pending_since = null, caused_by = null where n.plan_id = v_plan.id;
      continue;
    end if;
    v_now.quiet_until := v_told.quiet_until;
    if private.enqueue_notification(v_plan.id, v_kind,
         private.plan_notice_detail(v_plan)
           || jsonb_build_object('placeChanged', v_now.told_location is distinct from v_told.told_location),
         'everyone',
         v_kind in ('time_set', 'time_changed', 'decided', 'plan_cancelled')
           or 'completed' in (v_told.told_status, v_now.told_status),
         v_told.caused_by) > 0 then
      v_now.quiet_until := now() + make_interval(secs => p_window_seconds);
      v_sent := v_sent + 1;
    end if;
    update app.plan_notices n
       set told_status = v_now.told_status, told_idea_id = v_now.told_idea_id, told_date = v_now.told_date,
           told_event_time = v_now.told_event_time, told_time_zone = v_now.told_time_zone,
           told_location = v_now.told_location, quiet_until = v_now.quiet_until,
           pending_since = null, caused_by = null
     where n.plan_id = v_plan.id;
  end loop;
  return v_sent;
end;
$$;
comment on function private.send_plan_notices(uuid, integer) is
  'The host''s request (its plan) and the scheduler (every plan): writes each waiting notice the budget allows to the outbox, saying what is true now. Returns how many were written.';
revoke all on function private.send_plan_notices(uuid, integer) from public;
grant execute on function private.send_plan_notices(uuid, integer) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- private.send_reminder: the outbox writer a host's request may call.
-- -----------------------------------------------------------------------------
-- The request role cannot call private.enqueue_notification (it would let any
-- caller notify any plan); this definer can only remind, and only for the
-- plan's host or a co-host (private.is_plan_manager). While voting is open it
-- reminds who has not voted; once a date is locked, who has not answered
-- whether they are coming (rsvp_reminder; docs/decisions/0102-event-reminders.md).
create function private.send_reminder(p_plan_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  select p.status into v_status from app.plans p where p.id = p_plan_id and private.is_plan_manager(p.id);
  if not found then
    raise exception using errcode = 'HP403', message = 'Only the host can send reminders';
  end if;
  if v_status = 'planning' then
    return private.enqueue_notification(p_plan_id, 'reminder', '{}', 'unanswered', true, null);
  end if;
  return private.enqueue_notification(p_plan_id, 'rsvp_reminder', '{}', 'unanswered_rsvp', true, null);
end;
$$;
revoke all on function private.send_reminder(uuid) from public;
grant execute on function private.send_reminder(uuid) to authenticated;

-- -----------------------------------------------------------------------------
-- app.remind_unanswered: the host's "Remind them".
-- -----------------------------------------------------------------------------
-- Who has not answered (private.has_responded: no idea or date vote, and not
-- "none of these dates work") gets a reminder (push; members also e-mail); once a date is locked, who has not answered Going, Maybe or
-- Can't go (private.send_reminder). Once per window per plan (HP429,
-- DETAIL = seconds to wait), the deadline's automatic reminder included
-- (private.run_deadlines); a reminder that reaches nobody does not count.
-- Not on a cancelled plan (HP409).
create function app.remind_unanswered(p_plan_id uuid, p_window_seconds integer, p_message text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan    app.plans := private.plan_for_host(p_plan_id, 'Only the host can send reminders');
  v_reached integer;
begin
  perform private.refuse_within_window(v_plan.reminded_at, p_window_seconds, p_message);
  v_reached := private.send_reminder(p_plan_id);
  if v_reached > 0 then
    update app.plans p set reminded_at = now() where p.id = p_plan_id;
  end if;
  return v_reached;
end;
$$;
comment on function app.remind_unanswered(uuid, integer, text) is
  'Host: reminds who has not voted yet (after the lock: not answered); returns how many were reached. HP404/HP403, HP409 cancelled, HP429 within the window.';
revoke all on function app.remind_unanswered(uuid, integer, text) from public;
grant execute on function app.remind_unanswered(uuid, integer, text) to authenticated;

-- -----------------------------------------------------------------------------
-- app.set_deadline: "Decide by", changeable and removable.
-- -----------------------------------------------------------------------------
-- A new deadline starts afresh (its reminder and its closing are still to
-- come). auto_lock null keeps the current choice; no deadline, no auto-lock.
create function app.set_deadline(p_plan_id uuid, p_deadline timestamptz, p_auto_lock boolean)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan app.plans := private.plan_for_host(p_plan_id, 'Only the host can set the deadline');
begin
  if p_deadline is not null then
    if p_deadline <= now() then
      raise exception using errcode = 'HP400', message = 'The deadline must be in the future';
    end if;
    if p_deadline > now() + interval '366 days' then
      raise exception using errcode = 'HP400', message = 'The deadline must be at most a year ahead';
    end if;
    if v_plan.status <> 'planning' then
      raise exception using errcode = 'HP409', message = 'The date is locked: unlock the plan to set a deadline';
    end if;
  end if;
  update app.plans p
     set deadline = p_deadline,
         auto_lock = p_deadline is not null and coalesce(p_auto_lock, v_plan.auto_lock),
         deadline_reminded_at = case when p_deadline is distinct from v_plan.deadline then null else p.deadline_reminded_at end,
         deadline_closed_at = case when p_deadline is distinct from v_plan.deadline then null else p.deadline_closed_at end
   where p.id = p_plan_id;
end;
$$;
comment on function app.set_deadline(uuid, timestamptz, boolean) is
  'Host: sets, moves or (null) removes the plan''s deadline and its auto-lock. HP400 past or over a year ahead, HP409 locked.';
revoke all on function app.set_deadline(uuid, timestamptz, boolean) from public;
grant execute on function app.set_deadline(uuid, timestamptz, boolean) to authenticated;

-- -----------------------------------------------------------------------------
-- The scheduler's work on deadlines (role service_role, docs/notifications.md).
-- -----------------------------------------------------------------------------

-- The leaders of a plan's vote: the most-voted idea (ties: the older) and the
-- date that leads the one ranking of dates (the dates file's
-- private.date_ranking: most yes, then most if need be, then earliest), with
-- its yes and if-need-be counts. Nothing that has no vote.
create function private.vote_leaders(p_plan_id uuid)
returns table (idea_id uuid, idea_text text, idea_votes integer, date date, date_votes integer, date_if_need_be integer)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, i.text, i.votes, d.date, d.yes_votes, d.if_need_be_votes
    from (select 1) one
    left join lateral (
      select i.id, i.text, count(*)::integer as votes
        from app.ideas i join app.idea_votes v on v.idea_id = i.id and v.plan_id = i.plan_id
       where i.plan_id = p_plan_id
       group by i.id
       order by count(*) desc, i.created_at, i.id
       limit 1) i on true
    left join private.date_ranking(p_plan_id) d on d.place = 1
$$;
revoke all on function private.vote_leaders(uuid) from public;

-- A day (p_lead_seconds) before the deadline, one reminder to who has not
-- answered; at the deadline, with auto_lock, the leaders are picked and
-- locked (the plans trigger notes it in the plan's notice budget, and
-- private.send_plan_notices tells everyone), and the host is told where
-- things stand unless a date was locked. Rows are taken FOR UPDATE SKIP
-- LOCKED and marked, so each plan is handled once however many run this.
--
-- The reminder shares the host's window (app.remind_unanswered,
-- p_remind_window_seconds): a deadline moved again and again re-arms it, but
-- nobody is reminded more than once per window; it waits while one went out
-- less than the window ago, and one that reaches somebody starts the window
-- (plans.reminded_at) like the host's.
create function private.run_deadlines(p_lead_seconds integer, p_remind_window_seconds integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan    app.plans;
  v_leaders record;
  v_done    integer := 0;
  v_locked  boolean;
  v_reached integer;
begin
  for v_plan in
    select * from app.plans p
     where p.deadline_closed_at is null
       and p.deadline_reminded_at is null
       and p.status = 'planning'
       and p.deadline > now()
       and p.deadline <= now() + make_interval(secs => p_lead_seconds)
       and (p.reminded_at is null or p.reminded_at <= now() - make_interval(secs => p_remind_window_seconds))
     for update skip locked
  loop
    v_reached := private.enqueue_notification(v_plan.id, 'deadline_soon',
      jsonb_build_object('deadline', v_plan.deadline), 'unanswered', true, null);
    update app.plans p
       set deadline_reminded_at = now(),
           reminded_at = case when v_reached > 0 then now() else p.reminded_at end
     where p.id = v_plan.id;
    v_done := v_done + 1;
  end loop;

  for v_plan in
    select * from app.plans p
     where p.deadline_closed_at is null and p.deadline <= now()
     for update skip locked
  loop
    update app.plans p set deadline_closed_at = now() where p.id = v_plan.id;
    v_done := v_done + 1;
    continue when v_plan.status <> 'planning';

    select * into v_leaders from private.vote_leaders(v_plan.id);
    v_locked := v_plan.auto_lock and v_leaders.date is not null;
    if v_plan.auto_lock and (v_leaders.date is not null or v_leaders.idea_id is not null) then
      update app.plans p
         set locked_idea_id = coalesce(p.locked_idea_id, v_leaders.idea_id),
             locked_time_slot_date = coalesce(v_leaders.date, p.locked_time_slot_date),
             status = case when v_leaders.date is not null then 'time_range_locked' else p.status end
       where p.id = v_plan.id;
    end if;
    if not v_locked then
      perform private.enqueue_notification(v_plan.id, 'deadline_reached', jsonb_build_object(
        'autoLock', v_plan.auto_lock,
        'ideaText', v_leaders.idea_text, 'ideaVotes', v_leaders.idea_votes,
        'date', v_leaders.date, 'dateVotes', v_leaders.date_votes,
        'dateIfNeedBe', v_leaders.date_if_need_be), 'host', true, null);
    end if;
  end loop;
  return v_done;
end;
$$;
comment on function private.run_deadlines(integer, integer) is
  'Scheduler: the reminder a day before each deadline (at most one reminder per plan per window, the host''s included), and what happens at it (auto-lock, or the host told). Returns how many plans it handled.';
revoke all on function private.run_deadlines(integer, integer) from public;
grant execute on function private.run_deadlines(integer, integer) to service_role;

-- -----------------------------------------------------------------------------
-- RLS: nothing of this domain is read or written directly by a request.
-- -----------------------------------------------------------------------------
alter table app.plan_notices enable row level security;

create policy plan_notices_no_direct_access on app.plan_notices
  as restrictive for all to anon, authenticated using (false) with check (false);

-- -----------------------------------------------------------------------------
-- Event reminders: the day before and about two hours before
-- -----------------------------------------------------------------------------
-- docs/decisions/0102-event-reminders.md, docs/notifications.md "Event
-- reminders". A plan whose time is set (status completed) reminds who
-- answered Going or Maybe (never Can't go, the waitlist or who has not
-- answered) by push, and members by one e-mail unless they turned e-mails
-- about the plan off: "Tomorrow 7:30 PM at Kenji: you're going" from
-- p_day_seconds before the start, "In 2 hours at Kenji: ..." from
-- p_soon_seconds before it. The start is the locked date at the event time
-- in the plan's zone (a floating time: UTC). Marks on the plan's row
-- (event_day_reminded_at, event_soon_reminded_at) say each went, or that
-- its moment passed while the scheduler was not running (a day-before
-- reminder is not sent once the two-hour one is due; nothing after the
-- start); rows are taken FOR UPDATE SKIP LOCKED, so any number of
-- schedulers send each once, and a restart loses none that is still due.
-- A new date or time clears the marks (the trigger below): the new time is
-- reminded afresh.

-- The clearing, BEFORE UPDATE so the row is written once.
create function private.clear_event_reminders()
returns trigger
language plpgsql
volatile
set search_path = ''
as $$
begin
  new.event_day_reminded_at := null;
  new.event_soon_reminded_at := null;
  return new;
end;
$$;
comment on function private.clear_event_reminders() is
  'Trigger: the event''s date or time changed; its reminders are to come again.';
revoke all on function private.clear_event_reminders() from public;

create trigger plans_clear_event_reminders
  before update on app.plans
  for each row
  when ((old.locked_time_slot_date, old.event_time, old.time_zone)
        is distinct from (new.locked_time_slot_date, new.event_time, new.time_zone))
  execute function private.clear_event_reminders();

-- The plans the scheduler looks at: timed, with a reminder still to come,
-- by date (it reads the dates around today).
create index plans_event_reminders_due_idx on app.plans (locked_time_slot_date)
  where status = 'completed' and event_soon_reminded_at is null;

-- When the plan's event starts: the date at the time, in the zone (null: a
-- floating time, read as UTC; a zone this server does not know: UTC too,
-- rather than one plan stopping the scheduler).
create function private.event_starts_at(p_date date, p_event_time text, p_time_zone text)
returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
begin
  return (p_date + p_event_time::time) at time zone coalesce(p_time_zone, 'UTC');
exception when others then
  return (p_date + p_event_time::time) at time zone 'UTC';
end;
$$;
comment on function private.event_starts_at(date, text, text) is
  'The instant a plan''s event starts: the date at the time in its zone (floating or unknown: UTC).';
revoke all on function private.event_starts_at(date, text, text) from public;

-- p_now: the scheduler's clock (now(); the tests pass their own moment).
create function private.run_event_reminders(p_day_seconds integer, p_soon_seconds integer, p_now timestamptz default now())
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan  record;
  v_left  interval;
  v_done  integer := 0;
begin
  for v_plan in
    select p.id, p.event_time, p.location, p.locked_time_slot_date, p.event_day_reminded_at,
           private.event_starts_at(p.locked_time_slot_date, p.event_time, p.time_zone) as starts_at
      from app.plans p
     -- Every zone's today is within a day of UTC's.
     where p.status = 'completed' and p.event_soon_reminded_at is null
       and p.locked_time_slot_date between p_now::date - 1 and p_now::date + 2
       and private.event_starts_at(p.locked_time_slot_date, p.event_time, p.time_zone)
           <= p_now + make_interval(secs => p_day_seconds)
     for update of p skip locked
  loop
    v_left := v_plan.starts_at - p_now;
    if v_left > make_interval(secs => p_soon_seconds) then
      continue when v_plan.event_day_reminded_at is not null;
      perform private.enqueue_notification(v_plan.id, 'event_reminder', jsonb_build_object(
        'reminder', 'day',
        -- The local clock now is the local start less what is left.
        'today', ((v_plan.locked_time_slot_date + v_plan.event_time::time) - v_left)::date
                 = v_plan.locked_time_slot_date,
        'date', v_plan.locked_time_slot_date, 'eventTime', v_plan.event_time, 'location', v_plan.location),
        'attending', true, null);
      update app.plans p set event_day_reminded_at = p_now where p.id = v_plan.id;
    else
      if v_left > interval '0' then
        perform private.enqueue_notification(v_plan.id, 'event_reminder', jsonb_build_object(
          'reminder', 'soon',
          'hours', greatest(1, round(extract(epoch from v_left) / 3600))::integer,
          'date', v_plan.locked_time_slot_date, 'eventTime', v_plan.event_time, 'location', v_plan.location),
          'attending', true, null);
      end if;
      update app.plans p
         set event_day_reminded_at = coalesce(p.event_day_reminded_at, p_now), event_soon_reminded_at = p_now
       where p.id = v_plan.id;
    end if;
    v_done := v_done + 1;
  end loop;
  return v_done;
end;
$$;
comment on function private.run_event_reminders(integer, integer, timestamptz) is
  'Scheduler: the day-before and the about-two-hours-before reminders of timed plans to who answered Going or Maybe, each once (marks on the plan). Returns how many plans it handled.';
revoke all on function private.run_event_reminders(integer, integer, timestamptz) from public;
grant execute on function private.run_event_reminders(integer, integer, timestamptz) to service_role;

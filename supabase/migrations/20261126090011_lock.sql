-- =============================================================================
-- Domain: lock. What the host (and its co-hosts, docs/decisions/0098-cohosts.md)
-- does: pick an idea, lock a date, set the event time, set the place, unlock
-- for a revote. What the group is told of
-- these is the reminders file's (the trigger on app.plans and the plan's
-- notice budget, docs/notifications.md).
-- =============================================================================
--
-- SECURITY INVOKER: the plans UPDATE policy already allows these
-- writes to the host and its co-hosts and nobody else. The functions check first anyway, in
-- order to answer with a sentence (HP404 'Plan not found', HP403 'Only the
-- host can ...') instead of silently updating zero rows.
--
-- Status flow (docs/api.md "Time slots and the lock flow"):
--   planning --lock_date--> time_range_locked --set_event_time--> completed
--   any      --unlock_plan--> planning (picked idea, location, votes stay)
--   any      --cancel_plan--> cancelled (frozen; unlock_plan reopens it)
-- 'date_locked' is never written; where read it means time_range_locked.

-- -----------------------------------------------------------------------------
-- private.plan_for_host (invoker): the plan, locked, if the caller runs it.
-- -----------------------------------------------------------------------------
-- 404 before 403: a plan the caller cannot even read (no link claim, not a
-- participant) is "not found", never "forbidden" (no existence leak). Then
-- HP403 p_denied_message unless the caller hosts or co-hosts it
-- (private.is_plan_manager; the spec's sentence stays "Only the host can
-- ..."). Then the row is locked FOR UPDATE (the host and co-hosts pass the
-- UPDATE policy), so two host
-- actions on one plan (e.g. set_event_time racing unlock_plan) run one after
-- the other and each sees the other's result.
-- Then a cancelled plan is refused (HP409 PLAN_CANCELLED,
-- private.refuse_cancelled_plan) for every host action but unlocking, which
-- reopens it (p_reopens; docs/decisions/0100-cancelling-a-plan.md).
create function private.plan_for_host(p_plan_id uuid, p_denied_message text, p_reopens boolean default false)
returns app.plans
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan app.plans;
begin
  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  if v_plan.host_id is distinct from (select auth.uid()) and not private.is_plan_manager(p_plan_id) then
    raise exception using errcode = 'HP403', message = p_denied_message;
  end if;
  select * into v_plan from app.plans p where p.id = p_plan_id for update;
  if not p_reopens then
    perform private.refuse_cancelled_plan(p_plan_id);
  end if;
  return v_plan;
end;
$$;
revoke all on function private.plan_for_host(uuid, text, boolean) from public;
grant execute on function private.plan_for_host(uuid, text, boolean) to anon, authenticated;


-- -----------------------------------------------------------------------------
-- app.pick_idea
-- -----------------------------------------------------------------------------
create function app.pick_idea(p_plan_id uuid, p_idea_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan app.plans := private.plan_for_host(p_plan_id, 'Only the host can pick an idea');
begin
  -- The idea must belong to this plan (the composite FK would refuse it too,
  -- but with a 500-worthy 23503 instead of a sentence).
  if not exists (select 1 from app.ideas i where i.id = p_idea_id and i.plan_id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  -- Picking the picked idea again un-picks it.
  update app.plans p
     set locked_idea_id = case when v_plan.locked_idea_id = p_idea_id then null else p_idea_id end
   where p.id = p_plan_id;
end;
$$;
comment on function app.pick_idea(uuid, uuid) is
  'Host: picks an idea of the plan, or un-picks it when it is already the picked one. HP404 unknown plan/idea, HP403 not host.';
revoke all on function app.pick_idea(uuid, uuid) from public;
grant execute on function app.pick_idea(uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.lock_date
-- -----------------------------------------------------------------------------
-- Sets lockedTimeSlotDate and status time_range_locked (the Set Event Time
-- panel then appears). Re-locking another date while no time is set simply
-- moves the lock; once the time is set (completed) the host must unlock first,
-- which is what the UI offers ('Unlock & Revote'), so the e-mailed event is
-- never silently invalidated.
create function app.lock_date(p_plan_id uuid, p_date date)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan app.plans := private.plan_for_host(p_plan_id, 'Only the host can lock a date');
begin
  perform private.check_plan_date(p_date);
  if v_plan.status = 'completed' then
    raise exception using errcode = 'HP409',
      message = 'Unlock the plan before locking another date';
  end if;
  update app.plans p
     set locked_time_slot_date = p_date,
         status = 'time_range_locked'
   where p.id = p_plan_id;
end;
$$;
comment on function app.lock_date(uuid, date) is
  'Host: locks a date (status time_range_locked). HP404/HP403/HP400, HP409 when the time is already set.';

revoke all on function app.lock_date(uuid, date) from public;
grant execute on function app.lock_date(uuid, date) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.set_event_time
-- -----------------------------------------------------------------------------
-- p_time is 'HH:mm' 24-hour ('19:30', '7:30' accepted too). Stores event_time
-- as 12-hour text 'h:mm AM/PM' ('7:30 PM') for display, and p_time_zone, the
-- IANA zone of the host's clock (null: floating; the API checks the name
-- exists, the table its form) as time_zone, finds or creates the
-- slot (locked date, 'H:mm') so the chosen time is a real slot, points
-- locked_time_slot_id at it and completes the plan. Telling the group (the
-- e-mail with its .ics) is the reminders file's, within the plan's
-- notice budget: the time always changes, only the notice may wait.
create function app.set_event_time(p_plan_id uuid, p_time text, p_time_zone text default null)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_plan    app.plans := private.plan_for_host(p_plan_id, 'Only the host can set the event time');
  v_time    time;
  v_slot_id uuid;
begin
  if p_time is null or p_time !~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]$' then
    raise exception using errcode = 'HP400', message = 'Time must be HH:mm (24-hour), e.g. 19:30';
  end if;
  if v_plan.locked_time_slot_date is null then
    raise exception using errcode = 'HP409', message = 'Lock a date before setting the event time';
  end if;
  v_time := p_time::time;

  v_slot_id := private.find_or_create_time_slot(
    p_plan_id, v_plan.locked_time_slot_date, to_char(v_time, 'FMHH24:MI'));

  update app.plans p
     -- FM drops the leading zero of the hour only: 07:05 -> '7:05 AM', 00:30 -> '12:30 AM'.
     set event_time = to_char(v_time, 'FMHH12:MI AM'),
         time_zone = p_time_zone,
         locked_time_slot_id = v_slot_id,
         status = 'completed'
   where p.id = p_plan_id;
end;
$$;
comment on function app.set_event_time(uuid, text, text) is
  'Host: sets the event time on the locked date, in the host''s time zone (status completed). HP400 bad time, HP409 no locked date.';
revoke all on function app.set_event_time(uuid, text, text) from public;
grant execute on function app.set_event_time(uuid, text, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.set_location
-- -----------------------------------------------------------------------------
create function app.set_location(p_plan_id uuid, p_location text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- Trimmed; an empty string clears the location (docs/api.md "Time slots and the lock flow").
  v_location text := nullif(btrim(p_location), '');
begin
  perform private.plan_for_host(p_plan_id, 'Only the host can set the location');
  if char_length(v_location) > 500 then
    raise exception using errcode = 'HP400', message = 'Location must be at most 500 characters';
  end if;
  update app.plans p set location = v_location where p.id = p_plan_id;
end;
$$;
comment on function app.set_location(uuid, text) is
  'Host: sets (or with an empty string clears) the location. HP400 over 500 characters.';
revoke all on function app.set_location(uuid, text) from public;
grant execute on function app.set_location(uuid, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.unlock_plan
-- -----------------------------------------------------------------------------
create function app.unlock_plan(p_plan_id uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  perform private.plan_for_host(p_plan_id, 'Only the host can unlock the plan', p_reopens => true);
  -- The picked idea, the location and all votes stay (docs/api.md "Time slots and the lock flow").
  -- A cancelled plan reopens: its message goes (docs/decisions/0100-cancelling-a-plan.md).
  update app.plans p
     set locked_time_slot_date = null,
         locked_time_slot_id = null,
         event_time = null,
         time_zone = null,
         status = 'planning',
         cancel_message = null,
         cancelled_at = null
   where p.id = p_plan_id;
end;
$$;
comment on function app.unlock_plan(uuid) is
  'Host: clears the locked date, slot and time (and a cancellation); status back to planning.';
revoke all on function app.unlock_plan(uuid) from public;
grant execute on function app.unlock_plan(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.cancel_plan
-- -----------------------------------------------------------------------------
-- docs/decisions/0100-cancelling-a-plan.md. The host calls the plan off:
-- status cancelled, with an optional message (trimmed; '' is none; at most
-- 500 characters, contract/dates-requests.ts CANCEL_MESSAGE_MAX) and when.
-- The date, time, place and every vote and answer stay as they are, so the
-- calendars can show the very event as cancelled (its SEQUENCE rises with
-- the status: the calendar file) and unlocking can reopen it. Everyone is
-- told through the plan's notice budget (the reminders file, kind
-- plan_cancelled). Cancelling a cancelled plan is HP409 PLAN_CANCELLED.
create function app.cancel_plan(p_plan_id uuid, p_message text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_message text := nullif(btrim(p_message), '');
begin
  perform private.plan_for_host(p_plan_id, 'Only the host can cancel the plan');
  if char_length(v_message) > 500 then
    raise exception using errcode = 'HP400', message = 'Message must be at most 500 characters';
  end if;
  update app.plans p
     set status = 'cancelled',
         cancel_message = v_message,
         cancelled_at = now()
   where p.id = p_plan_id;
end;
$$;
comment on function app.cancel_plan(uuid, text) is
  'Host: cancels the plan (status cancelled, optional message); everything else stays. HP404/HP403, HP409 already cancelled, HP400 message over 500 characters.';
revoke all on function app.cancel_plan(uuid, text) from public;
grant execute on function app.cancel_plan(uuid, text) to anon, authenticated;

-- When the locked slot changes or is cleared, the previous one may be empty.
create function private.remove_previous_locked_slot()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.remove_empty_time_slots(array[old.locked_time_slot_id]);
  return null;
end;
$$;
revoke all on function private.remove_previous_locked_slot() from public;

create trigger plans_remove_previous_locked_slot
  after update of locked_time_slot_id on app.plans
  for each row
  when (old.locked_time_slot_id is not null and old.locked_time_slot_id is distinct from new.locked_time_slot_id)
  execute function private.remove_previous_locked_slot();

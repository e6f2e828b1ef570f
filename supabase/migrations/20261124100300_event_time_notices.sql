-- =============================================================================
-- The "time set" e-mail: only when the time changed, at most once per window.
-- =============================================================================
--
-- docs/decisions.md "Abuse limits". set-event-time used to e-mail every member
-- on every call, with host-chosen text: a host could mail the group again and
-- again. Now each plan remembers the date and time it last e-mailed:
--
--   * the same date and time again (e.g. unlock, pick the same date, set the
--     same time) sends nothing;
--   * a different date or time sends the e-mail, unless the last one went out
--     less than the window ago (10 minutes; the API passes it): then the
--     request is refused (HP429, DETAIL = seconds to wait) and rolls back, so
--     what the members were told is never silently out of date.

create table app.event_time_notices (
  plan_id    uuid primary key references app.plans (id) on delete cascade,
  date       date not null,
  -- As app.plans.event_time: 'h:mm AM/PM'.
  event_time text not null,
  sent_at    timestamptz not null default now()
);
comment on table app.event_time_notices is
  'The date and time last e-mailed to a plan''s members, and when. Reached only through private.claim_event_time_notice.';

alter table app.event_time_notices enable row level security;
create policy event_time_notices_no_direct_access on app.event_time_notices
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- Called by the API right after app.set_event_time, in the same transaction
-- (the plan row is still locked by it, so two of these never race for a plan).
-- True: e-mail the members now (recorded as sent). False: nothing changed,
-- send nothing. HP429 (p_message, DETAIL = seconds): changed too soon.
create function private.claim_event_time_notice(p_plan_id uuid, p_window_seconds integer, p_message text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan   app.plans;
  v_notice app.event_time_notices;
  v_wait   integer;
begin
  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found or v_plan.host_id is distinct from (select auth.uid()) then
    raise exception using errcode = 'HP403', message = 'Only the host can set the event time';
  end if;
  if v_plan.status <> 'completed' or v_plan.event_time is null or v_plan.locked_time_slot_date is null then
    return false;
  end if;

  select * into v_notice from app.event_time_notices n where n.plan_id = p_plan_id for update;
  if found then
    if v_notice.date = v_plan.locked_time_slot_date and v_notice.event_time = v_plan.event_time then
      return false;
    end if;
    v_wait := ceil(extract(epoch from (v_notice.sent_at + make_interval(secs => p_window_seconds) - now())))::integer;
    if v_wait > 0 then
      raise exception using errcode = 'HP429', message = p_message, detail = v_wait::text;
    end if;
  end if;

  insert into app.event_time_notices as n (plan_id, date, event_time, sent_at)
  values (p_plan_id, v_plan.locked_time_slot_date, v_plan.event_time, now())
  on conflict (plan_id) do update
     set date = excluded.date, event_time = excluded.event_time, sent_at = excluded.sent_at;
  return true;
end;
$$;
comment on function private.claim_event_time_notice(uuid, integer, text) is
  'After set_event_time: true when the members must be e-mailed (recorded), false when the time did not change, HP429 when the last e-mail is younger than the window.';
revoke all on function private.claim_event_time_notice(uuid, integer, text) from public;
grant execute on function private.claim_event_time_notice(uuid, integer, text) to authenticated;

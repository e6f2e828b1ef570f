-- =============================================================================
-- The rules' 400 sentences in their final wording (issue 14).
-- =============================================================================
--
-- A few rules raised HP400 with a sentence starting in lower case ('date must
-- not be in the past'), and the API capitalised it on the way out
-- (withSentenceCase in routes/plan-dates.ts). Now the database says the
-- sentence the user reads, like every other rule's message, and the API
-- passes it through as it does the others. Nothing else changes.

create or replace function private.check_plan_date(p_date date)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_date is null then
    raise exception using errcode = 'HP400', message = 'Date is required';
  end if;
  if p_date < current_date - 1 then
    raise exception using errcode = 'HP400', message = 'Date must not be in the past';
  end if;
  if p_date > current_date + 366 then
    raise exception using errcode = 'HP400', message = 'Date must be at most 366 days ahead';
  end if;
end;
$$;

create or replace function app.set_event_time(p_plan_id uuid, p_time text)
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
         locked_time_slot_id = v_slot_id,
         status = 'completed'
   where p.id = p_plan_id;
end;
$$;

create or replace function app.set_location(p_plan_id uuid, p_location text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- Trimmed; an empty string clears the location (decisions.md).
  v_location text := nullif(btrim(p_location), '');
begin
  perform private.plan_for_host(p_plan_id, 'Only the host can set the location');
  if char_length(v_location) > 500 then
    raise exception using errcode = 'HP400', message = 'Location must be at most 500 characters';
  end if;
  update app.plans p set location = v_location where p.id = p_plan_id;
end;
$$;

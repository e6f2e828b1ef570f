-- =============================================================================
-- Caps per plan: guests, ideas, comments per idea, distinct date slots.
-- =============================================================================
--
-- docs/decisions.md "Abuse limits". Unlike the rate limits these are not about
-- time (waiting does not help), so a write over a cap is HP409 (409) with a
-- sentence, not 429. The numbers are far above what a real group reaches and
-- live in one place, private.plan_cap.
--
-- Enforced by BEFORE INSERT triggers, whatever path inserts the row. Each
-- takes a transaction-scoped advisory lock per (cap, plan or idea) before
-- counting, so parallel inserts are counted one after the other and never
-- exceed the cap (the count runs in a later statement than the lock, so it
-- sees rows committed meanwhile). SECURITY DEFINER: the count must see every
-- row of the plan, whatever the caller's RLS shows.

create function private.plan_cap(p_name text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case p_name
    when 'guests' then 200            -- guests per plan
    when 'ideas' then 1000            -- ideas per plan (issue 13 measures plans of 500)
    when 'comments_per_idea' then 500 -- comments per idea
    when 'slots' then 500             -- distinct (date, period) slots per plan
  end
$$;
comment on function private.plan_cap(text) is
  'The caps per plan (guests, ideas, slots) and per idea (comments_per_idea), in one place.';
revoke all on function private.plan_cap(text) from public;

create function private.lock_cap(p_cap text, p_scope uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('hangplan.cap:' || p_cap || ':' || p_scope::text, 0))
$$;
revoke all on function private.lock_cap(text, uuid) from public;

create function private.enforce_plan_cap()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_cap   integer;
  v_count integer;
begin
  case tg_table_name
  when 'guests' then
    v_cap := private.plan_cap('guests');
    perform private.lock_cap('guests', new.plan_id);
    select count(*) into v_count from app.guests g where g.plan_id = new.plan_id;
    if v_count >= v_cap then
      raise exception using errcode = 'HP409',
        message = format('This plan already has %s guests, the most a plan can have', v_cap);
    end if;

  when 'ideas' then
    v_cap := private.plan_cap('ideas');
    perform private.lock_cap('ideas', new.plan_id);
    select count(*) into v_count from app.ideas i where i.plan_id = new.plan_id;
    if v_count >= v_cap then
      raise exception using errcode = 'HP409',
        message = format('This plan already has %s ideas, the most a plan can have', v_cap);
    end if;

  when 'idea_comments' then
    v_cap := private.plan_cap('comments_per_idea');
    perform private.lock_cap('comments', new.idea_id);
    select count(*) into v_count from app.idea_comments ic
     where ic.idea_id = new.idea_id and ic.plan_id = new.plan_id;
    if v_count >= v_cap then
      raise exception using errcode = 'HP409',
        message = format('This idea already has %s comments, the most an idea can have', v_cap);
    end if;

  when 'time_slots' then
    -- Find-or-create of an existing slot: its insert ends in ON CONFLICT DO
    -- NOTHING and adds no row, so it never counts against the cap.
    if exists (select 1 from app.time_slots s
                where s.plan_id = new.plan_id and s.date = new.date
                  and s.period is not distinct from new.period) then
      return new;
    end if;
    -- The host's event time (set-event-time: a clock time on the locked
    -- date) always gets its slot: the host can always finish the plan.
    if new.period ~ '^(1?[0-9]|2[0-3]):[0-5][0-9]$'
       and exists (select 1 from app.plans p
                    where p.id = new.plan_id
                      and p.host_id = (select auth.uid())
                      and p.locked_time_slot_date = new.date) then
      return new;
    end if;
    v_cap := private.plan_cap('slots');
    perform private.lock_cap('slots', new.plan_id);
    -- Created by a parallel vote while we waited for the lock: no new row either.
    if exists (select 1 from app.time_slots s
                where s.plan_id = new.plan_id and s.date = new.date
                  and s.period is not distinct from new.period) then
      return new;
    end if;
    select count(*) into v_count from app.time_slots s where s.plan_id = new.plan_id;
    if v_count >= v_cap then
      raise exception using errcode = 'HP409',
        message = format('This plan already has %s dates and times to vote on, the most a plan can have; vote for one of them', v_cap);
    end if;
  end case;
  return new;
end;
$$;
comment on function private.enforce_plan_cap() is
  'BEFORE INSERT on guests, ideas, idea_comments, time_slots: HP409 over the cap of private.plan_cap.';
revoke all on function private.enforce_plan_cap() from public;

create trigger guests_enforce_cap
  before insert on app.guests
  for each row execute function private.enforce_plan_cap();
create trigger ideas_enforce_cap
  before insert on app.ideas
  for each row execute function private.enforce_plan_cap();
create trigger idea_comments_enforce_cap
  before insert on app.idea_comments
  for each row execute function private.enforce_plan_cap();
create trigger time_slots_enforce_cap
  before insert on app.time_slots
  for each row execute function private.enforce_plan_cap();

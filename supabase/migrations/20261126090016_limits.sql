-- =============================================================================
-- Domain: limits, the abuse limits. Rate limits (one counter per key, shared
-- by every instance of the function) and caps per plan.
-- =============================================================================
--
-- docs/security-and-limits.md "Abuse limits". The API names the key ('vote:g:<guest id>',
-- 'otp-ip:203.0.113.0', ...), the most hits allowed and the window; the
-- numbers live in the API's one config module (_shared/db/limits.ts). A request
-- opts in with one statement in its own transaction:
--
--   select private.enforce_rate_limits('[{"key": ..., "max": 10, "window": 60,
--                                         "message": "Too many ideas in a short time"}]')
--
-- which counts one hit on each key, in order, and raises HP429 (message = the
-- sentence's start, DETAIL = the seconds to wait) at the first key that is
-- full. A refused hit is not counted (the raise rolls the request back), and a
-- request that fails later rolls its hits back too: only what happened counts.
--
-- Fixed windows: a key's window starts with its first hit and lasts `window`
-- seconds; when it is over, the next hit starts a new one. (A burst across a
-- window boundary may see up to twice `max` in `window` seconds; the limits
-- are set far above what a real group does, so this does not matter.)
--
-- Atomic: INSERT ... ON CONFLICT DO UPDATE locks the key's row, so parallel
-- hits on one key are counted one after the other and never exceed `max`
-- (tests/db/abuse-limits.test.ts). The row stays locked until the request's
-- transaction ends, so a key is only ever hit inside short transactions.

create table app.rate_limit_counters (
  key            text primary key,
  -- The current window ends here; a hit after it starts a new window.
  window_ends_at timestamptz not null,
  hits           integer not null,

  constraint rate_limit_counters_key_length check (char_length(key) between 1 and 200),
  constraint rate_limit_counters_hits_positive check (hits >= 1)
);
comment on table app.rate_limit_counters is
  'Abuse-limit counters (fixed windows) per key. No grants: reached only through private.hit_rate_limit.';

-- Housekeeping finds finished windows by this index.
create index rate_limit_counters_window_ends_at_idx on app.rate_limit_counters (window_ends_at);
-- -----------------------------------------------------------------------------
-- private.hit_rate_limit: count one hit, or say how long to wait
-- -----------------------------------------------------------------------------
-- Returns 0 when the hit was counted (at most p_max in the window), else the
-- whole seconds until the window ends (at least 1; the hit is not counted).
--
-- Housekeeping: a hit that starts a window (a new key, the only way a counter
-- is added) deletes up to 4 counters whose window ended more than a minute
-- ago (skipping any another request holds, so it never waits). Each added
-- row comes with the removal of up to four finished ones, so finished windows
-- cannot pile up and nothing has to run on a schedule; a hit inside a running
-- window is the upsert alone.
--
-- SECURITY DEFINER: the request roles have no privilege on the table.

create function private.hit_rate_limit(p_key text, p_max integer, p_window_seconds integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now  timestamptz := now();
  v_ends timestamptz;
  v_hits integer;
begin
  if p_key is null or char_length(p_key) not between 1 and 200
     or p_max is null or p_max < 1
     or p_window_seconds is null or p_window_seconds < 1 then
    -- A bug in the caller, not bad input: a plain exception (the API's 500).
    raise exception 'private.hit_rate_limit: invalid arguments (%, %, %)', p_key, p_max, p_window_seconds;
  end if;

  insert into app.rate_limit_counters as c (key, window_ends_at, hits)
  values (p_key, v_now + make_interval(secs => p_window_seconds), 1)
  on conflict (key) do update
     set window_ends_at = case when c.window_ends_at <= v_now then excluded.window_ends_at else c.window_ends_at end,
         hits = case when c.window_ends_at <= v_now then 1 else c.hits + 1 end
   where c.window_ends_at <= v_now or c.hits < p_max
  returning c.window_ends_at, c.hits into v_ends, v_hits;
  if found then
    if v_hits = 1 then
      -- This hit started a window (maybe a new row): housekeeping, skipping
      -- any counter another request holds, so it never waits.
      delete from app.rate_limit_counters c
       where c.key in (
         select o.key from app.rate_limit_counters o
          where o.window_ends_at < v_now - interval '1 minute'
          order by o.window_ends_at
          limit 4
          for update skip locked);
    end if;
    return 0;
  end if;

  -- Full: the row is locked by the upsert above, so this reads the window
  -- that refused the hit.
  select c.window_ends_at into v_ends from app.rate_limit_counters c where c.key = p_key;
  return greatest(1, ceil(extract(epoch from (v_ends - v_now))))::integer;
end;
$$;
comment on function private.hit_rate_limit(text, integer, integer) is
  'Counts one hit on a key (fixed window of p_window_seconds, at most p_max hits): 0 when counted, else the seconds to wait.';
revoke all on function private.hit_rate_limit(text, integer, integer) from public;
grant execute on function private.hit_rate_limit(text, integer, integer) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.enforce_rate_limits: the API's one statement per request
-- -----------------------------------------------------------------------------
-- p_limits: a JSON array of {"key", "max", "window" (seconds), "message"}.
-- Hits each key in order; at the first full one raises HP429 with the message
-- and the wait in DETAIL (the API answers 429, Retry-After and "<message>,
-- please try again in N minutes"). Invoker: it only calls the definer above.
create function private.enforce_rate_limits(p_limits jsonb)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_limit jsonb;
  v_wait  integer;
begin
  -- By index, not a query over jsonb_array_elements: no cursor per request.
  for i in 0 .. coalesce(jsonb_array_length(p_limits), 0) - 1 loop
    v_limit := p_limits -> i;
    v_wait := private.hit_rate_limit(v_limit ->> 'key', (v_limit ->> 'max')::integer, (v_limit ->> 'window')::integer);
    if v_wait > 0 then
      raise exception using errcode = 'HP429', message = coalesce(v_limit ->> 'message', 'Too many requests'), detail = v_wait::text;
    end if;
  end loop;
end;
$$;
comment on function private.enforce_rate_limits(jsonb) is
  'Hits each {key, max, window, message} in order; HP429 (DETAIL = seconds to wait) at the first full one.';
revoke all on function private.enforce_rate_limits(jsonb) from public;
grant execute on function private.enforce_rate_limits(jsonb) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Limits on failures: refuse while full, count only what failed
-- -----------------------------------------------------------------------------
-- Wrong sign-in and e-mail-change codes (docs/security-and-limits.md
-- "Abuse limits", Guessing codes): a request is refused up front while any of its keys is
-- full (the code is then not even compared, so a right guess cannot slip
-- through a full limit), and a hit is counted only when the code was wrong.
-- The same {key, max, window, message} array as private.enforce_rate_limits.

create function private.rate_limit_wait(p_key text, p_max integer)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select greatest(1, ceil(extract(epoch from (c.window_ends_at - now()))))::integer
      from app.rate_limit_counters c
     where c.key = p_key and c.window_ends_at > now() and c.hits >= p_max), 0)
$$;
comment on function private.rate_limit_wait(text, integer) is
  'Seconds until the key''s window ends when it is full (p_max hits), else 0. Counts nothing.';
revoke all on function private.rate_limit_wait(text, integer) from public;
grant execute on function private.rate_limit_wait(text, integer) to anon, authenticated;

create function private.refuse_when_full(p_limits jsonb)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  v_limit jsonb;
  v_wait  integer;
begin
  for v_limit in select l.value from jsonb_array_elements(coalesce(p_limits, '[]')) as l(value) loop
    v_wait := private.rate_limit_wait(v_limit ->> 'key', (v_limit ->> 'max')::integer);
    if v_wait > 0 then
      raise exception using errcode = 'HP429', message = coalesce(v_limit ->> 'message', 'Too many requests'), detail = v_wait::text;
    end if;
  end loop;
end;
$$;
comment on function private.refuse_when_full(jsonb) is
  'HP429 (DETAIL = seconds to wait) when any {key, max, window, message} is full; counts nothing.';
revoke all on function private.refuse_when_full(jsonb) from public;
grant execute on function private.refuse_when_full(jsonb) to anon, authenticated;

create function private.count_failure(p_limits jsonb)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_limit jsonb;
begin
  -- A key that filled up meanwhile (a parallel failure) simply stays full:
  -- the failure's answer is the same, and the next request is refused.
  for v_limit in select l.value from jsonb_array_elements(coalesce(p_limits, '[]')) as l(value) loop
    perform private.hit_rate_limit(v_limit ->> 'key', (v_limit ->> 'max')::integer, (v_limit ->> 'window')::integer);
  end loop;
end;
$$;
comment on function private.count_failure(jsonb) is
  'Counts one hit on each {key, max, window} (a full key is left as it is); never raises for a full one.';
revoke all on function private.count_failure(jsonb) from public;
grant execute on function private.count_failure(jsonb) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- One action per window, remembered on the row it is about
-- -----------------------------------------------------------------------------
-- For limits kept as a timestamp where the action is recorded (the plan's
-- last announced time, its last reminder): HP429 with `p_message` and DETAIL
-- = the seconds left while `p_since` is less than the window ago; nothing
-- when it is null or long enough ago.
create function private.refuse_within_window(p_since timestamptz, p_window_seconds integer, p_message text)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  v_wait integer := ceil(extract(epoch from (p_since + make_interval(secs => p_window_seconds) - now())))::integer;
begin
  if v_wait > 0 then
    raise exception using errcode = 'HP429', message = p_message, detail = v_wait::text;
  end if;
end;
$$;
revoke all on function private.refuse_within_window(timestamptz, integer, text) from public;
grant execute on function private.refuse_within_window(timestamptz, integer, text) to authenticated;

-- -----------------------------------------------------------------------------
-- Caps per plan: guests, ideas, comments per idea, distinct date slots.
-- -----------------------------------------------------------------------------
-- docs/security-and-limits.md "Abuse limits". Unlike the rate limits these are not about
-- time (waiting does not help), so a write over a cap is HP409 (409) with a
-- sentence, not 429. The numbers are far above what a real group reaches and
-- live in one place, private.plan_cap.
--
-- Below the plan's caps, each participant has caps of their own (ideas,
-- comments on one idea, date slots proposed), so that no one participant can
-- fill a plan for everyone else (docs/decisions/0084-caps-per-participant.md).
-- The host, who moderates the plan and cannot be removed from it, has none.
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
    when 'ideas' then 1000            -- ideas per plan (the bench measures plans of 500)
    when 'comments_per_idea' then 500 -- comments per idea
    when 'slots' then 500             -- distinct (date, period) slots per plan
    when 'interests_per_user' then 50 -- interests per account (every plan it joins computes suggestions over them)
    -- Per participant but the host, within one plan:
    when 'ideas_per_participant' then 100    -- ideas suggested (of the plan's 1000)
    when 'comments_per_participant' then 100 -- comments written on one idea (of the idea's 500)
    when 'slots_per_participant' then 50     -- date slots proposed, i.e. created by a date vote (of the plan's 500)
  end
$$;
comment on function private.plan_cap(text) is
  'The caps per plan (guests, ideas, slots), per idea (comments_per_idea), per account (interests_per_user) and per participant of a plan (ideas, comments on one idea, slots proposed), in one place.';
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

-- The count runs on every insert, and PL/pgSQL keeps its plan per connection,
-- made while the table was as small as the statistics last said. Planned on
-- a nearly empty table, the count would be a sequential scan and stay one
-- (every comment would read every comment: ~6,900 scans, 23 million rows, for
-- ~6,800 comments in the bench) until autovacuum's next analyse. With
-- sequential scans off for this function the planner takes the index each
-- count has (guests, ideas and slots by plan_id; comments by (idea_id,
-- plan_id, created_at); a participant's ideas by (user_id, plan_id) or
-- (guest_id, plan_id), comments by (user_id, idea_id) or (guest_id,
-- plan_id, idea_id), slots by proposed_by), however small the table looked
-- when it planned.
-- Whether p_user_id hosts the plan: the host has no caps of their own.
create function private.is_plan_host(p_plan_id uuid, p_user_id uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_user_id is not null
     and exists (select 1 from app.plans p where p.id = p_plan_id and p.host_id = p_user_id)
$$;
revoke all on function private.is_plan_host(uuid, uuid) from public;

create function private.enforce_plan_cap()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_cap   integer;
  v_count integer;
  v_me    uuid;
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
    -- The author's own (under the same lock, so counted one after the other).
    if not private.is_plan_host(new.plan_id, new.user_id) then
      v_cap := private.plan_cap('ideas_per_participant');
      if new.user_id is not null then
        select count(*) into v_count from app.ideas i where i.user_id = new.user_id and i.plan_id = new.plan_id;
      else
        select count(*) into v_count from app.ideas i where i.guest_id = new.guest_id and i.plan_id = new.plan_id;
      end if;
      if v_count >= v_cap then
        raise exception using errcode = 'HP409',
          message = format('You already suggested %s ideas in this plan, the most one person can', v_cap);
      end if;
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
    if not private.is_plan_host(new.plan_id, new.user_id) then
      v_cap := private.plan_cap('comments_per_participant');
      if new.user_id is not null then
        select count(*) into v_count from app.idea_comments ic where ic.user_id = new.user_id and ic.idea_id = new.idea_id;
      else
        select count(*) into v_count from app.idea_comments ic
         where ic.guest_id = new.guest_id and ic.plan_id = new.plan_id and ic.idea_id = new.idea_id;
      end if;
      if v_count >= v_cap then
        raise exception using errcode = 'HP409',
          message = format('You already wrote %s comments on this idea, the most one person can', v_cap);
      end if;
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
    -- date, set by the host or a co-host) always gets its slot: the host can
    -- always finish the plan.
    if new.period ~ '^(1?[0-9]|2[0-3]):[0-5][0-9]$'
       and exists (select 1 from app.plans p
                    where p.id = new.plan_id
                      and p.locked_time_slot_date = new.date)
       and private.is_plan_manager(new.plan_id) then
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
    -- The slot is the proposal of the participant whose vote creates it (a
    -- token wins, as in the vote rules); nobody's when no one asks (the
    -- scheduler).
    if auth.uid() is not null then
      select pa.id into v_me from app.participants pa
       where pa.plan_id = new.plan_id and pa.user_id = (select auth.uid());
    else
      select pa.id into v_me from app.participants pa
       where pa.guest_id = private.claimed_guest_id() and pa.plan_id = new.plan_id;
    end if;
    new.proposed_by := v_me;
    if v_me is not null and not private.is_plan_host(new.plan_id, (select auth.uid())) then
      v_cap := private.plan_cap('slots_per_participant');
      select count(*) into v_count from app.time_slots s where s.proposed_by = v_me;
      if v_count >= v_cap then
        raise exception using errcode = 'HP409',
          message = format('You already proposed %s dates and times in this plan, the most one person can; vote for one of them', v_cap);
      end if;
    end if;

  when 'user_interests' then
    v_cap := private.plan_cap('interests_per_user');
    perform private.lock_cap('interests', new.user_id);
    select count(*) into v_count from app.user_interests ui where ui.user_id = new.user_id;
    if v_count >= v_cap then
      raise exception using errcode = 'HP409',
        message = format('You already have %s interests, the most you can have; remove one first', v_cap);
    end if;
  end case;
  return new;
end;
$$;
comment on function private.enforce_plan_cap() is
  'BEFORE INSERT on guests, ideas, idea_comments, time_slots, user_interests: HP409 over the cap of private.plan_cap.';
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
create trigger user_interests_enforce_cap
  before insert on app.user_interests
  for each row execute function private.enforce_plan_cap();
alter table app.rate_limit_counters enable row level security;
-- No grants and a deny-all policy (like app.sign_in_codes): no request role
-- reads or writes the counters directly.
create policy rate_limit_counters_no_direct_access on app.rate_limit_counters
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

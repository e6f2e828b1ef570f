-- =============================================================================
-- Abuse limits: one counter per key, shared by every instance of the function.
-- =============================================================================
--
-- docs/decisions.md "Abuse limits". The API names the key ('vote:g:<guest id>',
-- 'otp-ip:203.0.113.0', ...), the most hits allowed and the window; the
-- numbers live in the API's one config module (_shared/limits.ts). A request
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
-- (tests/db/rate-limits.test.ts). The row stays locked until the request's
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

alter table app.rate_limit_counters enable row level security;
-- No grants and a deny-all policy (like app.sign_in_codes): no request role
-- reads or writes the counters directly.
create policy rate_limit_counters_no_direct_access on app.rate_limit_counters
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

-- -----------------------------------------------------------------------------
-- private.hit_rate_limit: count one hit, or say how long to wait
-- -----------------------------------------------------------------------------
-- Returns 0 when the hit was counted (at most p_max in the window), else the
-- whole seconds until the window ends (at least 1; the hit is not counted).
--
-- Housekeeping: every hit deletes up to 4 counters whose window ended more
-- than a minute ago (skipping any another request holds, so it never waits).
-- A hit adds at most one row and removes up to four, so finished windows
-- cannot pile up, and nothing else has to run on a schedule.
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
begin
  if p_key is null or char_length(p_key) not between 1 and 200
     or p_max is null or p_max < 1
     or p_window_seconds is null or p_window_seconds < 1 then
    -- A bug in the caller, not bad input: a plain exception (the API's 500).
    raise exception 'private.hit_rate_limit: invalid arguments (%, %, %)', p_key, p_max, p_window_seconds;
  end if;

  delete from app.rate_limit_counters c
   where c.key in (
     select o.key from app.rate_limit_counters o
      where o.window_ends_at < v_now - interval '1 minute'
      order by o.window_ends_at
      limit 4
      for update skip locked);

  insert into app.rate_limit_counters as c (key, window_ends_at, hits)
  values (p_key, v_now + make_interval(secs => p_window_seconds), 1)
  on conflict (key) do update
     set window_ends_at = case when c.window_ends_at <= v_now then excluded.window_ends_at else c.window_ends_at end,
         hits = case when c.window_ends_at <= v_now then 1 else c.hits + 1 end
   where c.window_ends_at <= v_now or c.hits < p_max
  returning c.window_ends_at into v_ends;
  if found then
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
  for v_limit in select l.value from jsonb_array_elements(p_limits) as l(value) loop
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

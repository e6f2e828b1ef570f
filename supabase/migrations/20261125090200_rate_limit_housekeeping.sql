-- =============================================================================
-- Rate-limit housekeeping only when a hit starts a window (issue 13).
-- =============================================================================
--
-- private.hit_rate_limit deleted up to 4 finished counters on EVERY hit: a
-- second statement (an index scan with row locks) on every vote and comment.
-- Counters are only ever added by a hit that starts a window (a new key), so
-- cleaning up on those hits alone keeps the promise of
-- 20261124100000_rate_limits.sql: each added row comes with the removal of up
-- to four finished ones, and finished windows cannot pile up. A hit inside a
-- running window is now the upsert alone.

create or replace function private.hit_rate_limit(p_key text, p_max integer, p_window_seconds integer)
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

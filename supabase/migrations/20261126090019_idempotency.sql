-- =============================================================================
-- Domain: idempotency. The answers of votes and comments kept under the
-- caller's Idempotency-Key, so that an action sent again (queued offline,
-- retried after a lost answer) takes effect once.
-- =============================================================================
--
-- docs/offline.md "Idempotency keys"; docs/decisions/0068-idempotency-keys.md.
-- The API sends a request with a key as ONE statement (after the claims
-- statement, in the request's one round trip; _shared/db/client.ts requestRow):
--
--   select coalesce(claim.stored,
--                   private.store_idempotent_answer(key,
--                     (select coalesce(jsonb_agg(to_jsonb(a)), '[]') from (<the route's statement>) a))) as answer,
--          claim.stored is not null as replayed
--     from private.claim_idempotency_key(key, fingerprint) claim(stored)
--
-- private.claim_idempotency_key runs first (the FROM) and answers null when
-- this request holds the key, or the answer stored with it. COALESCE only
-- evaluates what it needs (like CASE), so the route's statement runs only
-- for the request that holds the key, and its answer is stored in the same
-- transaction. A replay runs nothing else and commits: the rate limits the
-- claims statement counted before it stay counted. A request that fails
-- rolls back its claim with everything else: nothing is kept, and a repeat
-- is judged afresh.
--
-- Keys belong to the caller the claims name (a member by auth.uid(), else
-- the guest by private.claimed_guest_id(): the gate of the claims statement
-- has checked both): never global, so one caller can neither read nor block
-- another's answer. The same key for another request (method, path or body:
-- the fingerprint the API computes) is HP422.
--
-- Concurrency: a repeat sent while the first is still running waits on the
-- key's row (the first one's INSERT holds its unique index entry) and then
-- replays what it stored, or, when the first rolled back, holds the key
-- itself.
--
-- Lifetime: 7 days from the claim (private.idempotency_key_cutoff; the API's
-- contract/idempotency.ts says the same). A claim deletes a few of its
-- caller's expired keys; the scheduler deletes the rest
-- (private.expire_idempotency_keys); an expired key is claimed afresh.
--
-- The table lives in `private` (plumbing of the API, not application data):
-- no grants, RLS with a deny-all policy, reached only through the definers
-- below.

create table private.idempotency_keys (
  id          bigint generated always as identity primary key,
  -- The caller: a member or a guest (exactly one); their keys go with them.
  user_id     uuid references app.users (id) on delete cascade,
  guest_id    uuid references app.guests (id) on delete cascade,
  key         text not null,
  -- Lower-case hex SHA-256 of the request's method, path and canonical body.
  fingerprint text not null,
  -- The statement's rows as a JSON array; null only inside the claiming
  -- transaction, before the answer is stored.
  answer      jsonb,
  created_at  timestamptz not null default now(),

  constraint idempotency_keys_one_caller check (num_nonnulls(user_id, guest_id) = 1),
  constraint idempotency_keys_key_shape check (key ~ '^[A-Za-z0-9_-]{8,100}$'),
  constraint idempotency_keys_fingerprint_shape check (fingerprint ~ '^[0-9a-f]{64}$'),
  constraint idempotency_keys_answer_array check (answer is null or jsonb_typeof(answer) = 'array'),
  -- A key is unique per caller. These also serve the foreign keys, and a
  -- caller's lookup (user_id = $1 or guest_id = $2: one index each).
  constraint idempotency_keys_user_key unique (user_id, key),
  constraint idempotency_keys_guest_key unique (guest_id, key)
);
comment on table private.idempotency_keys is
  'The answer of each vote or comment sent with an Idempotency-Key, per caller, for 7 days. No grants: reached only through private.claim_idempotency_key, private.store_idempotent_answer and private.expire_idempotency_keys.';

-- The scheduler finds expired keys by this index, oldest first.
create index idempotency_keys_created_at_idx on private.idempotency_keys (created_at);

-- -----------------------------------------------------------------------------
-- How long a key is kept
-- -----------------------------------------------------------------------------
create function private.idempotency_key_cutoff()
returns timestamptz
language sql
stable
set search_path = ''
as $$
  -- IDEMPOTENCY_KEY_LIFETIME_DAYS of contract/idempotency.ts.
  select now() - interval '7 days'
$$;
comment on function private.idempotency_key_cutoff() is
  'Keys claimed before this instant have expired (7 days).';
revoke all on function private.idempotency_key_cutoff() from public;

-- -----------------------------------------------------------------------------
-- private.claim_idempotency_key: hold the key, or answer what it stored
-- -----------------------------------------------------------------------------
-- null: this request holds the key (new, expired, or left by a request that
-- stored nothing): run the statement and store its answer. Otherwise the
-- answer stored with the key: replay it. HP422 when the caller used the key
-- for another request; HP400 for a malformed key (the API refuses those
-- first). SECURITY DEFINER: the request roles have no privilege on the table.
create function private.claim_idempotency_key(p_key text, p_fingerprint text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user   uuid := auth.uid();
  v_guest  uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_cutoff timestamptz := private.idempotency_key_cutoff();
  v_row    private.idempotency_keys;
begin
  if v_user is null and v_guest is null then
    -- The API sends keys only with a member or a guest the gate let through.
    raise exception 'private.claim_idempotency_key: no caller in the claims';
  end if;
  if p_key is null or p_key !~ '^[A-Za-z0-9_-]{8,100}$' then
    raise exception using errcode = 'HP400',
      message = 'Idempotency-Key must be 8 to 100 letters, digits, hyphens or underscores';
  end if;
  if p_fingerprint is null or p_fingerprint !~ '^[0-9a-f]{64}$' then
    raise exception 'private.claim_idempotency_key: invalid fingerprint';
  end if;

  -- Housekeeping: a few of this caller's expired keys, skipping any another
  -- request holds, so it never waits.
  delete from private.idempotency_keys k
   where k.id = any (array(
     select o.id from private.idempotency_keys o
      where (o.user_id = v_user or o.guest_id = v_guest) and o.created_at < v_cutoff
      limit 8
      for update skip locked));

  loop
    -- Waits while another request of this caller holds the same key, until
    -- it commits (then: a conflict) or rolls back (then: ours).
    insert into private.idempotency_keys (user_id, guest_id, key, fingerprint)
    values (v_user, v_guest, p_key, p_fingerprint)
    on conflict do nothing;
    if found then
      return null;
    end if;
    -- A new snapshot: sees the row of the request that just committed.
    select k.* into v_row from private.idempotency_keys k
     where (k.user_id = v_user or k.guest_id = v_guest) and k.key = p_key
     for update;
    exit when found;
    -- Deleted (expired) in between: insert again.
  end loop;

  if v_row.created_at < v_cutoff or v_row.answer is null then
    -- Expired, or nothing stored: judged afresh, as a new key.
    update private.idempotency_keys k
       set fingerprint = p_fingerprint, answer = null, created_at = now()
     where (k.user_id = v_user or k.guest_id = v_guest) and k.key = p_key;
    return null;
  end if;
  if v_row.fingerprint <> p_fingerprint then
    raise exception using errcode = 'HP422',
      message = 'This Idempotency-Key was already used for a different request, send a new key';
  end if;
  return v_row.answer;
end;
$$;
comment on function private.claim_idempotency_key(text, text) is
  'The caller''s Idempotency-Key: null when this request holds it (run and store), else the stored answer (replay). HP422 when the key was used for another request.';
revoke all on function private.claim_idempotency_key(text, text) from public;
grant execute on function private.claim_idempotency_key(text, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.store_idempotent_answer: keep the answer with the key just claimed
-- -----------------------------------------------------------------------------
-- Returns p_answer, so the statement answers what it stored.
create function private.store_idempotent_answer(p_key text, p_answer jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user  uuid := auth.uid();
  v_guest uuid := case when auth.uid() is null then private.claimed_guest_id() end;
begin
  update private.idempotency_keys k
     set answer = p_answer
   where (k.user_id = v_user or k.guest_id = v_guest) and k.key = p_key and k.answer is null;
  if not found then
    raise exception 'private.store_idempotent_answer: the key % was not claimed by this request', p_key;
  end if;
  return p_answer;
end;
$$;
comment on function private.store_idempotent_answer(text, jsonb) is
  'Stores the answer of the request that claimed the caller''s key (same transaction); returns it.';
revoke all on function private.store_idempotent_answer(text, jsonb) from public;
grant execute on function private.store_idempotent_answer(text, jsonb) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.expire_idempotency_keys: the scheduler's housekeeping
-- -----------------------------------------------------------------------------
-- Deletes up to p_limit expired keys, oldest first (by their index), skipping
-- any a request holds; answers how many. Role service_role
-- (POST /api/scheduler/run).
create function private.expire_idempotency_keys(p_limit integer)
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  with gone as (
    delete from private.idempotency_keys k
     where k.id = any (array(
       select o.id from private.idempotency_keys o
        where o.created_at < private.idempotency_key_cutoff()
        order by o.created_at
        limit greatest(p_limit, 0)
        for update skip locked))
    returning 1)
  select count(*)::integer from gone
$$;
comment on function private.expire_idempotency_keys(integer) is
  'Deletes up to p_limit Idempotency-Keys older than 7 days; the number deleted.';
revoke all on function private.expire_idempotency_keys(integer) from public;
grant execute on function private.expire_idempotency_keys(integer) to service_role;

-- -----------------------------------------------------------------------------
-- Row-level security: nobody reaches the table directly
-- -----------------------------------------------------------------------------
alter table private.idempotency_keys enable row level security;
-- No grants and a deny-all policy (like app.rate_limit_counters).
create policy idempotency_keys_no_direct_access on private.idempotency_keys
  as restrictive
  for all to anon, authenticated
  using (false)
  with check (false);

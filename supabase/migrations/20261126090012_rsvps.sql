-- =============================================================================
-- Domain: rsvps. Who is coming once the date is set: each participant's
-- answer (going, maybe, can't go) with the friends they bring, the spots
-- (plans.capacity, plans.max_plus_ones, the plans file) and the waitlist,
-- the host answering for someone, and the answers asked again when the date
-- changes (docs/api-after-the-date.md "Who's coming", docs/decisions/0095-0097).
-- =============================================================================
--
-- Every change that can move a spot (an answer, the host's answer for
-- someone, the spots changing, someone leaving or being removed, a new date)
-- runs under the plan's rsvps lock (private.lock_rsvps: alone, or for an
-- answer shared and then one at a time when the plan has spots), so the
-- headcount never goes over the spots and a waitlisted party is promoted once. Promotion
-- happens in the same transaction as what opened the spot, and the promoted
-- person is told through the outbox (private.enqueue_notification, kind
-- spot_opened) in that transaction too.
--
-- Lock order, everywhere: the plan's row (a host action holds it) before the
-- rsvps lock, the rsvps lock before the spots lock, both before the row of a
-- participant who answers or goes and before any rsvps row. An answer never
-- locks the plan's row, so it never waits on a host action that waits on it.
-- It looks up who answers under the rsvps lock, and the host's removal takes
-- that lock before it deletes anyone (private.remove_participant): so an
-- answer and a removal of the same person never deadlock, and the answer
-- either comes first (and goes with them) or sees them gone and is refused
-- with the removal's sentence (docs/api-after-the-date.md "Who's coming").

-- -----------------------------------------------------------------------------
-- app.rsvps
-- -----------------------------------------------------------------------------
-- One row per participant who has answered (or whose answer a new date reset).
-- No row and a null answer both read as "not answered".
create table app.rsvps (
  participant_id uuid not null,
  plan_id        uuid not null,
  -- 'waitlist' is never asked for: a 'going' that does not fit becomes it.
  -- Null: asked again after a new date (ask_again), not answered since.
  answer         text,
  -- Friends coming along (only with going or waitlist; the plan's
  -- max_plus_ones bounds what an answer may ask for).
  plus_ones      integer not null default 0,
  -- Tap order: taken under the plan's rsvps lock, so the waitlist is in the
  -- order the answers were given. Kept while one stays going or waitlisted.
  queued_at      timestamptz not null default clock_timestamp(),
  -- Answered by the host (or a co-host) for them; their own answer clears it.
  set_by_host    boolean not null default false,
  -- The answer was reset by a new date and not given since.
  ask_again      boolean not null default false,
  -- The date (and the time, once set) the answer was given for: a different
  -- one asks again (private.rsvps_ask_again).
  for_date       date,
  for_time       text,
  answered_at    timestamptz not null default now(),

  -- The key is the participant (one answer each); plan_id in it so the
  -- composite foreign key below has its index.
  constraint rsvps_pkey primary key (participant_id, plan_id),
  -- The participant must be OF THIS PLAN; the answer goes with them.
  constraint rsvps_participant_fkey foreign key (participant_id, plan_id)
    references app.participants (id, plan_id) on delete cascade,
  constraint rsvps_answer_valid check (answer is null or answer in ('going', 'maybe', 'no', 'waitlist')),
  constraint rsvps_plus_ones_range check (plus_ones between 0 and 10),
  constraint rsvps_plus_ones_with_going check (plus_ones = 0 or answer in ('going', 'waitlist'))
) with (fillfactor = 70);
comment on table app.rsvps is
  'Answers once the date is set (going, maybe, no, waitlist) with the friends brought. Written only by the rsvps definers.';

-- The headcount, the counts and the waitlist in tap order, and the policies'
-- plan_id filter.
-- On plan_id alone: an answer changes `answer` and `queued_at`, and with
-- neither indexed its update is a HOT one (no new index entries, room left
-- on the page by the fill factor), as answers are given again and again.
-- A plan's answers are at most its participants: read by plan, they are
-- counted and ordered in memory.
create index rsvps_plan_id_idx on app.rsvps (plan_id);

grant select on app.rsvps to anon, authenticated;

alter table app.rsvps enable row level security;

-- Read like the votes: link holders (claim plan_id) and participants. No
-- write policy and no write grant: every write goes through the definers
-- below, which make the checks themselves.
create policy rsvps_select_anon on app.rsvps
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy rsvps_select_authenticated on app.rsvps
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));

-- -----------------------------------------------------------------------------
-- private.lock_rsvps: the one lock per plan
-- -----------------------------------------------------------------------------
-- Transaction-scoped advisory locks. Whatever moves spots for others (the
-- spots changing, someone leaving, a new date) takes the plan's rsvps lock
-- alone (p_mode 'all'). An answer takes it shared ('answer'): answers do not
-- wait for each other on a plan without spots, where an answer moves nobody
-- else; on a plan with spots they then take the spots lock ('spots') and go
-- one at a time, in tap order (docs/decisions/0096).
create function private.lock_rsvps(p_plan_id uuid, p_mode text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  case p_mode
    when 'all' then perform pg_advisory_xact_lock(hashtextextended('hangplan.rsvps:' || p_plan_id::text, 0));
    when 'answer' then perform pg_advisory_xact_lock_shared(hashtextextended('hangplan.rsvps:' || p_plan_id::text, 0));
    when 'spots' then perform pg_advisory_xact_lock(hashtextextended('hangplan.rsvps.spots:' || p_plan_id::text, 0));
  end case;
end;
$$;
comment on function private.lock_rsvps(uuid, text) is
  'The plan''s rsvps locks (transaction-scoped): ''all'' for what moves spots for others, ''answer'' (shared) then ''spots'' for an answer on a plan with spots.';
revoke all on function private.lock_rsvps(uuid, text) from public;

-- -----------------------------------------------------------------------------
-- private.promote_waitlist: fill the open spots, in tap order
-- -----------------------------------------------------------------------------
-- Called under the plan's rsvps lock (alone, or an answer's spots lock)
-- after anything that may open a spot.
-- Each waitlisted party (the person and their friends), first answered first,
-- is promoted when it fits in what is left; a party too big for what is left
-- waits and a smaller one behind it may go (docs/decisions/0096). Each
-- promoted person but p_except (the caller, who sees the answer) is told
-- "A spot opened: you're going to ..." by push and e-mail. No spots (null
-- capacity) promotes everyone. Returns how many were promoted.
create function private.promote_waitlist(p_plan_id uuid, p_except uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_capacity integer;
  v_free     integer;
  v_party    record;
  v_promoted integer := 0;
begin
  select p.capacity into v_capacity from app.plans p where p.id = p_plan_id;
  if not found then
    -- The plan is being deleted (the cascade reached its answers).
    return 0;
  end if;
  if v_capacity is not null then
    select v_capacity - coalesce(sum(1 + r.plus_ones), 0)::integer into v_free
      from app.rsvps r where r.plan_id = p_plan_id and r.answer = 'going';
  end if;
  for v_party in
    select r.participant_id, r.plus_ones
      from app.rsvps r
     where r.plan_id = p_plan_id and r.answer = 'waitlist'
     order by r.queued_at, r.participant_id
  loop
    exit when v_capacity is not null and v_free <= 0;
    continue when v_capacity is not null and 1 + v_party.plus_ones > v_free;
    update app.rsvps r set answer = 'going'
     where r.participant_id = v_party.participant_id and r.plan_id = p_plan_id;
    v_free := v_free - 1 - v_party.plus_ones;
    v_promoted := v_promoted + 1;
    if v_party.participant_id is distinct from p_except then
      perform private.enqueue_notification(p_plan_id, 'spot_opened',
        jsonb_build_object('plusOnes', v_party.plus_ones),
        'participant:' || v_party.participant_id::text, true, null);
    end if;
  end loop;
  return v_promoted;
end;
$$;
comment on function private.promote_waitlist(uuid, uuid) is
  'Under the plan''s rsvps lock: promotes waitlisted parties that fit, in tap order, and tells each (but p_except) by the outbox (spot_opened). Returns how many.';
revoke all on function private.promote_waitlist(uuid, uuid) from public;

-- -----------------------------------------------------------------------------
-- private.answer_rsvp: one participant's answer (theirs or the host's for them)
-- -----------------------------------------------------------------------------
-- The checks of who may answer are the callers' (private.rsvp,
-- private.rsvp_for); this is the rule itself, under the plan's rsvps lock:
--   * the plan has a locked date (HP409 'Answers open once the date is set.')
--     and is not cancelled (HP409 'This plan was cancelled.');
--   * plus-ones only with going, at most the plan's max_plus_ones (HP400);
--   * going when the party fits in the spots, else the waitlist in tap order;
--     someone going keeps their place but cannot add friends past the spots
--     (HP409), someone waitlisted keeps their place in the queue;
--   * then the waitlist is promoted into whatever this answer opened.
-- Answers (answer, plus_ones, position, promoted): position is the place in
-- the waitlist (1, 2, ...), null unless waitlisted; promoted, how many others
-- were let in (the API then delivers their notices at once).
create function private.answer_rsvp(
  p_plan_id uuid, p_participant_id uuid, p_answer text, p_plus_ones integer, p_by_host boolean)
returns table (answer text, plus_ones integer, "position" integer, promoted integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan   record;
  v_cur    record;
  v_plus   integer := case when p_answer = 'going' then coalesce(p_plus_ones, 0) else 0 end;
  v_count  integer;
  v_answer text := p_answer;
  v_promoted integer;
begin
  if p_answer is null or p_answer not in ('going', 'maybe', 'no') then
    raise exception using errcode = 'HP400', message = 'Answer must be going, maybe or no';
  end if;
  -- Under the plan's rsvps lock ('answer'), which both callers take before
  -- they look up who answers (private.rsvp, private.rsvp_for).
  select p.status, p.capacity, p.max_plus_ones, p.locked_time_slot_date, p.event_time into v_plan
    from app.plans p where p.id = p_plan_id;
  -- Spots: the answers go one at a time. The spots cannot change meanwhile
  -- (private.set_capacity takes the lock alone); if they did just before,
  -- this answer counts as given before them.
  if v_plan.capacity is not null then
    perform private.lock_rsvps(p_plan_id, 'spots');
  end if;
  if v_plan.status = 'cancelled' then
    raise exception using errcode = 'HP409', message = 'This plan was cancelled.';
  end if;
  if v_plan.status = 'planning' or v_plan.locked_time_slot_date is null then
    raise exception using errcode = 'HP409', message = 'Answers open once the date is set.';
  end if;
  if v_plus < 0 or v_plus > v_plan.max_plus_ones then
    raise exception using errcode = 'HP400',
      message = format('You can bring at most %s friends to this plan.', v_plan.max_plus_ones);
  end if;

  if p_answer = 'going' and v_plan.capacity is not null then
    select r.answer, r.plus_ones into v_cur
      from app.rsvps r where r.participant_id = p_participant_id and r.plan_id = p_plan_id;
    select coalesce(sum(1 + r.plus_ones), 0)::integer into v_count
      from app.rsvps r
     where r.plan_id = p_plan_id and r.answer = 'going' and r.participant_id <> p_participant_id;
    if v_cur.answer = 'waitlist' then
      -- Keeps the place in the queue; the promotion below lets it in if it fits.
      v_answer := 'waitlist';
    elsif v_count + 1 + v_plus > v_plan.capacity then
      if v_cur.answer = 'going' then
        if v_plus > v_cur.plus_ones then
          raise exception using errcode = 'HP409',
            message = format('Only %s more can come: bring fewer friends.',
                             greatest(v_plan.capacity - v_count - 1 - v_cur.plus_ones, 0));
        end if;
      else
        v_answer := 'waitlist';
      end if;
    end if;
  end if;

  insert into app.rsvps as r
    (participant_id, plan_id, answer, plus_ones, queued_at, set_by_host, ask_again, for_date, for_time, answered_at)
  values (p_participant_id, p_plan_id, v_answer, v_plus, clock_timestamp(), p_by_host, false,
          v_plan.locked_time_slot_date, v_plan.event_time, now())
  on conflict (participant_id, plan_id) do update
     set answer = excluded.answer,
         plus_ones = excluded.plus_ones,
         -- Staying in (going or waitlisted) keeps one's place; coming back starts a new one.
         queued_at = case when r.answer in ('going', 'waitlist') and excluded.answer in ('going', 'waitlist')
                          then r.queued_at else excluded.queued_at end,
         set_by_host = excluded.set_by_host,
         ask_again = false,
         for_date = excluded.for_date,
         for_time = excluded.for_time,
         answered_at = excluded.answered_at;

  -- Without spots nobody waits (no spots promotes everyone): nothing to
  -- promote, and the answer is what was written.
  if v_plan.capacity is null then
    return query select v_answer, v_plus, null::integer, 0;
    return;
  end if;
  v_promoted := private.promote_waitlist(p_plan_id, case when not p_by_host then p_participant_id end);

  return query
  select r.answer, r.plus_ones,
         case when r.answer = 'waitlist' then (
           select count(*)::integer from app.rsvps w
            where w.plan_id = p_plan_id and w.answer = 'waitlist'
              and (w.queued_at, w.participant_id) <= (r.queued_at, r.participant_id)) end,
         v_promoted
    from app.rsvps r
   where r.participant_id = p_participant_id and r.plan_id = p_plan_id;
end;
$$;
comment on function private.answer_rsvp(uuid, uuid, text, integer, boolean) is
  'The answer rule under the plan''s rsvps lock (locked date HP409, cancelled HP409, friends HP400/HP409, going or waitlist, promotion). For private.rsvp and private.rsvp_for, which check the caller.';
revoke all on function private.answer_rsvp(uuid, uuid, text, integer, boolean) from public;

-- -----------------------------------------------------------------------------
-- app.rsvp: the caller answers (PUT /api/plans/{id}/rsvp)
-- -----------------------------------------------------------------------------
-- Like a vote (docs/decisions/0064): a member is joined on a first answer, a
-- guest of the plan answers from any of its devices (a restored one too),
-- a guest of another plan is HP403, no identity HP401.
create function private.rsvp(p_plan_id uuid, p_answer text, p_plus_ones integer)
returns table (answer text, plus_ones integer, "position" integer, promoted integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- Plain expressions, not subqueries: PL/pgSQL evaluates them without the executor.
  v_user_id  uuid := auth.uid();
  v_guest_id uuid := case when v_user_id is null then private.claimed_guest_id() end;
  v_me       uuid;
begin
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if not exists (select 1 from app.plans p where p.id = p_plan_id) or not private.can_read_plan(p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  if v_user_id is not null then
    -- A member is joined by a first answer: under the plan's membership lock,
    -- which comes before the rsvps lock (as in private.remove_participant).
    perform private.ensure_writer(p_plan_id, 'Join the plan first to answer');
  end if;
  -- Who answers, looked up under the rsvps lock: a removal holds it while it
  -- deletes (the lock order above), so what is found stays until the answer
  -- is written, and what a removal took meanwhile is seen gone.
  perform private.lock_rsvps(p_plan_id, 'answer');
  if v_user_id is not null then
    select pa.id into v_me from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id;
  else
    select pa.id into v_me from app.participants pa where pa.guest_id = v_guest_id and pa.plan_id = p_plan_id;
  end if;
  if v_me is null then
    -- Removed (also while this waited for the lock): the removal's sentence,
    -- as the request's gate and a join give it (docs/decisions/0083-removal-holds.md,
    -- 0104-an-answer-and-a-removal-one-lock-order.md). A removed guest's
    -- credentials are gone, so its device is known by the secret it sends.
    if v_user_id is not null then
      if exists (select 1 from app.plan_removals r where r.plan_id = p_plan_id and r.user_id = v_user_id) then
        raise exception using errcode = 'HP403', message = 'The host removed you from this plan';
      end if;
    else
      perform private.refuse_removed_device(p_plan_id, (select private.jwt_claims()) ->> 'guest_secret_hash');
    end if;
    -- Anyone else: the writers' sentences (no identity, a guest of another
    -- plan, a cancelled plan); a member who left meanwhile: join first.
    if v_user_id is null then
      perform private.ensure_writer(p_plan_id, 'Join the plan first to answer');
    end if;
    raise exception using errcode = 'HP401', message = 'Join the plan first to answer';
  end if;
  return query select a.answer, a.plus_ones, a."position", a.promoted
                 from private.answer_rsvp(p_plan_id, v_me, p_answer, p_plus_ones, false) a;
end;
$$;
comment on function private.rsvp(uuid, text, integer) is
  'app.rsvp''s rule, as a definer that checks the caller once (readable plan HP404, participant writer as for ideas HP401/HP403, HP403 removed by the host), looked up under the rsvps lock, then private.answer_rsvp.';
revoke all on function private.rsvp(uuid, text, integer) from public;
grant execute on function private.rsvp(uuid, text, integer) to anon, authenticated;

create function app.rsvp(p_plan_id uuid, p_answer text, p_plus_ones integer default 0)
returns table (answer text, plus_ones integer, "position" integer, promoted integer)
language sql
volatile
set search_path = ''
as $$
  select r.answer, r.plus_ones, r."position", r.promoted from private.rsvp(p_plan_id, p_answer, p_plus_ones) r
$$;
comment on function app.rsvp(uuid, text, integer) is
  'The caller answers going, maybe or no (private.rsvp): going or waitlist, plus_ones, and the waitlist position.';
revoke all on function app.rsvp(uuid, text, integer) from public;
grant execute on function app.rsvp(uuid, text, integer) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.rsvp_for: the host answers for someone (PUT /api/plans/{id}/rsvps/{participantId})
-- -----------------------------------------------------------------------------
-- For someone who replied in the chat: the row is marked set_by_host, and
-- the person sees it and may change it. "The host and co-hosts": the host's
-- check of the plans file (private.require_plan_host); who else counts as
-- the host is docs/authorization.md's.
create function private.rsvp_for(p_plan_id uuid, p_participant_id uuid, p_answer text, p_plus_ones integer)
returns table (answer text, plus_ones integer, "position" integer, promoted integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_plan_host(p_plan_id, 'Only the host can answer for someone');
  -- The person is looked up under the rsvps lock, as in private.rsvp.
  perform private.lock_rsvps(p_plan_id, 'answer');
  if not exists (select 1 from app.participants pa where pa.id = p_participant_id and pa.plan_id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'This person is not in the plan';
  end if;
  return query select a.answer, a.plus_ones, a."position", a.promoted
                 from private.answer_rsvp(p_plan_id, p_participant_id, p_answer, p_plus_ones, true) a;
end;
$$;
comment on function private.rsvp_for(uuid, uuid, text, integer) is
  'app.rsvp_for''s rule: HP404 unreadable plan or a participant not of it, HP403 not the host; then private.answer_rsvp marked set_by_host.';
revoke all on function private.rsvp_for(uuid, uuid, text, integer) from public;
grant execute on function private.rsvp_for(uuid, uuid, text, integer) to authenticated;

create function app.rsvp_for(p_plan_id uuid, p_participant_id uuid, p_answer text, p_plus_ones integer default 0)
returns table (answer text, plus_ones integer, "position" integer, promoted integer)
language sql
volatile
set search_path = ''
as $$
  select r.answer, r.plus_ones, r."position", r.promoted from private.rsvp_for(p_plan_id, p_participant_id, p_answer, p_plus_ones) r
$$;
comment on function app.rsvp_for(uuid, uuid, text, integer) is
  'The host answers for a participant (private.rsvp_for).';
revoke all on function app.rsvp_for(uuid, uuid, text, integer) from public;
grant execute on function app.rsvp_for(uuid, uuid, text, integer) to authenticated;

-- -----------------------------------------------------------------------------
-- app.set_capacity: the spots and the friends one may bring (POST capacity)
-- -----------------------------------------------------------------------------
-- p_capacity null: no limit. p_max_plus_ones null: unchanged. Lowering the
-- spots below the headcount bumps nobody: who is going stays going, and new
-- "going" answers wait (docs/decisions/0096); lowering the friends one may
-- bring keeps the friends already coming. Raising the spots promotes from
-- the waitlist. The plan's row first (the host's lock order), then the
-- rsvps lock.
create function private.set_capacity(p_plan_id uuid, p_capacity integer, p_max_plus_ones integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_plan_host(p_plan_id, 'Only the host can set the spots');
  if p_capacity is not null and p_capacity not between 1 and 1000 then
    raise exception using errcode = 'HP400', message = 'Spots must be a whole number from 1 to 1000';
  end if;
  if p_max_plus_ones is not null and p_max_plus_ones not between 0 and 10 then
    raise exception using errcode = 'HP400', message = 'Friends per person must be a whole number from 0 to 10';
  end if;
  update app.plans p
     set capacity = p_capacity,
         max_plus_ones = coalesce(p_max_plus_ones, p.max_plus_ones)
   where p.id = p_plan_id;
  perform private.lock_rsvps(p_plan_id, 'all');
  return private.promote_waitlist(p_plan_id, null);
end;
$$;
comment on function private.set_capacity(uuid, integer, integer) is
  'app.set_capacity''s rule: HP404 unreadable plan, HP403 not the host, HP400 out of range; sets the spots (null: none) and the friends per person, then promotes who now fits (returns how many).';
revoke all on function private.set_capacity(uuid, integer, integer) from public;
grant execute on function private.set_capacity(uuid, integer, integer) to authenticated;

create function app.set_capacity(p_plan_id uuid, p_capacity integer, p_max_plus_ones integer default null)
returns integer
language sql
volatile
set search_path = ''
as $$
  select private.set_capacity(p_plan_id, p_capacity, p_max_plus_ones)
$$;
comment on function app.set_capacity(uuid, integer, integer) is
  'The host sets the plan''s spots and friends per person (private.set_capacity).';
revoke all on function app.set_capacity(uuid, integer, integer) from public;
grant execute on function app.set_capacity(uuid, integer, integer) to authenticated;

-- -----------------------------------------------------------------------------
-- The plan JSON's answers: {going, maybe, headcount}, null before a date
-- -----------------------------------------------------------------------------
-- Like private.plan_participant_count (the participants file): for any
-- caller who can read the plan, also by its slug alone (whom the rsvps
-- policies show nothing), null for anyone else and before a date is locked.
create function private.plan_answers(p_plan_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case
           when p.locked_time_slot_date is not null
                and (p.id = (select private.claimed_plan_id())
                     or p.slug = (select private.claimed_plan_slug())
                     or p.host_id = (select auth.uid())
                     or private.is_participant(p.id))
           then (select jsonb_build_object(
                          'going', count(*) filter (where r.answer = 'going'),
                          'maybe', count(*) filter (where r.answer = 'maybe'),
                          'headcount', coalesce(sum(1 + r.plus_ones) filter (where r.answer = 'going'), 0))
                   from app.rsvps r where r.plan_id = p.id)
         end
    from app.plans p
   where p.id = p_plan_id
$$;
comment on function private.plan_answers(uuid) is
  'The plan JSON''s answers ({going, maybe, headcount}) for a caller who can read the plan (claim plan_id/plan_slug, host, participant); null before a date is locked or otherwise.';
revoke all on function private.plan_answers(uuid) from public;
grant execute on function private.plan_answers(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- A new date asks again (docs/decisions/0097)
-- -----------------------------------------------------------------------------
-- When the host locks a date other than the one an answer was given for, or
-- sets a time other than the one it was given for, every such answer goes
-- back to unanswered with ask_again (the person is asked "New date: are you
-- still coming?"), the waitlist with it. An answer given before the time was
-- set counts as given for the time the host then sets (the usual next step).
-- Unlocking changes no answer: they are closed while no date is locked, and
-- locking the same date again brings them back as they were.
create function private.rsvps_ask_again()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.lock_rsvps(new.id, 'all');
  update app.rsvps r
     set answer = null, plus_ones = 0, set_by_host = false, ask_again = true,
         for_date = new.locked_time_slot_date, for_time = new.event_time
   where r.plan_id = new.id
     and r.answer is not null
     and (r.for_date is distinct from new.locked_time_slot_date
          or (r.for_time is not null and new.event_time is not null and r.for_time <> new.event_time));
  update app.rsvps r
     set for_time = new.event_time
   where r.plan_id = new.id
     and r.answer is not null
     and r.for_time is null
     and new.event_time is not null;
  return null;
end;
$$;
comment on function private.rsvps_ask_again() is
  'AFTER UPDATE of the locked date or time on app.plans: answers given for another date or time go back to unanswered (ask_again).';
revoke all on function private.rsvps_ask_again() from public;

create trigger plans_rsvps_ask_again
  after update of locked_time_slot_date, event_time on app.plans
  for each row
  when (new.locked_time_slot_date is not null
        and (old.locked_time_slot_date is distinct from new.locked_time_slot_date
             or old.event_time is distinct from new.event_time))
  execute function private.rsvps_ask_again();

-- -----------------------------------------------------------------------------
-- Leaving or being removed opens a spot
-- -----------------------------------------------------------------------------
-- A participant's answer goes with them (the foreign key's cascade), whatever
-- removes them: leaving, the host's removal, a guest deleted, an account
-- deleted. The rsvps lock is taken before the answer goes (so the cascade's
-- row lock on the answer is taken under it, in the lock order above), and
-- after the answer has gone the waitlist is promoted. A BEFORE DELETE
-- trigger runs once its row is locked, so the host's removal, which runs
-- beside answers, takes the rsvps lock itself before it deletes anything
-- (private.remove_participant).
create function private.rsvps_lock_before_leaving()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from app.rsvps r where r.participant_id = old.id and r.plan_id = old.plan_id) then
    perform private.lock_rsvps(old.plan_id, 'all');
  end if;
  return old;
end;
$$;
comment on function private.rsvps_lock_before_leaving() is
  'BEFORE DELETE on app.participants: takes the plan''s rsvps lock when the participant has an answer.';
revoke all on function private.rsvps_lock_before_leaving() from public;

create trigger participants_rsvps_lock
  before delete on app.participants
  for each row execute function private.rsvps_lock_before_leaving();

create function private.rsvps_open_spot()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.lock_rsvps(old.plan_id, 'all');
  perform private.promote_waitlist(old.plan_id, null);
  return null;
end;
$$;
comment on function private.rsvps_open_spot() is
  'AFTER DELETE on app.rsvps of someone going: promotes the waitlist into the spot it opened.';
revoke all on function private.rsvps_open_spot() from public;

create trigger rsvps_open_spot
  after delete on app.rsvps
  for each row
  when (old.answer = 'going')
  execute function private.rsvps_open_spot();

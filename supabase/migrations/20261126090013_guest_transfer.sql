-- =============================================================================
-- Domain: guest_transfer (guests), a guest who signs in. The device that
-- acted as a guest signs in to an account, and the account takes the guest's
-- place in the plan: its name (when the account has none), its votes, ideas
-- and comments, and its place in the join order.
-- =============================================================================

-- -----------------------------------------------------------------------------
-- private.adopt_guest_name: the account keeps the name friends know
-- -----------------------------------------------------------------------------
-- A fresh account has no name, so without this the plan would suddenly show
-- the e-mail's local part ("journey-blake-1a2b") instead of "Blake Rivera".
-- The guest name only fills an account that has no name at all: a name the
-- user chose is never overwritten.
-- It checks the guest's credential itself (claimed_guest_id): it runs first in
-- app.transfer_guest_votes and must not rename the account after a guest
-- whose secret the caller does not hold.
create function private.adopt_guest_name(p_guest_id uuid)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update app.users u
     set first_name = split_part(btrim(g.name), ' ', 1),
         last_name  = nullif(btrim(substr(btrim(g.name), length(split_part(btrim(g.name), ' ', 1)) + 1)), ''),
         updated_at = now()
    from app.guests g
   where g.id = p_guest_id
     and g.id = (select private.claimed_guest_id())
     and u.id = (select auth.uid())
     and u.first_name is null
     and u.last_name is null
$$;

comment on function private.adopt_guest_name(uuid) is
  'Gives the signed-in caller''s nameless account the name of the guest it takes over ("Sam Rivera" -> Sam / Rivera).';

revoke all on function private.adopt_guest_name(uuid) from public;
grant execute on function private.adopt_guest_name(uuid) to authenticated;

-- -----------------------------------------------------------------------------
-- Transfer of a guest's votes to the signed-in user
-- -----------------------------------------------------------------------------
-- After signing in on a device that holds a guest session, the client hands
-- over the guestId. The guest's idea and slot votes become the user's
-- (dropping those the user already has), and its "none of these dates work",
-- the guest's ideas and comments are
-- attributed to the user, the user joins the plan if needed (keeping the
-- guest's place in the join order), and the guest is deleted, which removes
-- its participants row: the guest's row is replaced by the user's.
--
-- SECURITY DEFINER, in `private`: it must rewrite rows owned by the guest,
-- which no RLS policy lets the signed-in user touch, and the user usually
-- cannot even read the guest's plan yet. Its own checks: the caller is signed
-- in (auth.uid()), and the request carries that guest's credential (claims
-- guest_id + guest_secret_hash, checked by claimed_guest_id()): a guest id
-- alone, which is public, takes over nothing.
create function private.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id     uuid := auth.uid();
  v_guest       app.guests;
  v_joined_at   timestamptz;
  v_guest_part  uuid;
  v_user_part   uuid;
  v_idea_votes  integer;
  v_time_votes  integer;
begin
  if v_user_id is null then
    raise exception using errcode = 'HP403', message = 'Sign in to keep your votes';
  end if;

  select * into v_guest from app.guests g where g.id = p_guest_id;
  if found then
    perform private.lock_plan_membership(v_guest.plan_id);
    -- Re-read under the lock: the guest may have left meanwhile.
    select * into v_guest from app.guests g where g.id = p_guest_id for update;
  end if;
  if not found then
    raise exception using errcode = 'HP404', message = 'Guest not found';
  end if;
  -- The caller must hold this guest's secret, not only its (public) id.
  if p_guest_id is distinct from (select private.claimed_guest_id()) then
    raise exception using errcode = 'HP403',
      message = 'This device is no longer confirmed as that guest, please confirm your name again';
  end if;
  -- Absorbing the guest is for its own device: a device that only typed the
  -- guest's name (a restore) may vote as it, not take it away (0064).
  perform private.require_joining_device(p_guest_id);

  select pa.joined_at, pa.id into v_joined_at, v_guest_part
    from app.participants pa where pa.guest_id = p_guest_id;

  -- Join (or keep) the user, at the earlier of the two join times. The name
  -- is derived by trigger.
  insert into app.participants as pa (plan_id, user_id, name, joined_at)
  values (v_guest.plan_id, v_user_id, '-', coalesce(v_joined_at, now()))
  on conflict (plan_id, user_id) do update
    set joined_at = least(pa.joined_at, excluded.joined_at)
  returning pa.id into v_user_part;

  -- Copy the votes the user does not have yet; count what moved.
  with moved as (
    insert into app.idea_votes (idea_id, plan_id, user_id)
    select v.idea_id, v.plan_id, v_user_id
      from app.idea_votes v
     where v.guest_id = p_guest_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer into v_idea_votes from moved;

  -- Each date vote keeps its answer; on a slot the user voted on too, the
  -- user's answer stays.
  with moved as (
    insert into app.time_slot_votes (time_slot_id, plan_id, user_id, answer)
    select v.time_slot_id, v.plan_id, v_user_id, v.answer
      from app.time_slot_votes v
     where v.guest_id = p_guest_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer into v_time_votes from moved;

  -- "None of these dates work" (the dates file's app.no_dates) moves too,
  -- unless the user now has date votes: a date vote clears it, so the user
  -- keeps either the votes or this, never both
  -- (docs/decisions/0108-answers-on-dates.md).
  if exists (select 1 from app.time_slot_votes v where v.plan_id = v_guest.plan_id and v.user_id = v_user_id) then
    delete from app.no_dates n where n.participant_id = v_user_part and n.plan_id = v_guest.plan_id;
  else
    insert into app.no_dates (participant_id, plan_id)
    select v_user_part, n.plan_id from app.no_dates n where n.participant_id = v_guest_part and n.plan_id = v_guest.plan_id
    on conflict do nothing;
  end if;

  update app.ideas i set user_id = v_user_id, guest_id = null where i.guest_id = p_guest_id;
  update app.idea_comments c set user_id = v_user_id, guest_id = null where c.guest_id = p_guest_id;

  -- Cascades: the guest's participants row, its (now copied) votes and its credentials.
  delete from app.guests g where g.id = p_guest_id;

  return query select v_idea_votes, v_time_votes;
end;
$$;
comment on function private.transfer_guest_votes(uuid) is
  'Moves a guest''s votes (minus duplicates), ideas and comments to the signed-in caller, replaces the guest by the user in the plan, deletes the guest. Needs the credential of the device that joined as the guest in the claims (HP403 otherwise). Returns the counts of moved votes.';
revoke all on function private.transfer_guest_votes(uuid) from public;
-- anon too, so that a token-less call answers HP403 with a sentence instead of
-- a permission error (the function itself refuses anyone without auth.uid()).
grant execute on function private.transfer_guest_votes(uuid) to anon, authenticated;

-- The entry point the API calls (SECURITY INVOKER, so the privileged parts
-- stay in the non-exposed `private` schema): adopt the name first, then move
-- the votes (which also rewrites the plan's participant row, named from the
-- account).
create function app.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language plpgsql
volatile
set search_path = ''
as $$
begin
  if auth.uid() is not null then
    perform private.adopt_guest_name(p_guest_id);
  end if;
  return query
    select t.transferred_idea_votes, t.transferred_time_votes
      from private.transfer_guest_votes(p_guest_id) t;
end;
$$;
comment on function app.transfer_guest_votes(uuid) is
  'Signed-in caller takes over a guest''s votes: {transferred_idea_votes, transferred_time_votes}. HP403 not signed in, HP404 unknown guest.';
revoke all on function app.transfer_guest_votes(uuid) from public;
grant execute on function app.transfer_guest_votes(uuid) to anon, authenticated;

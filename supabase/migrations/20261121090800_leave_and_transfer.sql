-- =============================================================================
-- Leaving a plan (with host hand-over) and moving a guest's votes to an account.
-- =============================================================================

-- Both rules change "who is in the plan". They serialise per plan on a
-- transaction-scoped advisory lock, so e.g. the last two participants leaving
-- at the same moment cannot both see "someone else is still here" and leave
-- an empty plan behind. (pg_advisory_xact_lock is callable by any role and is
-- released at commit/rollback.)
create function private.lock_plan_membership(p_plan_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('hangplan.plan_membership:' || p_plan_id::text, 0))
$$;
revoke all on function private.lock_plan_membership(uuid) from public;
grant execute on function private.lock_plan_membership(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- app.leave_plan -> planDeleted
-- -----------------------------------------------------------------------------
-- decisions.md: the last participant leaving deletes the plan. A host who
-- leaves hands the host role to the earliest-joined remaining member with an
-- account; if only guests would remain: HP409.
-- Also: the leaver's votes in the plan are removed (someone who left is no
-- longer part of the group's decision); ideas and comments they wrote stay,
-- signed with their name. A guest who leaves is deleted altogether (its id is
-- its only credential and is of no use outside this plan).
--
-- SECURITY INVOKER: every write is one the caller's RLS allows (own votes, own
-- participants row / own guest, host hands over to a member and deletes its
-- own plan). The protect-host and new-host triggers of app.participants /
-- app.plans keep the invariants even for direct writes.
create function app.leave_plan(p_plan_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id     uuid := (select auth.uid());
  v_guest_id    uuid := case when (select auth.uid()) is null then (select private.claimed_guest_id()) end;
  v_plan        app.plans;
  v_me          app.participants;
  v_others      integer;
  v_next_host   uuid;
begin
  -- Lock first, read after: a leaver that waited for a parallel leaver must
  -- see who hosts NOW (it may just have been handed the plan).
  perform private.lock_plan_membership(p_plan_id);

  select * into v_plan from app.plans p where p.id = p_plan_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;

  select * into v_me from app.participants pa
   where pa.plan_id = p_plan_id
     and ((v_user_id is not null and pa.user_id = v_user_id)
          or (v_guest_id is not null and pa.guest_id = v_guest_id));
  if not found then
    raise exception using errcode = 'HP403', message = 'You are not a participant of this plan';
  end if;

  select count(*) into v_others
    from app.participants pa
   where pa.plan_id = p_plan_id and pa.id <> v_me.id;

  if v_others = 0 then
    -- Last one out. The host is always a participant, so this is the host,
    -- whom the delete policy allows. Everything cascades.
    delete from app.plans p where p.id = p_plan_id;
    if not found then
      raise exception using errcode = 'HP403', message = 'Only the host can delete the plan';
    end if;
    return true;
  end if;

  if v_plan.host_id = v_user_id then
    select pa.user_id into v_next_host
      from app.participants pa
     where pa.plan_id = p_plan_id
       and pa.user_id is not null
       and pa.user_id <> v_user_id
     order by pa.joined_at, pa.id
     limit 1;
    if v_next_host is null then
      raise exception using errcode = 'HP409',
        message = 'Delete the plan instead: no one else with an account can host it';
    end if;
    update app.plans p set host_id = v_next_host where p.id = p_plan_id;
  end if;

  if v_user_id is not null then
    delete from app.idea_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.time_slot_votes v where v.plan_id = p_plan_id and v.user_id = v_user_id;
    delete from app.participants pa where pa.id = v_me.id;
  else
    -- Cascades to the participants row and the guest's votes.
    delete from app.guests g where g.id = v_guest_id;
  end if;
  return false;
end;
$$;
comment on function app.leave_plan(uuid) is
  'Removes the caller (and its votes) from the plan; returns true when it was the last one and the plan was deleted. A leaving host hands over to the earliest-joined member, else HP409.';

revoke all on function app.leave_plan(uuid) from public;
grant execute on function app.leave_plan(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Transfer of a guest's votes to the signed-in user
-- -----------------------------------------------------------------------------
-- After signing in on a device that holds a guest session, the client hands
-- over the guestId. The guest's idea and slot votes become the user's
-- (dropping those the user already has), the guest's ideas and comments are
-- attributed to the user, the user joins the plan if needed (keeping the
-- guest's place in the join order), and the guest is deleted, which removes
-- its participants row: the guest's row is replaced by the user's.
--
-- SECURITY DEFINER, in `private`: it must rewrite rows owned by the guest,
-- which no RLS policy lets the signed-in user touch, and the user usually
-- cannot even read the guest's plan yet. Its own checks: the caller is signed
-- in (auth.uid()), and holds the guest id (the guest's only credential, the
-- same proof a guest request gives). search_path = '' and qualified names.
create function private.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id     uuid := (select auth.uid());
  v_guest       app.guests;
  v_joined_at   timestamptz;
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

  select pa.joined_at into v_joined_at
    from app.participants pa where pa.guest_id = p_guest_id;

  -- Join (or keep) the user, at the earlier of the two join times. The name
  -- is derived by trigger.
  insert into app.participants as pa (plan_id, user_id, name, joined_at)
  values (v_guest.plan_id, v_user_id, '-', coalesce(v_joined_at, now()))
  on conflict (plan_id, user_id) do update
    set joined_at = least(pa.joined_at, excluded.joined_at);

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

  with moved as (
    insert into app.time_slot_votes (time_slot_id, plan_id, user_id)
    select v.time_slot_id, v.plan_id, v_user_id
      from app.time_slot_votes v
     where v.guest_id = p_guest_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer into v_time_votes from moved;

  update app.ideas i set user_id = v_user_id, guest_id = null where i.guest_id = p_guest_id;
  update app.idea_comments c set user_id = v_user_id, guest_id = null where c.guest_id = p_guest_id;

  -- Cascades: the guest's participants row and its (now copied) votes.
  delete from app.guests g where g.id = p_guest_id;

  return query select v_idea_votes, v_time_votes;
end;
$$;
comment on function private.transfer_guest_votes(uuid) is
  'Moves a guest''s votes (minus duplicates), ideas and comments to the signed-in caller, replaces the guest by the user in the plan, deletes the guest. Returns the counts of moved votes.';
revoke all on function private.transfer_guest_votes(uuid) from public;
-- anon too, so that a token-less call answers HP403 with a sentence instead of
-- a permission error (the function itself refuses anyone without auth.uid()).
grant execute on function private.transfer_guest_votes(uuid) to anon, authenticated;

-- The contract's entry point. SECURITY INVOKER wrapper, so the privileged part
-- stays in the non-exposed `private` schema.
create function app.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language sql
volatile
set search_path = ''
as $$
  select t.transferred_idea_votes, t.transferred_time_votes
    from private.transfer_guest_votes(p_guest_id) t
$$;
comment on function app.transfer_guest_votes(uuid) is
  'Signed-in caller takes over a guest''s votes: {transferred_idea_votes, transferred_time_votes}. HP403 not signed in, HP404 unknown guest.';
revoke all on function app.transfer_guest_votes(uuid) from public;
grant execute on function app.transfer_guest_votes(uuid) to anon, authenticated;

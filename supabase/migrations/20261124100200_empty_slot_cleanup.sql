-- =============================================================================
-- A time slot with no votes that is not locked is removed.
-- =============================================================================
--
-- docs/decisions.md "Time slots". Slots are created by a vote (vote-date's
-- find-or-create) or by the host's event time. They used to live as long as
-- their plan, so a vote followed by an unvote left an empty slot behind for
-- good (1,440 clock times x 368 days per plan). Now:
--
--   * when votes are deleted (an unvote, a leave, a guest deleted or
--     transferred), each slot that lost a vote is removed if it has no vote
--     left and is not the plan's locked slot;
--   * when a plan's locked slot changes (unlock, another event time), the
--     previous one is removed on the same terms;
--   * the empty, unlocked slots that exist today are removed once, below.
--
-- Race-free against a parallel vote on the same slot: the clean-up first locks
-- the slot row FOR UPDATE. A vote being inserted holds a KEY SHARE lock on its
-- slot (its foreign key check) until it commits, so the clean-up waits for it
-- and then, in a new statement (a new snapshot), sees that vote and keeps the
-- slot. A vote that comes after the lock waits for the clean-up; if the slot
-- was removed its foreign key fails (23503, the API's 409 "...please try
-- again"), and voting again creates the slot anew.

create function private.remove_empty_time_slots(p_slot_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_slot_id uuid;
begin
  -- Ascending id order: two clean-ups never wait for each other in a circle.
  for v_slot_id in select distinct u.id from unnest(p_slot_ids) as u(id) where u.id is not null order by 1 loop
    perform 1 from app.time_slots s where s.id = v_slot_id for update;
    if not found then
      continue; -- already gone (e.g. the whole plan is being deleted)
    end if;
    delete from app.time_slots s
     where s.id = v_slot_id
       and not exists (select 1 from app.time_slot_votes v where v.time_slot_id = s.id and v.plan_id = s.plan_id)
       and not exists (select 1 from app.plans p where p.locked_time_slot_id = s.id and p.id = s.plan_id);
  end loop;
end;
$$;
comment on function private.remove_empty_time_slots(uuid[]) is
  'Removes each given slot that has no vote and is not its plan''s locked slot (waits for votes in flight).';
revoke all on function private.remove_empty_time_slots(uuid[]) from public;

-- After any delete of votes (one statement may remove many: a leave, a
-- cascade from a deleted guest), once per statement.
create function private.remove_time_slots_left_empty()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.remove_empty_time_slots(array(select o.time_slot_id from old_votes o));
  return null;
end;
$$;
revoke all on function private.remove_time_slots_left_empty() from public;

create trigger time_slot_votes_remove_empty_slots
  after delete on app.time_slot_votes
  referencing old table as old_votes
  for each statement execute function private.remove_time_slots_left_empty();

-- When the locked slot changes or is cleared, the previous one may be empty.
create function private.remove_previous_locked_slot()
returns trigger
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.remove_empty_time_slots(array[old.locked_time_slot_id]);
  return null;
end;
$$;
revoke all on function private.remove_previous_locked_slot() from public;

create trigger plans_remove_previous_locked_slot
  after update of locked_time_slot_id on app.plans
  for each row
  when (old.locked_time_slot_id is not null and old.locked_time_slot_id is distinct from new.locked_time_slot_id)
  execute function private.remove_previous_locked_slot();

-- Once: the empty, unlocked slots left behind so far.
delete from app.time_slots s
 where not exists (select 1 from app.time_slot_votes v where v.time_slot_id = s.id and v.plan_id = s.plan_id)
   and not exists (select 1 from app.plans p where p.locked_time_slot_id = s.id and p.id = s.plan_id);

-- =============================================================================
-- Domain: live, the change feed. Every plan has a version, bumped once per
-- transaction that changes what the plan's viewers see, and each such
-- transaction announces itself once per plan (docs/live-updates.md).
-- =============================================================================
--
-- How it works
--
--   1. Each table that a plan's screens show has two triggers (at the end of
--      this file; a table added later gets the same two):
--        <table>_note_plan_change    AFTER ... FOR EACH ROW (immediate)
--        <table>_publish_plan_changes  CONSTRAINT TRIGGER ... DEFERRABLE
--                                      INITIALLY DEFERRED (runs at COMMIT)
--      The first only notes "plan P, part X (and maybe idea/slot T) changed"
--      in a per-session setting; the second, at commit, turns the notes into
--      ONE version bump and ONE notification per plan, however many rows the
--      transaction touched, and clears the notes. (The first deferred firing
--      publishes everything; the other firings find nothing left to do.)
--
--   2. The version lives in its own table, app.plan_versions, and its row is
--      locked only by that commit-time bump, as the very last thing a
--      transaction does. So a transaction never waits on anything while it
--      holds the version lock, and versions of one plan are strictly
--      increasing in commit order (a reader who saw version N and then
--      receives N+1 has missed nothing). Several plans in one transaction are
--      bumped in plan id order, so two such transactions cannot deadlock.
--
--   3. The notification is pg_notify('hangplan_plan_changes', payload), which
--      PostgreSQL delivers at commit and drops on rollback. Where Supabase's
--      Realtime is installed (hosted, `supabase start`) the same payload is
--      also broadcast with realtime.send on the public topic 'plan:{id}'. The
--      payload carries no personal data (it goes to every link holder):
--        {"planId": uuid, "version": n, "parts": ["ideas", ...],
--         "ideaIds": [uuid, ...] | null, "slotIds": [uuid, ...] | null}
--      parts: plan (the plan row), participants (people joining or leaving,
--      names, a device continuing as a guest, removals), ideas (ideas and idea votes), comments, dates (time slots and
--      their votes), rsvps (answers, the headcount and the waitlist),
--      deleted (the plan is gone). ideaIds / slotIds name the
--      ideas whose votes or comments changed and the slots whose votes
--      changed: absent when none, null when more than 20 (read: "all").
--
-- Why a session setting and not set_config(..., is_local => true): the note
-- function has `set search_path = ''` (Supabase's advisors require it), and a
-- function with a SET clause undoes every transaction-local setting made
-- inside it when it returns. A session-level value survives the function; it
-- is emptied by the publish step at commit and rolled back with the
-- transaction otherwise, so between transactions it is always empty (which
-- also keeps it harmless behind a transaction pooler).

-- -----------------------------------------------------------------------------
-- app.plan_versions
-- -----------------------------------------------------------------------------
create table app.plan_versions (
  plan_id uuid primary key references app.plans (id) on delete cascade,
  version bigint not null default 1,
  constraint plan_versions_version_positive check (version > 0)
);
comment on table app.plan_versions is
  'The change counter of a plan: bumped once per committed transaction that changes what its viewers see. ETags and the live feed are built on it.';

grant select on app.plan_versions to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.note_list_json(list): a note's parts, idea or slot ids as the payload has them
-- -----------------------------------------------------------------------------
create function private.note_list_json(p_list text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_list = '*' then
    return null;
  elsif position(',' in p_list) = 0 then
    return jsonb_build_array(p_list);
  end if;
  return to_jsonb(array(select i from unnest(string_to_array(p_list, ',')) i order by i));
end;
$$;
comment on function private.note_list_json(text) is
  'A note''s comma-separated list (parts, idea or slot ids; * for more than 20 ids) as the payload has it: a sorted JSON array, or null for all.';
revoke all on function private.note_list_json(text) from public;

-- -----------------------------------------------------------------------------
-- private.note_plan_change(part): the immediate row trigger.
-- -----------------------------------------------------------------------------
-- The notes are plain text in the setting 'hangplan.plan_changes', one entry
-- per plan, entries separated by ';', fields by '|':
--   <plan id>|<part>,<part>...|<idea ids, or *>|<slot ids, or *>|<version before a delete>
-- Text, not jsonb: a write's first note is a few string operations, with no
-- parsing and no query (docs/performance.md "What each API change bought").
-- Security definer: it reads app.plan_versions for a deleted plan whatever the
-- caller may see (the cascade from a plan delete reaches rows RLS hides).
create function private.note_plan_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row     record;
  v_part    text := tg_argv[0];
  v_plan_id uuid;
  v_target  text;
  v_slot    integer;
  v_notes   text;
  v_entries text[];
  v_fields  text[];
  v_index   integer;
  v_list    text[];
begin
  if tg_op = 'DELETE' then
    v_row := old;
  else
    v_row := new;
  end if;

  if tg_table_name = 'plans' then
    v_plan_id := v_row.id;
  elsif tg_table_name = 'guest_credentials' then
    select g.plan_id into v_plan_id from app.guests g where g.id = v_row.guest_id;
  else
    v_plan_id := v_row.plan_id;
  end if;
  if tg_table_name in ('idea_votes', 'idea_comments') then
    v_target := v_row.idea_id::text;
    v_slot := 3;
  elsif tg_table_name = 'time_slot_votes' then
    v_target := v_row.time_slot_id::text;
    v_slot := 4;
  end if;

  v_notes := coalesce(current_setting('hangplan.plan_changes', true), '');
  -- The transaction's first change (nearly every write's only one) finds no
  -- notes, and no query runs.
  if v_notes <> '' then
    v_entries := string_to_array(v_notes, ';');
    v_index := array_position(array(select left(e, 36) from unnest(v_entries) e), v_plan_id::text);
  end if;
  if v_index is null then
    v_fields := array[v_plan_id::text, v_part, '', '', ''];
  else
    v_fields := string_to_array(v_entries[v_index], '|');
    if not v_part = any (string_to_array(v_fields[2], ',')) then
      v_fields[2] := v_fields[2] || ',' || v_part;
    end if;
  end if;

  if v_part = 'deleted' then
    -- BEFORE DELETE on the plan: its version row is still there (the cascade
    -- removes it right after), and the last event is that version + 1.
    v_fields[5] := coalesce((select pv.version from app.plan_versions pv where pv.plan_id = v_plan_id), 0)::text;
  end if;
  if v_target is not null and v_fields[v_slot] <> '*' then
    if v_fields[v_slot] = '' then
      v_fields[v_slot] := v_target;
    else
      v_list := string_to_array(v_fields[v_slot], ',');
      if not v_target = any (v_list) then
        -- Past 20 the list is dropped: the clients then refresh all of them.
        v_fields[v_slot] := case when cardinality(v_list) >= 20 then '*' else v_fields[v_slot] || ',' || v_target end;
      end if;
    end if;
  end if;

  if v_index is null then
    v_notes := case when v_notes = '' then '' else v_notes || ';' end || array_to_string(v_fields, '|');
  else
    v_entries[v_index] := array_to_string(v_fields, '|');
    v_notes := array_to_string(v_entries, ';');
  end if;
  perform set_config('hangplan.plan_changes', v_notes, false);
  if tg_op = 'DELETE' and tg_when = 'BEFORE' then
    return old;
  end if;
  return null;
end;
$$;
comment on function private.note_plan_change() is
  'Row trigger: notes that a plan changed (part = tg_argv[0]) for private.publish_plan_changes at commit.';
revoke all on function private.note_plan_change() from public;

-- -----------------------------------------------------------------------------
-- private.publish_plan_changes(): the deferred constraint trigger.
-- -----------------------------------------------------------------------------
create function private.publish_plan_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_notes   text := current_setting('hangplan.plan_changes', true);
  v_entries text[];
  v_entry   text;
  v_fields  text[];
  v_plan_id uuid;
  v_version bigint;
  v_payload jsonb;
  v_has_realtime boolean;
begin
  if v_notes is null or v_notes = '' then
    return null;
  end if;
  perform set_config('hangplan.plan_changes', '', false);
  -- Whether Supabase Realtime is installed (it comes with the database, not
  -- later): looked up once per connection, as to_regprocedure parses its text.
  v_has_realtime := nullif(current_setting('hangplan.has_realtime', true), '')::boolean;
  if v_has_realtime is null then
    v_has_realtime := to_regprocedure('realtime.send(jsonb,text,text,boolean)') is not null;
    perform set_config('hangplan.has_realtime', v_has_realtime::text, false);
  end if;

  v_entries := string_to_array(v_notes, ';');
  if cardinality(v_entries) > 1 then
    -- Several plans: bumped in plan id order (the entries start with it).
    v_entries := array(select e from unnest(v_entries) e order by e);
  end if;
  foreach v_entry in array v_entries loop
    v_fields := string_to_array(v_entry, '|');
    v_plan_id := v_fields[1]::uuid;
    if v_fields[5] <> '' then
      v_version := v_fields[5]::bigint + 1;
      v_payload := jsonb_build_object('planId', v_plan_id, 'version', v_version, 'parts', jsonb_build_array('deleted'));
    else
      v_payload := jsonb_build_object('planId', v_plan_id, 'parts', private.note_list_json(v_fields[2]));
      if v_fields[3] <> '' then
        v_payload := v_payload || jsonb_build_object('ideaIds', private.note_list_json(v_fields[3]));
      end if;
      if v_fields[4] <> '' then
        v_payload := v_payload || jsonb_build_object('slotIds', private.note_list_json(v_fields[4]));
      end if;
      insert into app.plan_versions as pv (plan_id, version)
      values (v_plan_id, 1)
      on conflict (plan_id) do update set version = pv.version + 1
      returning pv.version into v_version;
      v_payload := v_payload || jsonb_build_object('version', v_version);
    end if;

    perform pg_notify('hangplan_plan_changes', v_payload::text);
    if v_has_realtime then
      perform realtime.send(v_payload, 'change', 'plan:' || v_plan_id::text, false);
    end if;
  end loop;
  return null;
end;
$$;
comment on function private.publish_plan_changes() is
  'Deferred constraint trigger: at commit, bumps app.plan_versions and notifies once per changed plan (pg_notify, and realtime.send where Supabase Realtime exists).';
revoke all on function private.publish_plan_changes() from public;

-- -----------------------------------------------------------------------------
-- private.plan_versions(ids): the live feed's fallback when LISTEN is not
-- available (a transaction pooler): the function polls the versions of the
-- plans its streams watch. A plan id is the capability to read the plan
-- (claim plan_id), so answering versions by id reveals nothing new; an
-- unknown or deleted id is simply absent.
-- -----------------------------------------------------------------------------
create function private.plan_versions(p_plan_ids uuid[])
returns table (plan_id uuid, version bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, coalesce(pv.version, 0)
    from app.plans p
    left join app.plan_versions pv on pv.plan_id = p.id
   where p.id = any (p_plan_ids)
$$;
comment on function private.plan_versions(uuid[]) is
  'Versions of the given plans (absent when unknown or deleted), for the polling fallback of the live feed.';
revoke all on function private.plan_versions(uuid[]) from public;
grant execute on function private.plan_versions(uuid[]) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The home list's versions, read once without row security
-- -----------------------------------------------------------------------------
-- GET /api/plans answers the caller's plans, and first (on every request)
-- the versions of those plans, hashed into the list's ETag; the body is built
-- only when that hash moved. Read as the caller, each participants and
-- plan_versions row behind the hash would be checked by its table's select
-- policy, each working out the caller's plans again (private.my_plan_ids):
-- about three times the bare baseline's request.
--
-- private.my_plan_versions() answers the same rows, for the signed-in caller
-- only (auth.uid(): the participants rows are the caller's own, and every
-- plan they are in is one the caller may read, with its version), as a
-- definer: the check is the where clause, once. The plans' bodies are still
-- read under the caller's row security when the hash moved.

create function private.my_plan_versions()
returns table (plan_id uuid, version bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select pv.plan_id, pv.version
    from app.participants me
    join app.plan_versions pv on pv.plan_id = me.plan_id
   where me.user_id = (select auth.uid())
$$;
comment on function private.my_plan_versions() is
  'The plans the signed-in caller takes part in, with their versions (the home list''s ETag); none without a signed-in caller.';
revoke all on function private.my_plan_versions() from public;
grant execute on function private.my_plan_versions() to authenticated;

alter table app.plan_versions enable row level security;

-- Readable exactly like the plan itself (whoever holds the link). Written only
-- by private.publish_plan_changes (security definer): no write grants.
create policy plan_versions_select_anon on app.plan_versions
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy plan_versions_select_authenticated on app.plan_versions
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));

-- A plan's own row: its delete is noted BEFORE it happens, so that the
-- version is still readable (the cascade removes it right after).
create trigger plans_note_plan_change
  after insert or update on app.plans
  for each row execute function private.note_plan_change('plan');
create trigger plans_note_plan_deleted
  before delete on app.plans
  for each row execute function private.note_plan_change('deleted');
create constraint trigger plans_publish_plan_changes
  after insert or update or delete on app.plans
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();

-- The tables whose rows have a plan_id, each with its part of the plan.
create trigger guests_note_plan_change
  after insert or update or delete on app.guests
  for each row execute function private.note_plan_change('participants');
create constraint trigger guests_publish_plan_changes
  after insert or update or delete on app.guests
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
-- A device continuing as a guest by name: the guest's other devices re-read
-- their session (private.guest_continued_at) on the participants part. Only
-- restores: the joined credential comes with the guest row, already noted.
create trigger guest_credentials_note_plan_change
  after insert on app.guest_credentials
  for each row when (new.kind = 'restored') execute function private.note_plan_change('participants');
create constraint trigger guest_credentials_publish_plan_changes
  after insert on app.guest_credentials
  deferrable initially deferred
  for each row when (new.kind = 'restored') execute function private.publish_plan_changes();
-- The host's list of who was removed (only the host reads it): a removal
-- comes with a participants row going, "Allow back" with nothing else.
create trigger plan_removals_note_plan_change
  after insert or delete on app.plan_removals
  for each row execute function private.note_plan_change('participants');
create constraint trigger plan_removals_publish_plan_changes
  after insert or delete on app.plan_removals
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger participants_note_plan_change
  after insert or update or delete on app.participants
  for each row execute function private.note_plan_change('participants');
create constraint trigger participants_publish_plan_changes
  after insert or update or delete on app.participants
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger ideas_note_plan_change
  after insert or update or delete on app.ideas
  for each row execute function private.note_plan_change('ideas');
create constraint trigger ideas_publish_plan_changes
  after insert or update or delete on app.ideas
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger idea_votes_note_plan_change
  after insert or update or delete on app.idea_votes
  for each row execute function private.note_plan_change('ideas');
create constraint trigger idea_votes_publish_plan_changes
  after insert or update or delete on app.idea_votes
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger idea_comments_note_plan_change
  after insert or update or delete on app.idea_comments
  for each row execute function private.note_plan_change('comments');
create constraint trigger idea_comments_publish_plan_changes
  after insert or update or delete on app.idea_comments
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger time_slots_note_plan_change
  after insert or update or delete on app.time_slots
  for each row execute function private.note_plan_change('dates');
create constraint trigger time_slots_publish_plan_changes
  after insert or update or delete on app.time_slots
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger time_slot_votes_note_plan_change
  after insert or update or delete on app.time_slot_votes
  for each row execute function private.note_plan_change('dates');
create constraint trigger time_slot_votes_publish_plan_changes
  after insert or update or delete on app.time_slot_votes
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
-- "None of these dates work" shows in the participants list (noDates,
-- hasResponded) and in the caller's date answers (my-votes): both parts.
create trigger no_dates_note_plan_change
  after insert or update or delete on app.no_dates
  for each row execute function private.note_plan_change('participants');
create trigger no_dates_note_dates_change
  after insert or update or delete on app.no_dates
  for each row execute function private.note_plan_change('dates');
create constraint trigger no_dates_publish_plan_changes
  after insert or update or delete on app.no_dates
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();
create trigger rsvps_note_plan_change
  after insert or update or delete on app.rsvps
  for each row execute function private.note_plan_change('rsvps');
create constraint trigger rsvps_publish_plan_changes
  after insert or update or delete on app.rsvps
  deferrable initially deferred
  for each row execute function private.publish_plan_changes();

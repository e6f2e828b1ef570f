-- =============================================================================
-- The lookups every write makes, each on its own index (issue 13).
-- =============================================================================
--
-- Behaviour is unchanged; what changes is how the rows are found:
--
--   * private.is_participant and private.set_author_name matched
--     "user_id = me OR guest_id = me" in one condition, which no single index
--     answers: the plan's participants were read and filtered. Now each is
--     one lookup on its unique key, (plan_id, user_id) or (guest_id, plan_id).
--   * private.ensure_writer joined a signed-in caller by attempting the
--     participants insert on every write (its policy, its name trigger, the
--     conflict). Now a member who is already a participant (nearly every
--     write) is found by one lookup, and only a first write inserts.

create or replace function private.is_participant(p_plan_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
           select 1 from app.participants pa
            where pa.plan_id = p_plan_id and pa.user_id = (select auth.uid()))
      or exists (
           select 1 from app.participants pa
            where pa.guest_id = (select private.claimed_guest_id()) and pa.plan_id = p_plan_id)
$$;

create or replace function private.set_author_name()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_name text;
begin
  if new.user_id is not null then
    select pa.name into v_name from app.participants pa
     where pa.plan_id = new.plan_id and pa.user_id = new.user_id;
  elsif new.guest_id is not null then
    select pa.name into v_name from app.participants pa
     where pa.guest_id = new.guest_id and pa.plan_id = new.plan_id;
  end if;
  new.author_name := coalesce(v_name, new.author_name);
  return new;
end;
$$;

create or replace function private.ensure_writer(p_plan_id uuid, p_denied text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_user_id    uuid := (select auth.uid());
  v_guest_id   uuid := (select private.claimed_guest_id());
  v_guest_plan uuid;
begin
  if v_user_id is not null then
    -- Already a participant: nearly every write. (The row exists only while
    -- the account does: participants cascade with users.)
    if exists (select 1 from app.participants pa where pa.plan_id = p_plan_id and pa.user_id = v_user_id) then
      return;
    end if;
    -- The users policy shows the caller its own row: a token of a deleted
    -- account is a dead session, not a foreign-key error further down.
    if not exists (select 1 from app.users u where u.id = v_user_id) then
      raise exception using errcode = 'HP401', message = 'Your session has expired, please sign in again';
    end if;
    -- Joined on first write; the name is derived by trigger (participants_set_name).
    insert into app.participants (plan_id, user_id, name)
    values (p_plan_id, v_user_id, '-')
    on conflict do nothing;
    return;
  end if;

  if v_guest_id is not null then
    -- A guest sees its own row by its claim, whatever plan it belongs to.
    select g.plan_id into v_guest_plan from app.guests g where g.id = v_guest_id;
    if v_guest_plan is not null and v_guest_plan <> p_plan_id then
      raise exception using errcode = 'HP403', message = 'This guest belongs to another plan';
    end if;
  end if;

  if not private.is_participant(p_plan_id) then
    raise exception using errcode = 'HP401', message = p_denied;
  end if;
end;
$$;

-- =============================================================================
-- Domain: interests. A small seeded catalogue, each user's own list, and the
-- shared interests behind a plan's activity suggestions.
-- =============================================================================

create table app.interest_catalog (
  id   uuid primary key,
  name text not null,
  -- Icon name the client maps to an icon (gamepad, utensils, ...).
  icon text not null,
  constraint interest_catalog_name_key unique (name)
);
comment on table app.interest_catalog is 'Fixed catalogue of interests offered as tiles (seeded, read-only).';

-- Fixed uuids so that every environment (and the client's tests) agrees on
-- them. `on conflict do nothing` keeps the seed re-runnable.
insert into app.interest_catalog (id, name, icon) values
  ('6b1f0c2e-0001-4c8a-9a61-000000000001', 'Board Games', 'gamepad'),
  ('6b1f0c2e-0002-4c8a-9a61-000000000002', 'Food & Dining', 'utensils'),
  ('6b1f0c2e-0003-4c8a-9a61-000000000003', 'Hiking & Outdoors', 'tree'),
  ('6b1f0c2e-0004-4c8a-9a61-000000000004', 'Travel', 'globe'),
  ('6b1f0c2e-0005-4c8a-9a61-000000000005', 'Coffee', 'coffee'),
  ('6b1f0c2e-0006-4c8a-9a61-000000000006', 'Live Music', 'music'),
  ('6b1f0c2e-0007-4c8a-9a61-000000000007', 'Movies', 'film'),
  ('6b1f0c2e-0008-4c8a-9a61-000000000008', 'Reading', 'book')
on conflict do nothing;

grant select on app.interest_catalog to anon, authenticated;

create table app.user_interests (
  id             uuid primary key default gen_random_uuid(),
  user_id        uuid not null references app.users (id) on delete cascade,
  -- Set when the interest was picked from the catalogue ("Added" badge).
  catalog_id     uuid references app.interest_catalog (id) on delete set null,
  free_form_text text not null,
  created_at     timestamptz not null default now(),
  constraint user_interests_free_form_text_length check (char_length(btrim(free_form_text)) between 1 and 80)
);
comment on table app.user_interests is 'A user''s interests (free text, optionally from the catalogue). Private to the user.';

-- No duplicate interest per user, compared trimmed and case-insensitively
-- (adding "coffee" next to "Coffee" is a 23505 the API answers with 409).
-- Leading user_id, it also serves the FK and "my interests".
create unique index user_interests_user_id_text_key
  on app.user_interests (user_id, lower(btrim(free_form_text)));
create index user_interests_catalog_id_idx on app.user_interests (catalog_id);

grant select, delete on app.user_interests to authenticated;
grant insert (id, user_id, catalog_id, free_form_text) on app.user_interests to authenticated;
-- -----------------------------------------------------------------------------
-- private.plan_shared_interests: input of GET /api/plans/{id}/activity-suggestions
-- -----------------------------------------------------------------------------
-- Suggestions come from the interests the plan's signed-in participants share.
-- Those rows belong to other users, whom the caller's RLS rightly hides, so
-- this is SECURITY DEFINER. It only releases an aggregate (interest text and
-- how many members hold it, never who), and only for a plan the caller may
-- read; otherwise HP404 as for any unknown plan.
--
-- Anyone holding the plan's link may call it, so it never echoes one member's
-- own words (a private free text: 'divorce lawyer', a name, an address;
-- docs/api.md "Interests and suggestions"). The caller's own interests are
-- left out of what the caller is told: every count is of the *other* members
-- (docs/decisions/0090-suggestions-leave-the-caller-out.md). Otherwise a
-- member could add 'divorce lawyer' to their own list and read whether it now
-- comes out, i.e. whether one other member holds it. So the answer a caller
-- gets depends on nothing the caller entered. An interest counts only when:
--
--   * at least two of the plan's members other than the caller hold it
--     (trimmed, any case): it is then common to the group, which is what the
--     panel promises ("Ideas based on common interests"); or
--   * it is a catalogue item (its text is the catalogue's name, not anyone's
--     words), which counts from one member other than the caller: the
--     catalogue is 8 generic tiles and the suggestion is a fixed phrase
--     ('Meet for coffee at a new café').
--
-- The text returned for a catalogue interest is the catalogue's name.

create function private.plan_shared_interests(p_plan_id uuid)
returns table (interest text, member_count integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.can_read_plan(p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  return query
    select coalesce(min(cat.name), min(btrim(ui.free_form_text))) as interest,
           count(distinct ui.user_id)::integer as member_count
      from app.participants pa
      join app.user_interests ui on ui.user_id = pa.user_id
      left join app.interest_catalog cat on lower(cat.name) = lower(btrim(ui.free_form_text))
     where pa.plan_id = p_plan_id
       -- Not the caller's own (anon and guests have no user id: nobody is left out).
       and pa.user_id is distinct from (select auth.uid())
     group by lower(btrim(ui.free_form_text))
    having count(distinct ui.user_id) >= 2 or count(cat.id) > 0
     order by member_count desc, interest;
end;
$$;
comment on function private.plan_shared_interests(uuid) is
  'Interests shared by at least two of the plan''s members other than the caller, or catalogue items one of them holds, with how many of them hold each, most shared first. Never one member''s own text; nothing the caller holds changes the answer. HP404 unless the caller may read the plan.';
revoke all on function private.plan_shared_interests(uuid) from public;
grant execute on function private.plan_shared_interests(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- RLS
-- -----------------------------------------------------------------------------
alter table app.interest_catalog enable row level security;

-- The catalogue is public knowledge.
create policy interest_catalog_select_anon on app.interest_catalog
  for select to anon using (true);
create policy interest_catalog_select_authenticated on app.interest_catalog
  for select to authenticated using (true);

alter table app.user_interests enable row level security;

create policy user_interests_select_own on app.user_interests
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_interests_insert_own on app.user_interests
  for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy user_interests_delete_own on app.user_interests
  for delete to authenticated
  using (user_id = (select auth.uid()));

-- =============================================================================
-- Activity suggestions never echo one member's own words.
-- =============================================================================
--
-- docs/decisions.md "Interests and suggestions". private.plan_shared_interests
-- feeds GET /api/plans/{id}/activity-suggestions, which anyone holding the
-- plan's link may call. It used to return every interest of every member, so
-- a single member's private free text ('divorce lawyer', a name, an address)
-- reached anonymous link holders. Now an interest counts only when:
--
--   * at least two of the plan's members hold it (trimmed, any case): it is
--     then common to the group, which is what the panel promises ("Ideas
--     based on common interests"); or
--   * it is a catalogue item (its text is the catalogue's name, not anyone's
--     words), which counts from one member: the catalogue is 8 generic tiles
--     and the suggestion is a fixed phrase ('Meet for coffee at a new café').
--
-- The text returned for a catalogue interest is the catalogue's name.

create or replace function private.plan_shared_interests(p_plan_id uuid)
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
     group by lower(btrim(ui.free_form_text))
    having count(distinct ui.user_id) >= 2 or count(cat.id) > 0
     order by member_count desc, interest;
end;
$$;
comment on function private.plan_shared_interests(uuid) is
  'Interests shared by at least two of the plan''s members, or catalogue items, with how many members hold each, most shared first. Never one member''s own text. HP404 unless the caller may read the plan.';

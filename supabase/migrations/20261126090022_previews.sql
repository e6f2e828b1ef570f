-- =============================================================================
-- Domain: previews, the card a chat app shows for a plan's link /l/{slug}
-- (docs/api.md "Link previews", docs/decisions/0105-link-previews.md).
-- =============================================================================
--
-- What a card may say is public like the slug: the plan's title, where it
-- stands (the locked day, time and place, how many are going, cancelled) and
-- the host's first name; never a guest's name, an e-mail, the description or
-- a comment. The host can turn the details off (app.plans.preview_details):
-- then no fact leaves the database and the card is the generic one.

-- -----------------------------------------------------------------------------
-- private.preview_facts(plan): the card's facts, or null
-- -----------------------------------------------------------------------------
-- For a caller who can read the plan (the slug's holder: the claims statement
-- turns the slug into the plan_id claim; a participant), and only while the
-- host shows details. SECURITY DEFINER: the host's name is in a participants
-- row and the going count in rsvps rows, which the policies hide from a
-- slug-only caller; it reads nothing else, after the readability check.
create function private.preview_facts(p_plan_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'title', p.title,
           'status', p.status,
           'hostName', (select pa.name from app.participants pa
                         where pa.plan_id = p.id and pa.user_id = p.host_id),
           'date', p.locked_time_slot_date,
           'eventTime', p.event_time,
           'period', (select ts.period from app.time_slots ts where ts.id = p.locked_time_slot_id),
           'location', p.location,
           'going', case when p.locked_time_slot_date is null then 0
                         else (select count(*)::integer from app.rsvps r
                                where r.plan_id = p.id and r.answer = 'going') end)
    from app.plans p
   where p.id = p_plan_id
     and p.preview_details
     and private.can_read_plan(p.id)
$$;
comment on function private.preview_facts(uuid) is
  'The link preview card''s facts of a plan the caller can read (title, status, host''s name, locked day/time/period/place, going count); null when unreadable or the host turned details off.';
revoke all on function private.preview_facts(uuid) from public;
grant execute on function private.preview_facts(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The host's setting (POST /api/plans/{id}/preview-details)
-- -----------------------------------------------------------------------------
-- Like "Reset link", it is about the plan's link, which stays the host's alone
-- (docs/decisions/0099-what-stays-the-hosts.md): a co-host gets 403.
create function private.set_preview_details(p_plan_id uuid, p_on boolean)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_denied  text := 'Only the host can change link previews';
  v_host_id uuid := private.require_plan_host(p_plan_id, v_denied);
begin
  if v_host_id is distinct from auth.uid() then
    raise exception using errcode = 'HP403', message = v_denied;
  end if;
  update app.plans p set preview_details = p_on
   where p.id = p_plan_id and p.preview_details is distinct from p_on;
end;
$$;
comment on function private.set_preview_details(uuid, boolean) is
  'The host shows or hides the plan''s details in link previews. HP404 unreadable plan, HP403 not the host.';
revoke all on function private.set_preview_details(uuid, boolean) from public;
grant execute on function private.set_preview_details(uuid, boolean) to authenticated;

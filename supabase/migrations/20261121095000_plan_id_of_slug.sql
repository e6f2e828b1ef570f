-- The public link names a plan by its slug. Holding the link is exactly what
-- lets someone look at a plan (decisions.md "Plans"), so a request for
-- /api/plans/slug/{slug} is given the same plan_id claim as one naming the
-- plan's id: the API resolves it in the claims statement, like it does for
-- an idea or a time slot. Then the plan JSON read by slug is the same as the
-- one read by id (e.g. the picked idea's text, which the ideas policy shows
-- only to holders of the plan id).
create function private.plan_id_of_slug(p_slug text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from app.plans p where p.slug = p_slug
$$;

comment on function private.plan_id_of_slug(text) is
  'Plan of a public slug (null if unknown), for the plan_id claim of /api/plans/slug/{slug} requests.';

revoke all on function private.plan_id_of_slug(text) from public;
grant execute on function private.plan_id_of_slug(text) to anon, authenticated;

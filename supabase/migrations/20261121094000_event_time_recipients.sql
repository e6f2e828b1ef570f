-- =============================================================================
-- Who is told that the time is set (decisions.md: set-event-time "e-mails
-- every participant who has an account").
-- =============================================================================
--
-- The API runs set-event-time as the host (`authenticated`), and the users
-- policy shows a caller only its own row, so the host cannot read the other
-- members' e-mail addresses, and must not: the API never shows them to anyone.
-- This definer function hands out exactly the addresses the notification
-- needs, and only in the situation that needs them: to the plan's host, while
-- the plan is `completed` (i.e. right after app.set_event_time, in the same
-- transaction). Anyone else, or the host of a plan whose time is not set, gets
-- no rows. Guests have no address and are never listed.

create function private.event_time_recipients(p_plan_id uuid)
returns table (email text, name text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.email, pa.name
    from app.plans p
    join app.participants pa on pa.plan_id = p.id
    join app.users u on u.id = pa.user_id
   where p.id = p_plan_id
     and p.host_id = (select auth.uid())
     and p.status = 'completed'
   order by pa.joined_at, pa.id
$$;
comment on function private.event_time_recipients(uuid) is
  'E-mail address and display name of every member (participant with an account) of a completed plan, for its host only; no rows otherwise.';

revoke all on function private.event_time_recipients(uuid) from public;
grant execute on function private.event_time_recipients(uuid) to authenticated;

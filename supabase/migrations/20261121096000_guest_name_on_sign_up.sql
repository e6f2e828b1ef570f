-- A guest who creates an account keeps the name friends already know them
-- by. A fresh account has no name, so without this the plan would suddenly
-- show the e-mail's local part ("journey-blake-1a2b") instead of "Blake
-- Rivera". The guest name only fills an account that has no name at all: a
-- name the user chose is never overwritten.

create function private.adopt_guest_name(p_guest_id uuid)
returns void
language sql
volatile
-- Definer: the caller may not read the guest row (no plan_id claim on the
-- transfer request). It only ever writes the caller's own user row.
security definer
set search_path = ''
as $$
  update app.users u
     set first_name = split_part(btrim(g.name), ' ', 1),
         last_name  = nullif(btrim(substr(btrim(g.name), length(split_part(btrim(g.name), ' ', 1)) + 1)), ''),
         updated_at = now()
    from app.guests g
   where g.id = p_guest_id
     and u.id = (select auth.uid())
     and u.first_name is null
     and u.last_name is null
$$;

comment on function private.adopt_guest_name(uuid) is
  'Gives the signed-in caller''s nameless account the name of the guest it takes over ("Sam Rivera" -> Sam / Rivera).';

revoke all on function private.adopt_guest_name(uuid) from public;
grant execute on function private.adopt_guest_name(uuid) to authenticated;

-- The contract's entry point now adopts the name first, then moves the votes
-- (which also rewrites the plan's participant row, named from the account).
create or replace function app.transfer_guest_votes(p_guest_id uuid)
returns table (transferred_idea_votes integer, transferred_time_votes integer)
language plpgsql
volatile
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null then
    perform private.adopt_guest_name(p_guest_id);
  end if;
  return query
    select t.transferred_idea_votes, t.transferred_time_votes
      from private.transfer_guest_votes(p_guest_id) t;
end;
$$;

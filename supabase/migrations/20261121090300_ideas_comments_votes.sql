-- =============================================================================
-- Ideas, their comments and their votes.
-- =============================================================================
--
-- Every row carries its plan_id, even where it follows from idea_id, because:
--   * RLS filters on plan_id directly (no join per row in a policy), and
--   * composite foreign keys (idea_id, plan_id) -> ideas (id, plan_id) and
--     (guest_id, plan_id) -> guests (id, plan_id) make the database itself
--     refuse a vote/comment whose idea or guest belongs to another plan.

-- -----------------------------------------------------------------------------
-- app.ideas
-- -----------------------------------------------------------------------------
create table app.ideas (
  id          uuid primary key default gen_random_uuid(),
  plan_id     uuid not null references app.plans (id) on delete cascade,
  text        text not null,
  -- Display name of the author at the time of writing (set by trigger from
  -- the author's participants row). Kept when the author's account or guest
  -- disappears, hence "at most one" author id below.
  author_name text not null,
  user_id     uuid references app.users (id) on delete set null,
  guest_id    uuid,
  created_at  timestamptz not null default now(),

  -- PG15+: `set null (guest_id)` clears only guest_id, not plan_id.
  constraint ideas_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete set null (guest_id),
  constraint ideas_text_length check (char_length(btrim(text)) between 1 and 280),
  constraint ideas_author_name_length check (char_length(author_name) between 1 and 254),
  constraint ideas_at_most_one_author check (num_nonnulls(user_id, guest_id) <= 1),
  -- Target of the composite FKs from votes, comments and plans.locked_idea_id.
  constraint ideas_id_plan_id_key unique (id, plan_id)
);
comment on table app.ideas is 'Suggestions of what to do, by participants of a plan.';

create index ideas_plan_id_created_at_idx on app.ideas (plan_id, created_at);
create index ideas_user_id_idx on app.ideas (user_id);
create index ideas_guest_id_plan_id_idx on app.ideas (guest_id, plan_id);

-- The picked idea must be an idea OF THIS PLAN: composite FK. When the idea
-- goes, only locked_idea_id is cleared (PG15+ column list).
alter table app.plans
  add constraint plans_locked_idea_fkey foreign key (locked_idea_id, id)
    references app.ideas (id, plan_id) on delete set null (locked_idea_id);
create index plans_locked_idea_id_id_idx on app.plans (locked_idea_id, id);

-- -----------------------------------------------------------------------------
-- app.idea_comments
-- -----------------------------------------------------------------------------
create table app.idea_comments (
  id          uuid primary key default gen_random_uuid(),
  idea_id     uuid not null,
  plan_id     uuid not null,
  text        text not null,
  author_name text not null,
  user_id     uuid references app.users (id) on delete set null,
  guest_id    uuid,
  created_at  timestamptz not null default now(),

  constraint idea_comments_idea_fkey foreign key (idea_id, plan_id)
    references app.ideas (id, plan_id) on delete cascade,
  constraint idea_comments_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete set null (guest_id),
  constraint idea_comments_text_length check (char_length(btrim(text)) between 1 and 1000),
  constraint idea_comments_author_name_length check (char_length(author_name) between 1 and 254),
  constraint idea_comments_at_most_one_author check (num_nonnulls(user_id, guest_id) <= 1)
);
comment on table app.idea_comments is 'Comments on ideas, returned oldest first.';

-- Covers the FK and "comments of an idea, oldest first".
create index idea_comments_idea_id_plan_id_created_at_idx on app.idea_comments (idea_id, plan_id, created_at);
create index idea_comments_plan_id_idx on app.idea_comments (plan_id);
create index idea_comments_user_id_idx on app.idea_comments (user_id);
create index idea_comments_guest_id_plan_id_idx on app.idea_comments (guest_id, plan_id);

-- -----------------------------------------------------------------------------
-- app.idea_votes
-- -----------------------------------------------------------------------------
create table app.idea_votes (
  id         uuid primary key default gen_random_uuid(),
  idea_id    uuid not null,
  plan_id    uuid not null,
  user_id    uuid references app.users (id) on delete cascade,
  guest_id   uuid,
  created_at timestamptz not null default now(),

  constraint idea_votes_idea_fkey foreign key (idea_id, plan_id)
    references app.ideas (id, plan_id) on delete cascade,
  constraint idea_votes_guest_fkey foreign key (guest_id, plan_id)
    references app.guests (id, plan_id) on delete cascade,
  constraint idea_votes_one_voter check (num_nonnulls(user_id, guest_id) = 1),
  -- One vote per person and idea, whatever the concurrency: the toggle rule
  -- inserts with `on conflict do nothing`, so a double click or 50 parallel
  -- voters can never produce a duplicate, and the count always equals the rows.
  constraint idea_votes_idea_id_user_id_key unique (idea_id, user_id),
  constraint idea_votes_idea_id_guest_id_key unique (idea_id, guest_id)
);
comment on table app.idea_votes is 'One row per (idea, voter). Toggled by app.toggle_idea_vote.';

create index idea_votes_idea_id_plan_id_idx on app.idea_votes (idea_id, plan_id);
create index idea_votes_plan_id_idx on app.idea_votes (plan_id);
create index idea_votes_user_id_idx on app.idea_votes (user_id);
create index idea_votes_guest_id_plan_id_idx on app.idea_votes (guest_id, plan_id);

-- -----------------------------------------------------------------------------
-- author_name comes from the author's participants row
-- -----------------------------------------------------------------------------
-- The client sends an authorName, but a guest could send anyone's name. The
-- participants row (itself derived from the account / guest) is the truth.
-- Security invoker is enough: the insert policies already require the author
-- to be a participant, and participants can read their plan's participants.
create function private.set_author_name()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_name text;
begin
  select pa.name into v_name
    from app.participants pa
   where pa.plan_id = new.plan_id
     and ((new.user_id is not null and pa.user_id = new.user_id)
          or (new.guest_id is not null and pa.guest_id = new.guest_id));
  new.author_name := coalesce(v_name, new.author_name);
  return new;
end;
$$;
revoke all on function private.set_author_name() from public;

create trigger ideas_set_author_name
  before insert on app.ideas
  for each row execute function private.set_author_name();
create trigger idea_comments_set_author_name
  before insert on app.idea_comments
  for each row execute function private.set_author_name();

-- Now that ideas exist: resolve an idea's plan for the plan_id claim.
create or replace function private.plan_id_of_idea(p_idea_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select i.plan_id from app.ideas i where i.id = p_idea_id
$$;
comment on function private.plan_id_of_idea(uuid) is
  'Plan of an idea (null if unknown), for the plan_id claim of /api/ideas/{id}/... requests.';

-- -----------------------------------------------------------------------------
-- RLS
-- -----------------------------------------------------------------------------
-- Read: link holders (claim plan_id) and participants. Write: participants,
-- only as themselves (user_id = auth.uid() for members, guest_id = claimed
-- guest for guests). No UPDATE anywhere, no DELETE of ideas/comments: the
-- product has no edit/delete for them.

alter table app.ideas enable row level security;

create policy ideas_select_anon on app.ideas
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy ideas_select_authenticated on app.ideas
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy ideas_insert_anon on app.ideas
  for insert to anon
  with check (
    user_id is null
    and guest_id = (select private.claimed_guest_id())
    and plan_id in (select private.my_plan_ids())
  );
create policy ideas_insert_authenticated on app.ideas
  for insert to authenticated
  with check (
    guest_id is null
    and user_id = (select auth.uid())
    and plan_id in (select private.my_plan_ids())
  );

alter table app.idea_comments enable row level security;

create policy idea_comments_select_anon on app.idea_comments
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy idea_comments_select_authenticated on app.idea_comments
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy idea_comments_insert_anon on app.idea_comments
  for insert to anon
  with check (
    user_id is null
    and guest_id = (select private.claimed_guest_id())
    and plan_id in (select private.my_plan_ids())
  );
create policy idea_comments_insert_authenticated on app.idea_comments
  for insert to authenticated
  with check (
    guest_id is null
    and user_id = (select auth.uid())
    and plan_id in (select private.my_plan_ids())
  );

alter table app.idea_votes enable row level security;

create policy idea_votes_select_anon on app.idea_votes
  for select to anon
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy idea_votes_select_authenticated on app.idea_votes
  for select to authenticated
  using (plan_id = (select private.claimed_plan_id()) or plan_id in (select private.my_plan_ids()));
create policy idea_votes_insert_anon on app.idea_votes
  for insert to anon
  with check (
    user_id is null
    and guest_id = (select private.claimed_guest_id())
    and plan_id in (select private.my_plan_ids())
  );
create policy idea_votes_insert_authenticated on app.idea_votes
  for insert to authenticated
  with check (
    guest_id is null
    and user_id = (select auth.uid())
    and plan_id in (select private.my_plan_ids())
  );
-- Un-voting (toggle) and transfer/leave clean-up: one's own votes only.
create policy idea_votes_delete_anon on app.idea_votes
  for delete to anon
  using (guest_id = (select private.claimed_guest_id()));
create policy idea_votes_delete_authenticated on app.idea_votes
  for delete to authenticated
  using (user_id = (select auth.uid()));

grant select on app.ideas, app.idea_comments, app.idea_votes to anon, authenticated;
grant insert (id, plan_id, text, author_name, user_id, guest_id) on app.ideas to anon, authenticated;
grant insert (id, idea_id, plan_id, text, author_name, user_id, guest_id) on app.idea_comments to anon, authenticated;
grant insert (id, idea_id, plan_id, user_id, guest_id), delete on app.idea_votes to anon, authenticated;

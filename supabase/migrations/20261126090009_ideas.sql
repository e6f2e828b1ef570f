-- =============================================================================
-- Domain: ideas. Ideas, their comments and their votes, and the rules that
-- write them: add an idea, comment on it, vote on it.
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
create index ideas_user_id_plan_id_idx on app.ideas (user_id, plan_id);
create index ideas_guest_id_plan_id_idx on app.ideas (guest_id, plan_id);

grant insert (id, plan_id, text, author_name, user_id, guest_id) on app.ideas to anon, authenticated;

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
create index idea_comments_user_id_idea_id_idx on app.idea_comments (user_id, idea_id);
create index idea_comments_guest_id_plan_id_idea_id_idx on app.idea_comments (guest_id, plan_id, idea_id);
grant insert (id, idea_id, plan_id, text, author_name, user_id, guest_id) on app.idea_comments to anon, authenticated;

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
comment on table app.idea_votes is 'One row per (idea, voter). Toggled by app.vote_on_idea.';

create index idea_votes_idea_id_plan_id_idx on app.idea_votes (idea_id, plan_id);
create index idea_votes_plan_id_idx on app.idea_votes (plan_id);
create index idea_votes_user_id_idx on app.idea_votes (user_id);
create index idea_votes_guest_id_plan_id_idx on app.idea_votes (guest_id, plan_id);
grant select on app.ideas, app.idea_comments, app.idea_votes to anon, authenticated;
grant insert (id, idea_id, plan_id, user_id, guest_id), delete on app.idea_votes to anon, authenticated;

-- The plan of an idea, for the plan_id claim of /api/ideas/{id}/... (null for
-- an unknown id). Definer: at that moment the request has no claim that would
-- let it read the row; the answer (a plan id for an id the caller already
-- holds) is no secret.
create function private.plan_id_of_idea(p_idea_id uuid)
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
revoke all on function private.plan_id_of_idea(uuid) from public;
grant execute on function private.plan_id_of_idea(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- author_name comes from the author's participants row
-- -----------------------------------------------------------------------------
-- The client sends an authorName, but a guest could send anyone's name. The
-- participants row (itself derived from the account / guest) is the truth,
-- found by its unique key, (plan_id, user_id) or (guest_id, plan_id).
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
revoke all on function private.set_author_name() from public;

create trigger ideas_set_author_name
  before insert on app.ideas
  for each row execute function private.set_author_name();
create trigger idea_comments_set_author_name
  before insert on app.idea_comments
  for each row execute function private.set_author_name();

-- -----------------------------------------------------------------------------
-- app.add_idea
-- -----------------------------------------------------------------------------
-- p_text is the trimmed text (the API trims and checks 1-280; the table's check
-- is the backstop). author_name is set by trigger from the participants row.
create function app.add_idea(p_plan_id uuid, p_text text)
returns app.ideas
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_idea app.ideas;
begin
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if not exists (select 1 from app.plans p where p.id = p_plan_id) then
    raise exception using errcode = 'HP404', message = 'Plan not found';
  end if;
  perform private.ensure_writer(p_plan_id, 'Join the plan first to suggest ideas');

  insert into app.ideas (plan_id, text, author_name, user_id, guest_id)
  values (
    p_plan_id,
    p_text,
    '-',
    (select auth.uid()),
    case when (select auth.uid()) is null then (select private.claimed_guest_id()) end)
  returning * into v_idea;
  return v_idea;
end;
$$;
comment on function app.add_idea(uuid, text) is
  'Adds an idea as the caller (member, joined on first write, or guest of the plan). HP404 unknown plan, HP403 guest of another plan, HP401 no participant identity.';

revoke all on function app.add_idea(uuid, text) from public;
grant execute on function app.add_idea(uuid, text) to anon, authenticated;
-- -----------------------------------------------------------------------------
-- app.add_idea_comment: a rule that checks the writer once
-- -----------------------------------------------------------------------------
-- Run as the caller, the rule would check who writes (ensure_writer) and then
-- PostgreSQL would check the same again through the row security of every
-- table it touches (the idea's select policy, the comment's insert policy, the
-- participants policy behind the author-name trigger), each reading the claims
-- and looking up the guest's credential anew: a third of a comment's database
-- CPU (docs/performance.md). So the rule is a definer in private that makes
-- the policies' checks itself, once, before it writes:
--   * the idea is readable by the caller (private.can_read_plan: the plan's
--     link claim, or a participant), else 'Idea not found', as the select
--     policy answered;
--   * ensure_writer: the caller is a participant of that plan (a signed-in
--     link holder joins on first write; a guest of another plan is HP403);
--   * the row's author is the caller, from the verified claims (auth.uid(),
--     or the guest whose device secret the request carried), as the insert
--     policy requires.
-- The row's triggers (author name, the per-idea cap, the change feed) and its
-- foreign keys still apply. app.add_idea_comment is the security-invoker
-- wrapper the API calls (definer functions live in private, which is not
-- exposed), and the insert policies stay for any other path that writes.
-- The same shape serves votes (private.vote_on_idea below, and the date votes
-- in the dates file).

create function private.add_idea_comment(p_idea_id uuid, p_text text)
returns app.idea_comments
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan_id uuid;
  v_user_id uuid := auth.uid();
  v_comment app.idea_comments;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Join the plan first to comment');

  insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id, guest_id)
  values (
    p_idea_id,
    v_plan_id,
    p_text,
    '-',
    v_user_id,
    case when v_user_id is null then (select private.claimed_guest_id()) end)
  returning * into v_comment;
  return v_comment;
end;
$$;
comment on function private.add_idea_comment(uuid, text) is
  'app.add_idea_comment''s rule, as a definer that checks what the policies would (readable idea, participant writer, the caller as author) once. HP404 unknown or unreadable idea, HP403 guest of another plan, HP401 no participant identity.';
revoke all on function private.add_idea_comment(uuid, text) from public;
grant execute on function private.add_idea_comment(uuid, text) to anon, authenticated;

create function app.add_idea_comment(p_idea_id uuid, p_text text)
returns app.idea_comments
language sql
volatile
set search_path = ''
as $$
  select * from private.add_idea_comment(p_idea_id, p_text)
$$;
comment on function app.add_idea_comment(uuid, text) is
  'Adds a comment to an idea as the caller (private.add_idea_comment). HP404 unknown idea, HP403 guest of another plan, HP401 no participant identity.';
revoke all on function app.add_idea_comment(uuid, text) from public;
grant execute on function app.add_idea_comment(uuid, text) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- private.lock_vote: serialise one voter's toggles on one target.
-- -----------------------------------------------------------------------------
-- Transaction-scoped advisory lock (released at commit/rollback, callable by
-- any role). Hash collisions between different (target, voter) pairs only
-- make two unrelated toggles wait for each other: harmless.
create function private.lock_vote(p_target_id uuid, p_voter_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select pg_advisory_xact_lock(
    hashtextextended('hangplan.vote:' || p_target_id::text || ':' || p_voter_id::text, 0))
$$;
revoke all on function private.lock_vote(uuid, uuid) from public;
grant execute on function private.lock_vote(uuid, uuid) to anon, authenticated;
-- -----------------------------------------------------------------------------
-- Votes: each vote endpoint is one rule that answers (voted, vote_count), and
-- the toggle itself is written once per target.
-- -----------------------------------------------------------------------------
-- Race-freedom:
--   * The unique constraints (idea_id, user_id) / (idea_id, guest_id) (and the
--     same for slots) make a duplicate vote impossible, whatever happens; the
--     insert uses ON CONFLICT DO NOTHING so it can never fail with 23505.
--   * Parallel toggles BY THE SAME VOTER on the same target (double click, two
--     tabs) are serialised by a transaction-scoped advisory lock on
--     (target, voter): the second waits for the first to commit and then sees
--     its vote, so two parallel toggles cancel out exactly like two sequential
--     ones. The lock is per voter, so 50 different voters never wait for each
--     other, and each adds exactly its one row.
--
-- private.toggle_idea_vote_of (and private.toggle_time_slot_vote_of for dates)
-- is the toggle alone (per-voter lock, delete, else insert), for a target
-- whose plan and voter the caller has already established. SECURITY INVOKER:
-- the delete and the insert still go through the caller's RLS, so a wrong
-- argument can do nothing RLS would refuse.
create function private.toggle_idea_vote_of(p_idea_id uuid, p_plan_id uuid, p_user_id uuid, p_guest_id uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
begin
  perform private.lock_vote(p_idea_id, coalesce(p_user_id, p_guest_id));
  if p_user_id is not null then
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.user_id = p_user_id;
  else
    delete from app.idea_votes v where v.idea_id = p_idea_id and v.guest_id = p_guest_id;
  end if;
  if found then
    return false;
  end if;
  -- Inserted, or (conflict) the row appeared meanwhile through a path that
  -- does not take the vote lock, e.g. a guest-vote transfer: either way the
  -- vote now exists.
  insert into app.idea_votes (idea_id, plan_id, user_id, guest_id)
  values (p_idea_id, p_plan_id, p_user_id, p_guest_id)
  on conflict do nothing;
  return true;
end;
$$;
comment on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) is
  'The toggle of an idea vote (per-voter lock, delete, else insert) for a caller already checked; invoker, so RLS still decides. True when the vote now exists.';

revoke all on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) from public;
grant execute on function private.toggle_idea_vote_of(uuid, uuid, uuid, uuid) to anon, authenticated;
-- -----------------------------------------------------------------------------
-- app.vote_on_idea: the idea endpoint's rule, checking the voter once
-- -----------------------------------------------------------------------------
-- As for comments: run as the caller, row security would check the voter
-- again on every statement of the toggle and the count (the idea's and the
-- votes' select policies, the votes' delete and insert policies), about two
-- fifths of a vote's database CPU. The rule is a definer in private that
-- makes those checks itself, once, before it writes:
--   * the idea is readable by the caller (private.can_read_plan: the plan's
--     link claim, or a participant), else 'Idea not found', as the select
--     policy answered;
--   * ensure_writer: the caller is a participant of that plan (a signed-in
--     link holder joins on first write; a guest of another plan is HP403);
--   * the vote toggled is the caller's own (auth.uid(), or the guest whose
--     device secret the request carried), as the delete and insert policies
--     require; the count is of the idea's votes, all of which the caller may
--     read.
-- app.vote_on_idea is the security-invoker wrapper the API calls; the votes'
-- policies stay for any other path.

create function private.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- A valid token wins: a signed-in caller never votes as a guest.
  v_user_id  uuid := auth.uid();
  v_guest_id uuid := case when auth.uid() is null then private.claimed_guest_id() end;
  v_plan_id  uuid;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  -- Unknown and unreadable (no link claim, not a participant) look the same.
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.ensure_writer(v_plan_id, 'Please join the plan first to vote');
  voted := private.toggle_idea_vote_of(p_idea_id, v_plan_id, v_user_id, v_guest_id);
  select count(*)::integer into vote_count
    from app.idea_votes v where v.idea_id = p_idea_id and v.plan_id = v_plan_id;
  return next;
end;
$$;
comment on function private.vote_on_idea(uuid) is
  'app.vote_on_idea''s rule, as a definer that checks what the policies would (readable idea, participant voter, the caller''s own vote) once: toggles the caller''s vote and answers whether it now exists and the idea''s vote count.';
revoke all on function private.vote_on_idea(uuid) from public;
grant execute on function private.vote_on_idea(uuid) to anon, authenticated;

create function app.vote_on_idea(p_idea_id uuid)
returns table (voted boolean, vote_count integer)
language sql
volatile
set search_path = ''
as $$
  select v.voted, v.vote_count from private.vote_on_idea(p_idea_id) v
$$;
comment on function app.vote_on_idea(uuid) is
  'Toggles the caller''s vote on an idea and answers whether it now exists and the idea''s vote count (private.vote_on_idea).';
revoke all on function app.vote_on_idea(uuid) from public;
grant execute on function app.vote_on_idea(uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Deleting an idea or a comment: its author or the plan's host
-- -----------------------------------------------------------------------------
-- docs/decisions/0065-moderation.md. An idea goes with its votes and comments
-- (foreign keys), and unpicks itself if it was the host's pick (plans'
-- locked_idea_id is set null). A guest deletes what it wrote only from the
-- device that joined as it (private.require_joining_device): a device that
-- continued by name votes and writes, it does not destroy.
--
-- private.may_delete_writing is the one check both rules make: the caller
-- hosts or co-hosts the plan (private.is_plan_manager), or is the row's author.
create function private.may_delete_writing(p_plan_id uuid, p_user_id uuid, p_guest_id uuid, p_refusal text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id  uuid := auth.uid();
  v_guest_id uuid;
begin
  if v_user_id is not null then
    if v_user_id = p_user_id or private.is_plan_manager(p_plan_id) then
      return;
    end if;
  else
    v_guest_id := private.claimed_guest_id();
    if v_guest_id is not null and v_guest_id = p_guest_id then
      perform private.require_joining_device(v_guest_id);
      return;
    end if;
  end if;
  raise exception using errcode = 'HP403', message = p_refusal;
end;
$$;
comment on function private.may_delete_writing(uuid, uuid, uuid, text) is
  'HP403 p_refusal unless the caller hosts or co-hosts the plan or wrote the row (a guest author only from its joined device).';
revoke all on function private.may_delete_writing(uuid, uuid, uuid, text) from public;
grant execute on function private.may_delete_writing(uuid, uuid, uuid, text) to anon, authenticated;

create function private.delete_idea(p_idea_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_idea app.ideas;
begin
  select * into v_idea from app.ideas i where i.id = p_idea_id;
  -- Unknown and unreadable look the same.
  if not found or not private.can_read_plan(v_idea.plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  perform private.may_delete_writing(v_idea.plan_id, v_idea.user_id, v_idea.guest_id,
    'Only the host or the person who suggested this idea can delete it');
  delete from app.ideas i where i.id = p_idea_id;
end;
$$;
comment on function private.delete_idea(uuid) is
  'app.delete_idea''s rule, as a definer: HP404 unknown or unreadable idea, HP403 neither the host nor the author. Deletes the idea with its votes and comments.';
revoke all on function private.delete_idea(uuid) from public;
grant execute on function private.delete_idea(uuid) to anon, authenticated;

create function app.delete_idea(p_idea_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.delete_idea(p_idea_id)
$$;
comment on function app.delete_idea(uuid) is
  'Deletes an idea, with its votes and comments, as its author or the plan''s host (private.delete_idea).';
revoke all on function app.delete_idea(uuid) from public;
grant execute on function app.delete_idea(uuid) to anon, authenticated;

create function private.delete_idea_comment(p_idea_id uuid, p_comment_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan_id uuid;
  v_comment app.idea_comments;
begin
  select i.plan_id into v_plan_id from app.ideas i where i.id = p_idea_id;
  if v_plan_id is null or not private.can_read_plan(v_plan_id) then
    raise exception using errcode = 'HP404', message = 'Idea not found';
  end if;
  select * into v_comment from app.idea_comments ic where ic.id = p_comment_id and ic.idea_id = p_idea_id;
  if not found then
    raise exception using errcode = 'HP404', message = 'Comment not found';
  end if;
  perform private.may_delete_writing(v_plan_id, v_comment.user_id, v_comment.guest_id,
    'Only the host or the person who wrote this comment can delete it');
  delete from app.idea_comments ic where ic.id = p_comment_id;
end;
$$;
comment on function private.delete_idea_comment(uuid, uuid) is
  'app.delete_idea_comment''s rule, as a definer: HP404 unknown or unreadable idea, or a comment not on it; HP403 neither the host nor the author.';
revoke all on function private.delete_idea_comment(uuid, uuid) from public;
grant execute on function private.delete_idea_comment(uuid, uuid) to anon, authenticated;

create function app.delete_idea_comment(p_idea_id uuid, p_comment_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.delete_idea_comment(p_idea_id, p_comment_id)
$$;
comment on function app.delete_idea_comment(uuid, uuid) is
  'Deletes a comment on an idea as its author or the plan''s host (private.delete_idea_comment).';
revoke all on function app.delete_idea_comment(uuid, uuid) from public;
grant execute on function app.delete_idea_comment(uuid, uuid) to anon, authenticated;

-- -----------------------------------------------------------------------------
-- RLS
-- -----------------------------------------------------------------------------
-- Read: link holders (claim plan_id) and participants. Write: participants,
-- only as themselves (user_id = auth.uid() for members, guest_id = claimed
-- guest for guests). No UPDATE anywhere, and no DELETE policy on ideas and
-- comments: deleting one goes through the definer rules above (author or host).

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

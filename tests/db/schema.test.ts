// Properties of the whole schema that no single domain's tests would notice
// when a later migration forgets them.
import { describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/db.ts';

const db = useFreshDatabase();

describe('schema hygiene', () => {
  it('every table in app and private has row-level security enabled', async () => {
    const rows = await db.owner`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('app', 'private') and c.relkind in ('r', 'p') and not c.relrowsecurity`;
    expect(rows.map((r) => r.relname)).toEqual([]);
  });

  it('private holds only the API\'s plumbing, out of the request roles\' reach (no grants)', async () => {
    const rows = await db.owner<{ relname: string; acl: string | null }[]>`
      select c.relname, c.relacl::text as acl from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'private' and c.relkind in ('r', 'p', 'v') order by 1`;
    expect(rows).toEqual([{ relname: 'idempotency_keys', acl: null }]);
  });

  it('there are the tables of docs/data-model.md', async () => {
    const rows = await db.owner`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'app' and c.relkind = 'r' order by 1`;
    expect(rows.map((r) => r.relname)).toEqual([
      'calendar_feeds', 'email_change_undos', 'email_changes', 'email_unsubscribes', 'guest_credentials', 'guests',
      'idea_comments', 'idea_votes', 'ideas', 'interest_catalog', 'no_dates', 'notification_deliveries', 'notification_events',
      'participants', 'plan_digests', 'plan_notices', 'plan_removals', 'plan_versions', 'plans', 'push_subscriptions', 'rate_limit_counters', 'rsvps', 'sessions', 'sign_in_codes', 'sign_in_devices',
      'time_slot_votes', 'time_slots',
      'user_interests', 'users',
    ]);
  });

  it('PUBLIC has no privilege on the schemas, their tables or their functions', async () => {
    const schemas = await db.owner`
      select nspname from pg_namespace
       where nspname in ('app', 'private') and has_schema_privilege('public', oid, 'usage')`;
    expect(schemas).toEqual([]);
    const tables = await db.owner`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('app', 'private') and coalesce(array_to_string(c.relacl, ','), '') ~ '(^|,)='`;
    expect(tables).toEqual([]);
    const functions = await db.owner`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('app', 'private') and (p.proacl is null or array_to_string(p.proacl, ',') ~ '(^|,)=X')`;
    expect(functions).toEqual([]);
  });

  it('every function pins search_path, and SECURITY DEFINER ones live in private', async () => {
    const unpinned = await db.owner`
      select n.nspname || '.' || p.proname as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('app', 'private')
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`;
    expect(unpinned).toEqual([]);
    const definersOutsidePrivate = await db.owner`
      select n.nspname || '.' || p.proname as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.prosecdef and n.nspname <> 'private' and n.nspname in ('app', 'public')`;
    expect(definersOutsidePrivate).toEqual([]);
  });

  it('every policy names its roles (no policy for PUBLIC) and there is one permissive policy per table, role and command', async () => {
    const forPublic = await db.owner`
      select tablename, policyname from pg_policies where schemaname = 'app' and 'public' = any(roles)`;
    expect(forPublic).toEqual([]);
    const duplicates = await db.owner`
      select tablename, r as role, cmd, count(*)::int as n
        from pg_policies, unnest(roles) r
       where schemaname = 'app' and permissive = 'PERMISSIVE'
       group by 1, 2, 3 having count(*) > 1`;
    expect(duplicates).toEqual([]);
  });

  it('nothing of ours is in schema public (PostgREST exposes it)', async () => {
    const rows = await db.owner`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'
      union all
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`;
    expect(rows).toEqual([]);
  });

  it('the rule functions of the contract exist with their signatures', async () => {
    const rows = await db.owner`
      select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') -> ' ||
             pg_get_function_result(p.oid) as sig
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'app' or p.proname in ('issue_sign_in_code', 'verify_sign_in_code', 'claimed_guest_id',
             'claimed_plan_id', 'claimed_plan_slug', 'is_participant', 'can_read_plan',
             'plan_id_of_idea', 'plan_id_of_time_slot', 'plan_id_of_slug', 'sign_in_with_code', 'check_request',
             'claimed_session_id', 'issue_guest_credential', 'request_email_change', 'confirm_email_change')
       order by 1`;
    expect(rows.map((r) => r.sig)).toEqual([
      'app.add_idea(p_plan_id uuid, p_text text) -> app.ideas',
      'app.add_idea_comment(p_idea_id uuid, p_text text) -> app.idea_comments',
      'app.cancel_plan(p_plan_id uuid, p_message text) -> void',
      'app.delete_idea(p_idea_id uuid) -> void',
      'app.delete_idea_comment(p_idea_id uuid, p_comment_id uuid) -> void',
      'app.leave_plan(p_plan_id uuid) -> boolean',
      'app.lock_date(p_plan_id uuid, p_date date) -> void',
      'app.pick_idea(p_plan_id uuid, p_idea_id uuid) -> void',
      'app.remind_unanswered(p_plan_id uuid, p_window_seconds integer, p_message text) -> integer',
      'app.remove_participant(p_plan_id uuid, p_participant_id uuid) -> void',
      'app.rsvp(p_plan_id uuid, p_answer text, p_plus_ones integer) -> TABLE(answer text, plus_ones integer, "position" integer, promoted integer)',
      'app.rsvp_for(p_plan_id uuid, p_participant_id uuid, p_answer text, p_plus_ones integer) -> TABLE(answer text, plus_ones integer, "position" integer, promoted integer)',
      'app.set_capacity(p_plan_id uuid, p_capacity integer, p_max_plus_ones integer) -> integer',
      'app.set_deadline(p_plan_id uuid, p_deadline timestamp with time zone, p_auto_lock boolean) -> void',
      'app.set_event_time(p_plan_id uuid, p_time text, p_time_zone text) -> void',
      'app.set_location(p_plan_id uuid, p_location text) -> void',
      'app.set_no_dates(p_plan_id uuid) -> boolean',
      'app.transfer_guest_votes(p_guest_id uuid) -> TABLE(transferred_idea_votes integer, transferred_time_votes integer)',
      'app.unlock_plan(p_plan_id uuid) -> void',
      'app.vote_on_date(p_plan_id uuid, p_date date, p_period text, p_answer text) -> TABLE(voted boolean, time_slot_id uuid, vote_count integer, if_need_be_count integer, answer text)',
      'app.vote_on_idea(p_idea_id uuid) -> TABLE(voted boolean, vote_count integer)',
      'app.vote_on_time_slot(p_time_slot_id uuid, p_answer text) -> TABLE(voted boolean, vote_count integer, if_need_be_count integer, answer text)',
      'private.can_read_plan(p_plan_id uuid) -> boolean',
      'private.check_request(p_user_id uuid, p_session_id uuid, p_guest_id uuid, p_guest_secret_hash text) -> boolean',
      'private.claimed_guest_id() -> uuid',
      'private.claimed_plan_id() -> uuid',
      'private.claimed_plan_slug() -> text',
      'private.claimed_session_id() -> uuid',
      'private.confirm_email_change(p_code_hash text, p_guess_limits jsonb, p_undo_token_hash text) -> TABLE(outcome text, old_email text)',
      'private.is_participant(p_plan_id uuid) -> boolean',
      'private.issue_guest_credential(p_plan_id uuid, p_name text, p_secret_hash text) -> uuid',
      'private.issue_sign_in_code(p_email text, p_device_hash text, p_code_hash text, p_address_limit jsonb, p_network_limits jsonb) -> TABLE(outcome text, retry_after integer)',
      'private.plan_id_of_idea(p_idea_id uuid) -> uuid',
      'private.plan_id_of_slug(p_slug text) -> uuid',
      'private.plan_id_of_time_slot(p_time_slot_id uuid) -> uuid',
      'private.request_email_change(p_new_email text, p_code_hash text, p_address_limit jsonb, p_network_limits jsonb) -> TABLE(outcome text, retry_after integer)',
      'private.sign_in_with_code(p_email text, p_device_hash text, p_code_hash text, p_guess_limits jsonb) -> TABLE(user_id uuid, session_id uuid)',
      'private.verify_sign_in_code(p_email text, p_device_hash text, p_code_hash text) -> uuid',
    ]);
  });
});

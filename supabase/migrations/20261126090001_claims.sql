-- =============================================================================
-- Domain: claims. The schemas `app` and `private`, what the request roles may
-- use in them, the readers of the request's claims, and the one trigger
-- helper every domain shares.
-- =============================================================================
--
-- The schema is written one domain per file, in the order a reader (and
-- PostgreSQL) needs them; each function, table and policy is defined once, in
-- its domain's file. How the schema changes from the first release on:
-- docs/decisions/0063-schema-in-domain-files.md.
--
-- WHY two schemas and not `public`:
--   Supabase's REST endpoint (PostgREST) serves the schemas listed in
--   supabase/config.toml ([api] schemas = public, graphql_public) to anyone who
--   holds the anon key. Our data must not be listable from there, so tables live
--   in `app` and security-definer helpers in `private`, neither of which is
--   exposed. RLS is still enabled on every table (defence in depth: the API runs
--   every request as `anon` or `authenticated`, never as the owner).
--
-- WHY `usage` for anon/authenticated on both schemas:
--   The API switches to those roles per request (set_config('role', ...)), and
--   policies call `private.*` helpers, which requires usage on `private` by the
--   role evaluating the policy. `usage` alone exposes nothing: each table and
--   function still needs its own grant, and we grant function EXECUTE one by one.

create schema if not exists app;
create schema if not exists private;

comment on schema app is
  'Hangplan application tables. Not exposed by PostgREST; reached by the api Edge Function under role anon/authenticated with RLS.';
comment on schema private is
  'Hangplan helpers (claim readers, security-definer membership checks, sign-in). Not exposed by PostgREST.';

-- Nothing for PUBLIC (every role, including ones Supabase adds later).
revoke all on schema app from public;
revoke all on schema private from public;
grant usage on schema app to anon, authenticated;
grant usage on schema private to anon, authenticated;

-- PostgreSQL grants EXECUTE on every new function to PUBLIC by default. In these
-- two schemas every function must be granted deliberately instead, so a helper
-- added later is not callable by accident. (Applies to functions created by the
-- role that runs the migrations, i.e. the owner of everything here.)
alter default privileges in schema app revoke execute on functions from public;
alter default privileges in schema private revoke execute on functions from public;

-- -----------------------------------------------------------------------------
-- Claim readers
-- -----------------------------------------------------------------------------
-- The API sets `request.jwt.claims` (transaction-local) to a JSON object with
-- `role`, and optionally `sub` and `session_id` (a signed-in user),
-- `guest_id` and `guest_secret_hash` (a guest), `plan_id` or `plan_slug` (the
-- plan the URL names; see docs/data-model.md). Policies must never raise because of a missing or
-- malformed claim: a broken claim simply grants nothing. Hence:
--   * private.jwt_claims() swallows invalid JSON (plpgsql exception block; the
--     subtransaction it costs is paid once per statement because policies call
--     the readers as `(select private.fn())`, an initPlan).
--   * uuid claims are cast only when they look like a uuid (no exception path).
--
-- They are SECURITY INVOKER (the default): they read only the caller's own GUCs,
-- so there is nothing to bypass. `set search_path = ''` keeps them immune to
-- search_path tricks and satisfies the advisor lint function_search_path_mutable.

create function private.jwt_claims()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(current_setting('request.jwt.claims', true), '')::jsonb;
exception
  when others then
    -- Malformed JSON: behave as if there were no claims at all.
    return null;
end;
$$;
comment on function private.jwt_claims() is
  'The request.jwt.claims JSON set by the API, or null when absent or malformed. Never raises.';

revoke all on function private.jwt_claims() from public;
grant execute on function private.jwt_claims() to anon, authenticated;

-- Text -> uuid without raising: null unless it is the canonical 8-4-4-4-12 form.
create function private.try_uuid(p_value text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when p_value ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then p_value::uuid
  end
$$;
comment on function private.try_uuid(text) is
  'Casts canonical uuid text to uuid, null for anything else. Never raises.';
revoke all on function private.try_uuid(text) from public;
grant execute on function private.try_uuid(text) to anon, authenticated;

create function private.claimed_plan_id()
returns uuid
language sql
stable
set search_path = ''
as $$
  select private.try_uuid(private.jwt_claims() ->> 'plan_id')
$$;
comment on function private.claimed_plan_id() is
  'The plan the request URL names (claim plan_id), or null: whoever holds the link may read that plan.';
revoke all on function private.claimed_plan_id() from public;
grant execute on function private.claimed_plan_id() to anon, authenticated;

create function private.claimed_plan_slug()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif(private.jwt_claims() ->> 'plan_slug', '')
$$;
comment on function private.claimed_plan_slug() is
  'The slug the request URL names (claim plan_slug), or null.';
revoke all on function private.claimed_plan_slug() from public;
grant execute on function private.claimed_plan_slug() to anon, authenticated;

-- -----------------------------------------------------------------------------
-- The session of this request (claim session_id)
-- -----------------------------------------------------------------------------
create function private.claimed_session_id()
returns uuid
language sql
stable
set search_path = ''
as $$
  select private.try_uuid(private.jwt_claims() ->> 'session_id')
$$;
comment on function private.claimed_session_id() is
  'The session of the signed-in request (claim session_id), or null. Set by the API only after private.check_request found it live.';
revoke all on function private.claimed_session_id() from public;
grant execute on function private.claimed_session_id() to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Shared trigger helper: updated_at
-- -----------------------------------------------------------------------------
-- Trigger functions are not checked for EXECUTE when they fire, so no grant is
-- needed (and none is given).
create function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke all on function private.set_updated_at() from public;

// The database client and the one way handlers talk to it: withRequest(),
// which runs a request's SQL as `anon` or `authenticated` so that RLS applies.
import postgres from 'postgres';
import { databaseUrl } from './env.ts';

export type Tx = postgres.TransactionSql;

let client: postgres.Sql | undefined;

/**
 * One client per isolate (module scope), created on first use. `prepare: false`
 * because Supabase's transaction pooler (Supavisor) cannot keep named prepared
 * statements across transactions; a small `max` because every isolate of the
 * function holds its own pool against the shared pooler.
 */
export function sql(): postgres.Sql {
  client ??= postgres(databaseUrl(), {
    prepare: false,
    max: 5,
    idle_timeout: 20,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'hangplan-api' },
  });
  return client;
}

/** Who is asking and what the URL names; becomes the role and request.jwt.claims. */
export interface RequestIdentity {
  /** Verified token subject. Wins over guestId (decisions.md: a valid token wins). */
  userId?: string | null;
  guestId?: string | null;
  planId?: string | null;
  planSlug?: string | null;
  /** For /api/ideas/{id}/...: plan_id is resolved from the idea in the claims statement. */
  ideaId?: string | null;
  /** For /api/timeslots/{id}/...: plan_id is resolved from the time slot likewise. */
  timeSlotId?: string | null;
}

export type RequestRole = 'anon' | 'authenticated';

/** The role and claims of docs/data-model.md. Pure, so it is unit-tested. */
export function requestClaims(identity: RequestIdentity): { role: RequestRole; claims: Record<string, string> } {
  const role: RequestRole = identity.userId ? 'authenticated' : 'anon';
  const claims: Record<string, string> = { role };
  if (identity.userId) claims.sub = identity.userId;
  else if (identity.guestId) claims.guest_id = identity.guestId;
  if (identity.planId) claims.plan_id = identity.planId;
  if (identity.planSlug) claims.plan_slug = identity.planSlug;
  return { role, claims };
}

/** The claims JSON, with plan_id looked up from an idea, time slot or slug when the URL names one. */
function claimsExpression(tx: Tx, claims: Record<string, string>, identity: RequestIdentity) {
  // Sent as text and cast in SQL: postgres.js would JSON-encode a string bound
  // straight to a jsonb parameter a second time.
  const json = JSON.stringify(claims);
  if (claims.plan_id || !(identity.ideaId || identity.timeSlotId || identity.planSlug)) return tx`${json}::text`;
  const planIdLookup = identity.ideaId
    ? tx`private.plan_id_of_idea(${identity.ideaId}::uuid)`
    : identity.timeSlotId
      ? tx`private.plan_id_of_time_slot(${identity.timeSlotId}::uuid)`
      : tx`private.plan_id_of_slug(${identity.planSlug!})`;
  return tx`(${json}::text::jsonb || jsonb_strip_nulls(jsonb_build_object('plan_id', ${planIdLookup})))::text`;
}

/**
 * Run `fn` in ONE transaction whose first statement switches to the request's
 * role and claims (transaction-local, so a pooled connection never keeps them).
 * The role is only ever anon or authenticated: never the owner, which bypasses RLS.
 *
 * Round trips: BEGIN, then the claims statement is sent without waiting and
 * pipelined with fn's first query on the same connection (postgres.js runs a
 * transaction's queries in order), then COMMIT. If the claims statement fails,
 * the queries after it fail too and postgres.js reports the first error.
 *
 * Throwing inside `fn` rolls everything back. A handler that must keep a write
 * while still answering with an error (a wrong sign-in code counts a try)
 * returns normally and throws after withRequest.
 */
export async function withRequest<T>(identity: RequestIdentity, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { role, claims } = requestClaims(identity);
  const result = await sql().begin(async (tx) => {
    const setClaims = tx`select set_config('role', ${role}, true),
                                set_config('request.jwt.claims', ${claimsExpression(tx, claims, identity)}, true)`.execute();
    const value = await fn(tx);
    await setClaims;
    return value;
  });
  return result as T;
}

// The database client and the one way handlers talk to it: withRequest(),
// which runs a request's SQL as `anon` or `authenticated` so that RLS applies.
import postgres from 'postgres';
import { toBase64url } from '../http/bytes.ts';
import { databasePoolMode, databaseUrl } from '../config/env.ts';
import { type LimitHit, limitsJson } from './limits.ts';
import { SECRET_TOKEN_PATTERN } from '../contract/fields.ts';
import { GUEST_SECRET_WRONG } from '../contract/guest-secret.ts';
import { HttpError } from '../http/errors.ts';
import type { IdempotencyKey } from './idempotency.ts';
import { RecentMap } from './recent-map.ts';
import { markReplayed, requestScope } from './request-scope.ts';

/** The connection a request's statements run on (reserved for the request, inside its transaction). */
export type Tx = postgres.Sql;

let client: postgres.Sql | undefined;

/**
 * One client per isolate (module scope), created on first use. Named prepared
 * statements (parsed and planned once per connection) on a direct connection;
 * none behind a transaction pooler (DATABASE_POOL_MODE=transaction, or port
 * 6543), where Supavisor cannot keep them across transactions. A small `max`
 * because every isolate of the function holds its own pool.
 */
export function sql(): postgres.Sql {
  client ??= postgres(databaseUrl(), {
    prepare: databasePoolMode() === 'session',
    max: 5,
    idle_timeout: 20,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'hangplan-api' },
  });
  return client;
}

/** Who is asking and what the URL names; becomes the role and request.jwt.claims. */
interface RequestIdentity {
  /** Verified token subject. Handlers pass no guestId with it (docs/api.md "API conventions": a valid token wins), except the guest-vote transfer. */
  userId?: string | null;
  /**
   * The token's session. Taken from the request scope (set when the token was
   * verified) when left out; the database refuses the request unless it is live.
   */
  sessionId?: string | null;
  /**
   * The guest acting (writes, leave, the transfer, reading one's own guest
   * session). Only with its device's secret: the database refuses it otherwise.
   * Reads that merely mention a guest id (?guestId=) must not pass it here.
   */
  guestId?: string | null;
  /** The device's guest secret; taken from the request scope (header X-Guest-Secret) when left out. */
  guestSecret?: string | null;
  planId?: string | null;
  planSlug?: string | null;
  /** For /api/ideas/{id}/...: plan_id is resolved from the idea in the claims statement. */
  ideaId?: string | null;
  /** For /api/timeslots/{id}/...: plan_id is resolved from the time slot likewise. */
  timeSlotId?: string | null;
}

type RequestRole = 'anon' | 'authenticated';

/** What the claims are built from: the identity, with the session and the guest secret's hash resolved. */
interface ClaimsInput extends Omit<RequestIdentity, 'guestSecret'> {
  /** Lower-case hex SHA-256 of the device's guest secret. */
  guestSecretHash?: string | null;
}

/** The role and claims of docs/data-model.md. Pure, so it is unit-tested. */
export function requestClaims(identity: ClaimsInput): { role: RequestRole; claims: Record<string, string> } {
  const role: RequestRole = identity.userId ? 'authenticated' : 'anon';
  const claims: Record<string, string> = { role };
  if (identity.userId) {
    claims.sub = identity.userId;
    if (identity.sessionId) claims.session_id = identity.sessionId;
  }
  if (identity.guestId) {
    claims.guest_id = identity.guestId;
    if (identity.guestSecretHash) claims.guest_secret_hash = identity.guestSecretHash;
  }
  if (identity.planId) claims.plan_id = identity.planId;
  if (identity.planSlug) claims.plan_slug = identity.planSlug;
  return { role, claims };
}

const encoder = new TextEncoder();

/** Lower-case hex SHA-256 of a secret token: what app.guest_credentials and app.email_change_undos store. */
export async function sha256Hex(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(secret));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

// The hashes of the guest secrets this instance has seen: a guest's phone
// sends the same secret with every request, and Web Crypto's digest() is an
// async op that hands the work to another thread and back, which cost a
// guest's write more CPU than the rest of its JavaScript (docs/performance.md). Whether
// the secret is right is still the database's check on every request.
// Bounded: the least recently used go first.
const secretHashes = new RecentMap<string, Promise<string>>(5000);

function guestSecretHash(secret: string): Promise<string> {
  let hash = secretHashes.get(secret);
  if (!hash) {
    hash = sha256Hex(secret);
    hash.catch(() => secretHashes.delete(secret));
    secretHashes.set(secret, hash);
  }
  return hash;
}

/** A new secret token (a guest secret, an undo link's token), shaped as SECRET_TOKEN_PATTERN says. */
export function newSecretToken(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The identity with the session and the guest secret filled in from the request scope. */
async function resolveIdentity(identity: RequestIdentity): Promise<ClaimsInput> {
  const scope = requestScope();
  const { guestSecret: givenSecret, ...rest } = identity;
  let sessionId = identity.sessionId ?? null;
  if (identity.userId && !sessionId && scope?.session?.userId === identity.userId) sessionId = scope.session.sessionId;
  // A user id never reaches the database without the session it came with.
  if (identity.userId && !sessionId) throw new Error('withRequest: a user id without its verified session');
  const secret = identity.guestId ? (givenSecret !== undefined ? givenSecret : (scope?.guestSecret ?? null)) : null;
  // Every secret the API hands out is a newSecretToken(); anything else is
  // refused as it stands, before it is hashed or remembered.
  if (secret && !SECRET_TOKEN_PATTERN.test(secret)) throw new HttpError(403, GUEST_SECRET_WRONG);
  return { ...rest, sessionId, guestSecretHash: secret ? await guestSecretHash(secret) : null };
}

/** The claims JSON, with plan_id looked up from an idea, time slot or slug when the URL names one. */
function claimsExpression(tx: Tx, claims: Record<string, string>, identity: Pick<RequestIdentity, 'ideaId' | 'timeSlotId' | 'planSlug'>) {
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
 * The gate of the claims statement: private.check_request raises (HP401) when
 * the token's session is gone or expired, and (HP401/HP403/HP404) when a guest
 * id comes without its device's secret, with a wrong one, or is gone. Only
 * called when there is someone to check.
 */
function gate(tx: Tx, input: ClaimsInput) {
  if (!input.userId && !input.guestId) return tx`true`;
  return tx`private.check_request(${input.userId ?? null}::uuid, ${input.sessionId ?? null}::uuid,
                                  ${input.guestId ?? null}::uuid, ${input.guestSecretHash ?? null}::text)`;
}

/** What a request does besides its own statements. */
export interface RequestOptions {
  /**
   * Abuse limits this request counts (_shared/db/limits.ts), in order; HP429 at
   * the first full one, and nothing of the request takes effect.
   */
  limits?: LimitHit[];
}

/**
 * The first statement of every request: the gate, then the role and the
 * claims, then the request's abuse limits (counted only for a caller the gate
 * let through). The select list is evaluated in order.
 */
function claimsStatement(tx: Tx, input: ClaimsInput, options: RequestOptions = {}) {
  const { role, claims } = requestClaims(input);
  const limits = options.limits?.length ? tx`, private.enforce_rate_limits(${limitsJson(options.limits)}::text::jsonb)` : tx``;
  return tx`select ${gate(tx, input)} as allowed,
                   set_config('role', ${role}, true),
                   set_config('request.jwt.claims', ${claimsExpression(tx, claims, input)}, true),
                   set_config('request.jwt.claim.sub', ${claims.sub ?? ''}, true)${limits}`;
}

function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * Run `work` on a connection reserved for it (what is sent in one tick goes
 * out in one write, in order). A failure ends whatever transaction `work`
 * left open (a ROLLBACK is harmless when none is), so the connection goes
 * back to the pool clean.
 */
async function onReservedConnection<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const connection = await sql().reserve();
  const tx = connection as unknown as Tx;
  try {
    return await work(tx);
  } catch (error) {
    await tx`rollback`.execute().catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}

/**
 * Run `fn` in ONE transaction whose first statement checks who is asking and
 * switches to the request's role and claims (transaction-local, so a pooled
 * connection never keeps them). The role is only ever anon or authenticated:
 * never the owner, which bypasses RLS. Both `request.jwt.claims` and
 * `request.jwt.claim.sub` are set (Supabase's auth.uid() reads the latter first).
 *
 * Round trips: BEGIN, the claims statement and fn's first query are sent
 * together (one write on a connection reserved for the request: postgres.js
 * coalesces what is sent in the same tick and runs it in order), then COMMIT.
 * Requests whose statements do not wait on each other's answers also send
 * their COMMIT with them: requestStatements(). The session check and the
 * guest-secret check are part of the claims statement: when it fails (a signed-out session: 401 "Your session
 * has expired, please sign in again"; a guest without its secret), the
 * transaction is aborted, nothing of fn takes effect, and its error is what
 * withRequest throws, whatever fn made of the failures that followed.
 *
 * Throwing inside `fn` rolls everything back. A handler that must keep a write
 * while still answering with an error (a wrong sign-in code counts a try)
 * returns normally and throws after withRequest.
 */
export async function withRequest<T>(
  identity: RequestIdentity,
  fn: (tx: Tx) => Promise<T>,
  options: RequestOptions = {},
): Promise<T> {
  const input = await resolveIdentity(identity);
  return await onReservedConnection(async (tx) => {
    // Awaited below; marked handled now, so that a refusal is never an
    // unhandled rejection (fatal under Deno) while fn is still running.
    const begin = handled(tx`begin`.execute());
    const setClaims = handled(claimsStatement(tx, input, options).execute());
    let value: T;
    try {
      value = await fn(tx);
    } finally {
      // The gate's own refusal is the answer, not what it made fn run into.
      await begin;
      await setClaims;
    }
    await tx`commit`;
    return value;
  });
}

/** The rows of each statement of a requestStatements() call, in order. */
// Any row type: each statement keeps its own in StatementRows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStatement = postgres.PendingQuery<any>;

type StatementRows<Q extends readonly AnyStatement[]> = {
  -readonly [K in keyof Q]: Awaited<Q[K]>;
};

/**
 * withRequest for a request whose statements do not wait on each other's
 * answers (a read; a limit check and a rule): BEGIN, the claims statement,
 * `build`'s statements and COMMIT go out in one write and come back in one
 * round trip. `build` returns the queries without awaiting them; the answer is
 * each one's rows, in order. The first failure (the gate's, then the
 * statements' in order) is thrown: after it the transaction is aborted, the
 * statements behind it fail with "current transaction is aborted", and the
 * COMMIT only ends it, so nothing of the request takes effect.
 */
export async function requestStatements<const Q extends readonly AnyStatement[]>(
  identity: RequestIdentity,
  build: (tx: Tx) => Q,
  options: RequestOptions = {},
): Promise<StatementRows<Q>> {
  const input = await resolveIdentity(identity);
  return await onReservedConnection(async (tx) => {
    const statements = build(tx);
    const steps = await Promise.allSettled([
      tx`begin`.execute(),
      claimsStatement(tx, input, options).execute(),
      ...statements.map((statement) => statement.execute()),
      tx`commit`.execute(),
    ]);
    for (const step of steps) if (step.status === 'rejected') throw step.reason;
    return steps.slice(2, -1).map((step) => (step as PromiseFulfilledResult<unknown>).value) as StatementRows<Q>;
  });
}

/** What requestRow does besides its statement. */
export interface RowRequestOptions extends RequestOptions {
  /**
   * The request's Idempotency-Key (_shared/db/idempotency.ts idempotencyKeyOf;
   * docs/offline.md "Idempotency keys"): the statement runs only for the first
   * request of the caller with this key, and its answer is stored with the
   * key in the same transaction; a repeat answers the stored row instead,
   * runs nothing else, and the response says `Idempotent-Replayed: true`.
   */
  idempotencyKey?: IdempotencyKey | null;
}

/**
 * The route's statement under an Idempotency-Key, in ONE statement: the claim
 * (the FROM, evaluated first) answers null when this request holds the key,
 * else the stored answer; COALESCE evaluates its second argument, the
 * statement and the storing of its rows, only when the first is null
 * (20261126090019_idempotency.sql). Either way the answer is the
 * statement's rows as JSON, so a first answer and its replays are the same.
 */
function idempotentStatement(tx: Tx, statement: AnyStatement, { key, fingerprint }: IdempotencyKey) {
  return tx<{ answer: postgres.Row[]; replayed: boolean }[]>`
    select coalesce(claim.stored,
                    private.store_idempotent_answer(${key}::text,
                      (select coalesce(jsonb_agg(to_jsonb(a)), '[]'::jsonb) from (${statement}) a))) as answer,
           claim.stored is not null as replayed
      from private.claim_idempotency_key(${key}::text, ${fingerprint}::text) claim(stored)`;
}

/**
 * requestStatements for ONE statement: its first row (undefined when none), in
 * one round trip. With an Idempotency-Key, the row comes through JSON (the
 * statement's columns must be JSON values: text, numbers, booleans, jsonb).
 */
export async function requestRow<R extends postgres.MaybeRow>(
  identity: RequestIdentity,
  build: (tx: Tx) => postgres.PendingQuery<R[]>,
  options: RowRequestOptions = {},
): Promise<R | undefined> {
  const { idempotencyKey, ...rest } = options;
  if (!idempotencyKey) {
    const [rows] = await requestStatements(identity, (tx) => [build(tx)] as const, rest);
    return (rows as R[])[0];
  }
  const [[row]] = await requestStatements(identity, (tx) => [idempotentStatement(tx, build(tx), idempotencyKey)] as const, rest);
  if (row.replayed) markReplayed();
  return row.answer[0] as R | undefined;
}

/** A request that only counts abuse limits (in a transaction of its own, so the hits stay whatever follows). */
export async function countLimits(limits: LimitHit[]): Promise<void> {
  await requestStatements({}, () => [] as const, { limits });
}

/**
 * The scheduler's and the deliverer's work (docs/notifications.md): ONE
 * transaction as `service_role`, which may run only the worker functions
 * granted to it (claims of deliveries, deadlines, digests, the e-mail
 * opt-out of a verified link). Never reached from a request's identity:
 * requestClaims() only ever answers anon or authenticated.
 */
export async function withWorker<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return await onReservedConnection(async (tx) => {
    const begin = handled(tx`begin`.execute());
    const role = handled(tx`set local role service_role`.execute());
    let value: T;
    try {
      value = await fn(tx);
    } finally {
      await begin;
      await role;
    }
    await tx`commit`;
    return value;
  });
}

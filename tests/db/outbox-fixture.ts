// What the notifications and reminders tests share (notifications.test.ts,
// reminders.test.ts): devices that subscribe, the scheduler's role, the
// outbox as it stands, and a host's change made as the API makes it. Each
// test starts with the outbox's and the notice budget's tables empty.
import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import { beforeEach } from 'vitest';
import type { Claims, TestDatabase } from '../support/db.ts';
import { signedIn, startSession, type PlanWorld } from '../support/plan-fixture.ts';

const LIMITS = { perIdentity: 3, perGuest: 5, perPlan: 8 };

/** The notice budget's window, as the API passes it (NOTIFICATION_LIMITS.noticeWindowSeconds). */
export const WINDOW = 600;

export const key = (bytes: number) => randomBytes(bytes).toString('base64url');
let endpoints = 0;
export const newEndpoint = () => `https://push.example.test/send/${++endpoints}-${key(6)}`;

export interface Delivery {
  kind: string;
  channel: string;
  endpoint: string | null;
  user_id: string | null;
  guest_id: string | null;
  detail: Record<string, unknown>;
}

/** The helpers, on the file's database and its plan world (seeded before each test). */
export function useOutbox(db: TestDatabase, w: PlanWorld) {
  // One database for the file: each test starts with these tables empty.
  beforeEach(async () => {
    await db.owner`truncate app.push_subscriptions, app.notification_events, app.notification_deliveries,
                            app.plan_digests, app.plan_notices, app.email_unsubscribes`;
  });

  /**
   * Subscribe a device of whoever `claims` name; answers the endpoint. A member
   * named without a session signs in first (a subscription is its session's).
   */
  async function subscribe(claims: Claims, endpoint = newEndpoint(), limits = LIMITS): Promise<string> {
    if (claims.sub && !claims.session_id) claims = signedIn(claims.sub, await startSession(db.owner, claims.sub));
    await db.as(claims, (sql) =>
      sql`select private.save_push_subscription(${endpoint}, ${key(65)}, ${key(16)}, ${limits.perIdentity}, ${limits.perGuest}, ${limits.perPlan})`);
    return endpoint;
  }

  /** Run as the scheduler does: role service_role, no claims. */
  function asWorker<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return db.owner.begin(async (tx) => {
      await tx`set local role service_role`;
      return fn(tx as unknown as Sql);
    }) as Promise<T>;
  }

  /** Every delivery waiting for the plan's events, oldest first. */
  const outbox = (planId: string) =>
    db.owner<Delivery[]>`
      select e.kind, d.channel, d.endpoint, d.user_id, d.guest_id, e.detail || coalesce(d.detail, '{}') as detail
        from app.notification_deliveries d join app.notification_events e on e.id = d.event_id
       where e.plan_id = ${planId}
       order by d.id`;

  const clearOutbox = () => db.owner`delete from app.notification_events`;

  /**
   * A host's change as the API makes it: the change, then, in the same
   * transaction, the plan's notice if its budget allows one now.
   */
  const hostDoes = (planId: string, change: (sql: TransactionSql) => Promise<unknown>, claims: Claims = w.actors.host) =>
    db.as(claims, async (sql) => {
      await change(sql);
      await sql`select private.send_plan_notices(${planId}, ${WINDOW})`;
    });

  /** The scheduler's pass over every plan's waiting notice; how many it wrote. */
  const sendDueNotices = () =>
    asWorker(async (sql) => (await sql`select private.send_plan_notices(null, ${WINDOW}) as n`)[0].n as number);

  /** As if the window had passed since the last notice and the first waiting change. */
  const windowPasses = (planId: string) =>
    db.owner`update app.plan_notices
                set quiet_until = quiet_until - interval '601 seconds', pending_since = pending_since - interval '601 seconds'
              where plan_id = ${planId}`;

  return { subscribe, asWorker, outbox, clearOutbox, hostDoes, sendDueNotices, windowPasses };
}

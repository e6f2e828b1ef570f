// The deliverer of the outbox (docs/notifications.md): claims due deliveries
// (private.claim_deliveries, leased, FOR UPDATE SKIP LOCKED), sends each push
// and e-mail, and records what became of them (private.finish_deliveries):
// sent ones are gone, failed ones wait with back-off, a subscription the push
// service no longer knows is deleted. Three round trips per batch, whatever
// its size. Runs as service_role (withWorker), after the request that wrote
// the event has committed (deliverSoon) and on every scheduler run.
import { type Tx, withWorker } from '../db/client.ts';
import { NOTIFICATION_LIMITS } from '../db/limits.ts';
import { sendMail } from './mail.ts';
import { appOrigin, type Delivery, noticeMail, noticeUrgency, pushPayload } from './notify.ts';
import { type PushOutcome, sendPush, vapidKeys } from './push.ts';
import { unsubscribeToken } from './unsubscribe.ts';

/** At most this many sends at once (push services and SMTP alike). */
const CONCURRENCY = 8;

export interface DeliveryReport {
  sent: number;
  /** Waiting for a retry. */
  retrying: number;
  /** Dropped unsent: refused for good, a gone subscription, or given up. */
  dropped: number;
}

async function sendOne(delivery: Delivery, origin: string): Promise<PushOutcome> {
  if (delivery.channel === 'push') {
    const keys = vapidKeys();
    if (!keys) return { outcome: 'retry', error: 'VAPID keys are not set' };
    return await sendPush(
      { endpoint: delivery.endpoint!, p256dh: delivery.p256dh!, auth: delivery.auth! },
      pushPayload(delivery),
      { ttlSeconds: NOTIFICATION_LIMITS.pushTtlSeconds, urgency: noticeUrgency(delivery.kind), keys },
    );
  }
  if (!delivery.email || !delivery.userId) return { outcome: 'failed', error: 'no address' };
  try {
    const token = await unsubscribeToken(delivery.userId, delivery.planId, delivery.email);
    const mail = noticeMail(delivery, origin, {
      page: `${origin}/unsubscribe/${token}`,
      oneClick: `${origin}/api/unsubscribe/${token}`,
    });
    await sendMail({ to: delivery.email, ...mail });
    return { outcome: 'sent' };
  } catch (error) {
    // SMTP refused or was unreachable: later (a bad address keeps failing
    // until the delivery is given up, which is bounded).
    return { outcome: 'retry', error: (error as Error).message.slice(0, 200) };
  }
}

/**
 * Deliver what is due: one plan's (right after a request wrote its events),
 * or everything (the scheduler). Never throws for a failed send; a database
 * failure is thrown (the caller logs it, the scheduler tries again).
 */
export async function deliverDue(planId: string | null = null): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, dropped: 0 };
  const origin = appOrigin();
  for (;;) {
    const claimed = await withWorker((tx) => tx<Delivery[]>`
      select id, event_id as "eventId", channel, endpoint, p256dh, auth, email, name,
             user_id as "userId", guest_id as "guestId", plan_id as "planId", plan_title as "planTitle",
             plan_slug as "planSlug", kind, detail, attempts
        from private.claim_deliveries(${planId}::uuid, ${NOTIFICATION_LIMITS.batch}, ${NOTIFICATION_LIMITS.leaseSeconds})`);
    if (claimed.length === 0) return report;

    const results: { id: number; outcome: PushOutcome['outcome']; error?: string }[] = [];
    for (let i = 0; i < claimed.length; i += CONCURRENCY) {
      const batch = claimed.slice(i, i + CONCURRENCY);
      const outcomes = await Promise.all(batch.map((delivery) => sendOne(delivery, origin)));
      outcomes.forEach((outcome, j) => results.push({ id: Number(batch[j].id), ...outcome }));
    }
    const dropped = await withWorker(async (tx) => {
      const [row] = await tx<{ dropped: number }[]>`
        select private.finish_deliveries(${JSON.stringify(results)}::text::jsonb,
                 ${NOTIFICATION_LIMITS.retryFirstSeconds}, ${NOTIFICATION_LIMITS.retryMaxSeconds},
                 ${NOTIFICATION_LIMITS.retryGiveUpSeconds}) as dropped`;
      return row.dropped;
    });
    const sent = results.filter((result) => result.outcome === 'sent').length;
    for (const result of results) {
      if (result.outcome !== 'sent') console.warn(`Notification ${result.id} not delivered (${result.outcome}): ${result.error ?? ''}`);
    }
    // Every unsent one is either dropped (finish_deliveries counts those) or waits.
    report.sent += sent;
    report.dropped += dropped;
    report.retrying += results.length - sent - dropped;
    // A short batch means nothing else is due now.
    if (claimed.length < NOTIFICATION_LIMITS.batch) return report;
  }
}

/**
 * In a host's request, after its change (same transaction): writes the plan's
 * waiting notice to the outbox if the plan's notice budget allows it now
 * (private.send_plan_notices; docs/notifications.md "The notice budget"),
 * else it waits for the scheduler. Sent without waiting for the answer: the
 * caller awaits it with its other statements.
 */
export function sendPlanNotices(tx: Tx, planId: string): Promise<unknown> {
  return tx`select private.send_plan_notices(${planId}::uuid, ${NOTIFICATION_LIMITS.noticeWindowSeconds})`.execute();
}

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

/**
 * Deliver a plan's new events after the answer has gone: on Supabase the
 * function stays alive for it (EdgeRuntime.waitUntil); locally the promise
 * simply runs on. Whatever fails here is the scheduler's to retry.
 */
export function deliverSoon(planId: string): void {
  const work = deliverDue(planId).catch((error) => {
    console.error(`Delivering the notifications of plan ${planId} failed (the scheduler retries):`, error);
  });
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(work);
}

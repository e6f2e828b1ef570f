// /api/push: a device asks to be told (Web Push), or stops (docs/api.md
// "Notifications"). Members by token, guests by guestId with the device's
// X-Guest-Secret, as every guest write; the subscription is tied to that
// identity in the database (private.save_push_subscription).
import { Hono } from 'hono';
import { actingAs, optionalUserId } from '../../../_shared/auth/tokens.ts';
import {
  NOTIFICATIONS_NEED_IDENTITY,
  PUSH_ENDPOINT_NOT_ALLOWED,
  PUSH_KEYS_INVALID,
  PUSH_NOT_CONFIGURED,
  type PushPublicKey,
} from '../../../_shared/contract/notifications.ts';
import { pushSubscriptionBody, pushUnsubscribeBody } from '../../../_shared/contract/notifications-requests.ts';
import { requestRow } from '../../../_shared/db/client.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { NOTIFICATION_LIMITS } from '../../../_shared/db/limits.ts';
import { isAllowedPushEndpoint, isP256PublicKey, vapidKeys } from '../../../_shared/delivery/push.ts';
import { parseBody } from '../../../_shared/http/validation.ts';

export const pushRoutes = new Hono()
  .get('/push/public-key', (c) => {
    const keys = vapidKeys();
    if (!keys) throw new HttpError(503, PUSH_NOT_CONFIGURED);
    const answer: PushPublicKey = { publicKey: keys.publicKey };
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(answer);
  })

  .post('/push/subscriptions', async (c) => {
    const { subscription, guestId } = await parseBody(c, pushSubscriptionBody);
    const identity = actingAs(await optionalUserId(c), guestId, NOTIFICATIONS_NEED_IDENTITY);
    if (!isAllowedPushEndpoint(subscription.endpoint)) throw new HttpError(400, PUSH_ENDPOINT_NOT_ALLOWED);
    if (!isP256PublicKey(subscription.keys.p256dh)) throw new HttpError(400, PUSH_KEYS_INVALID);
    await requestRow(identity, (tx) => tx`
      select private.save_push_subscription(${subscription.endpoint}, ${subscription.keys.p256dh}, ${subscription.keys.auth},
                                            ${NOTIFICATION_LIMITS.subscriptionsPerIdentity}, ${NOTIFICATION_LIMITS.subscriptionsPerGuest},
                                            ${NOTIFICATION_LIMITS.subscriptionsPerPlan})`);
    return c.body(null, 201);
  })

  // Idempotent: 204 whether or not this identity had that endpoint.
  .delete('/push/subscriptions', async (c) => {
    const { endpoint, guestId } = await parseBody(c, pushUnsubscribeBody);
    const identity = actingAs(await optionalUserId(c), guestId, NOTIFICATIONS_NEED_IDENTITY);
    await requestRow(identity, (tx) => tx`select private.delete_push_subscription(${endpoint})`);
    return c.body(null, 204);
  });

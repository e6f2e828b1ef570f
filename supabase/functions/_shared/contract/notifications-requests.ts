// The notification endpoints' requests (docs/api.md "Notifications").
import { z } from 'zod';
import { body, optionalGuestId } from './fields.ts';
import { DEADLINE_IN_PAST, DEADLINE_INVALID, PUSH_KEYS_INVALID } from './notifications.ts';

/** The longest push endpoint accepted (real ones are far shorter). */
export const PUSH_ENDPOINT_MAX = 2048;

const guestId = optionalGuestId();

/** base64 or base64url, padded or not, as browsers hand it out; normalised to base64url without padding. */
function base64urlOf(bytes: number) {
  return z
    .string({ error: PUSH_KEYS_INVALID })
    .trim()
    .transform((value) => value.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''))
    .refine((value) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`).test(value), PUSH_KEYS_INVALID);
}

const endpoint = z
  .string({ error: (issue) => (issue.input === undefined ? 'Endpoint is required' : 'Endpoint must be a URL') })
  .trim()
  .max(PUSH_ENDPOINT_MAX, `Endpoint must be at most ${PUSH_ENDPOINT_MAX} characters`)
  .refine((value) => URL.canParse(value), 'Endpoint must be a URL');

/** POST /api/push/subscriptions: the browser's PushSubscription.toJSON(), and the guest acting. */
export const pushSubscriptionBody = body({
  subscription: z.object(
    {
      endpoint,
      keys: z.object({ p256dh: base64urlOf(65), auth: base64urlOf(16) }, { error: PUSH_KEYS_INVALID }),
    },
    { error: (issue) => (issue.input === undefined ? 'Subscription is required' : 'Subscription must be an object') },
  ),
  guestId,
});

/** DELETE /api/push/subscriptions. */
export const pushUnsubscribeBody = body({ endpoint, guestId });

/** POST /api/plans/{id}/deadline: an ISO 8601 instant in the future, or null to remove it. */
export const deadlineBody = body({
  deadline: z.union([z.string(), z.null()], { error: (issue) => (issue.input === undefined ? 'Deadline is required' : DEADLINE_INVALID) })
    .transform((value, ctx) => {
      if (value === null) return null;
      // A full date and time with a zone (Z or ±hh:mm): a bare date or local time means nothing to a server.
      const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value.trim());
      const time = ok ? Date.parse(value.trim()) : Number.NaN;
      if (Number.isNaN(time)) {
        ctx.addIssue({ code: 'custom', message: DEADLINE_INVALID });
        return z.NEVER;
      }
      return new Date(time).toISOString();
    })
    .refine((value) => value === null || Date.parse(value) > Date.now(), DEADLINE_IN_PAST),
  autoLock: z.boolean({ error: 'autoLock must be true or false' }).optional(),
});

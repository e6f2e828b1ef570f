import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { devicePushState, identityKey, type PushIdentity } from '../../lib/device-push';
import { notificationKeys } from '../../lib/query-keys';
import { planEmailsStateSchema } from '../../../../supabase/functions/_shared/contract/notifications';

export { notificationKeys };

/**
 * GET /api/unsubscribe/{token}: the plan an unsubscribe link is about and
 * whether its e-mails are on. It asks for JSON: a request that accepts HTML is
 * sent to this very page instead. A bad link or a deleted plan is a 404 with
 * the server's sentence.
 */
export function planEmailsQueryOptions(token: string) {
  return queryOptions({
    queryKey: notificationKeys.planEmails(token),
    queryFn: async ({ signal }) => {
      const res = await apiRequest('GET', apiPaths.unsubscribe(token), undefined, {
        headers: { Accept: 'application/json' },
        signal,
      });
      return planEmailsStateSchema.parse(await res.json());
    },
  });
}

/** Whether notifications are on for `identity` on this device (lib/device-push.ts); nothing is asked of the browser's permission. */
export function devicePushQueryOptions(identity: PushIdentity) {
  return queryOptions({
    queryKey: notificationKeys.device(identityKey(identity)),
    queryFn: () => devicePushState(identity),
  });
}

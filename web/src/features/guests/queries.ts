import { queryOptions } from '@tanstack/react-query';
import { isGuestSecretRefusal, REMOVED_FROM_PLAN } from '../../../../supabase/functions/_shared/contract/guest-secret';
import { ApiError } from '../../lib/api-error';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { guestKeys } from '../../lib/query-keys';
import { guestSessionReadSchema } from '../../../../supabase/functions/_shared/contract/guests';


/**
 * GET /api/guest-session/{id}: is the stored guest still a guest on the
 * server, does it still accept this device's secret (sent as a header), and
 * did another device continue as it since (`continuedAt`)?
 */
export function guestSessionQueryOptions(guestId: string) {
  return queryOptions({
    queryKey: guestKeys.session(guestId),
    queryFn: apiGet(apiPaths.guestSession(guestId), (body) => guestSessionReadSchema.parse(body)),
  });
}

/** The error of a guest that no longer exists (moved to an account, or left). */
export const isGuestGone = (error: unknown) => error instanceof Error && error.message.startsWith('404:');

/** The host removed the guest from its plan (docs/decisions/0083-removal-holds.md). */
export const isGuestRemoved = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.serverText === REMOVED_FROM_PLAN;

/** The server no longer takes this device's secret for the guest (or it had none): confirm the name again. */
export const isGuestSecretRefused = (error: unknown) =>
  error instanceof ApiError && isGuestSecretRefusal(error.status, error.serverText);

import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { guestKeys } from '../../lib/query-keys';
import { guestSessionSchema } from './schema';

export { guestKeys };

/** GET /api/guest-session/{id}: is the stored guest still a guest on the server? */
export function guestSessionQueryOptions(guestId: string) {
  return queryOptions({
    queryKey: guestKeys.session(guestId),
    queryFn: apiGet(apiPaths.guestSession(guestId), (body) => guestSessionSchema.parse(body)),
  });
}

/** The error of a guest that no longer exists (moved to an account, or left). */
export const isGuestGone = (error: unknown) => error instanceof Error && error.message.startsWith('404:');

import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { rsvpKeys } from '../../lib/query-keys';
import { rsvpsSchema } from '../../../../supabase/functions/_shared/contract/rsvps';

export { rsvpKeys };

/**
 * GET /api/plans/{id}/rsvps: the counts, the spots, everyone's answers and
 * `mine` (the token's user's, or `guestId`'s without a token). Cached by
 * version like every plan read; the live part `rsvps` refreshes it.
 */
export function rsvpsQueryOptions(planId: string, guestId: string | null | undefined) {
  return queryOptions({
    queryKey: rsvpKeys.list(planId, guestId),
    queryFn: apiGet(apiPaths.rsvps(planId, guestId), (body) => rsvpsSchema.parse(body)),
  });
}

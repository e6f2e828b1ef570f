import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { guestSessionSchema } from './schema';

// Keys are API paths: the default query function GETs the key joined by '/'.
export const guestKeys = {
  session: (guestId: string) => ['/api/guest-session', encodeURIComponent(guestId)] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** GET /api/guest-session/{id}: is the stored guest still a guest on the server? */
export function guestSessionQueryOptions(guestId: string) {
  return queryOptions({
    queryKey: guestKeys.session(guestId),
    queryFn: async (context) => guestSessionSchema.parse(await fetchJson(context)),
  });
}

/** The error of a guest that no longer exists (moved to an account, or left). */
export const isGuestGone = (error: unknown) => error instanceof Error && error.message.startsWith('404:');

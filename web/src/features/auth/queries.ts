import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { getAuthToken, removeAuthToken } from '../../lib/auth-token';
import { userSchema, type User } from './schema';

// Keys are API paths: the default query function GETs the key joined by '/'.
export const authKeys = {
  me: () => ['/api/auth/me'] as const,
};

const fetchMe = getQueryFn<unknown>({ on401: 'returnNull' });

export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: async (context): Promise<User | null> => {
      const data = await fetchMe(context);
      if (data === null) {
        // The stored token was refused (expired or revoked): drop it so later
        // calls go out as a visitor or guest instead of failing with 401.
        if (getAuthToken()) removeAuthToken();
        return null;
      }
      return userSchema.parse(data);
    },
    // Spec §7: a 401 is "signed out", not a failure; never retried.
    retry: false,
  });
}

/** The signed-in user, null when signed out, undefined while loading. */
export function useCurrentUser() {
  return useQuery(meQueryOptions());
}

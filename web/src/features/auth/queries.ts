import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getAuthToken, removeAuthToken } from '../../lib/auth-token';
import { authKeys } from '../../lib/query-keys';
import { type User, userSchema } from '../../../../supabase/functions/_shared/contract/auth';

export { authKeys };

const fetchMe = apiGet(apiPaths.me(), (body) => userSchema.parse(body), { on401: 'returnNull' });

function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: async (context): Promise<User | null> => {
      // No token, no session: signed out without asking (the server would only
      // answer 401, which the browser logs as an error on every first visit).
      if (!getAuthToken()) return null;
      const user = await fetchMe(context);
      // The stored token was refused (expired or revoked): drop it so later
      // calls go out as a visitor or guest instead of failing with 401.
      if (user === null && getAuthToken()) removeAuthToken();
      return user;
    },
    // Without a token the answer is known at once: signed out, no splash.
    initialData: () => (getAuthToken() ? undefined : null),
    // Spec §7: a 401 is "signed out", not a failure; never retried.
    retry: false,
  });
}

/** The signed-in user, null when signed out, undefined while loading. */
export function useCurrentUser() {
  return useQuery(meQueryOptions());
}

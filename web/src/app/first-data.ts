import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { paths } from '../config/paths';
import { planBySlugQueryOptions } from '../features/plans/queries';
import { getAuthToken } from '../lib/auth-token';

/**
 * Puts the data the starting page shows into the cache before the app's
 * first render: a plan's join page, signed out (the page people arrive on
 * from a shared link). Until then the static shell of public/shell.js is on
 * screen: the join page loading its plan, and once the plan has come, the
 * join page with it. public/shell.js has already asked for the plan, and
 * this request takes that answer over (lib/early-answer.ts). The first
 * render is then the page itself, rendered in slices as a transition
 * (main.tsx), instead of a loading state followed by a second, blocking
 * render when the data comes. Resolves once the data is in (or failed: the
 * page shows the error), and after `waitAtMostMs` whatever happened.
 */
export function loadFirstData(
  queryClient: QueryClient,
  pathname: string,
  { signedIn = getAuthToken() !== null, waitAtMostMs = 3000 } = {},
): Promise<void> {
  const slug = signedIn ? undefined : matchPath(paths.join.path, pathname)?.params.slug;
  if (!slug) return Promise.resolve();
  return Promise.race([
    queryClient.prefetchQuery(planBySlugQueryOptions(slug)),
    new Promise<void>((resolve) => setTimeout(resolve, waitAtMostMs)),
  ]);
}

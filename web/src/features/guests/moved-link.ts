// The host reset the plan's link (docs/decisions/0087-resetting-a-plans-link.md):
// the old /l/{slug} answers "Plan not found". A guest of that plan on this
// device keeps its access (its credential is per guest, not per link), and
// its stored session remembers the link it last knew; so when that link is
// gone, the guest's own session (GET /api/guest-session/{id}, which answers
// the plan's link as it is now) says where the plan went, and the page
// moves there. Everyone else meets "Plan not found", as for any dead link.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useGuestSession } from '../../lib/guest-storage';
import { guestSessionQueryOptions } from './queries';

/** The same page under the plan's new link: /l/{old}/ideas → /l/{new}/ideas. */
export function movedPath(pathname: string, from: string, to: string): string {
  const prefix = paths.join.getHref(from);
  return pathname === prefix || pathname.startsWith(`${prefix}/`) ? `${paths.join.getHref(to)}${pathname.slice(prefix.length)}` : paths.join.getHref(to);
}

/**
 * Where the page of the link `slug` moved to, once its plan read answered 404
 * (`gone`): the path under the plan's current link when this device holds a
 * guest session of that link's plan; 'checking' while its session is asked;
 * null otherwise (the page shows "Plan not found").
 */
export function useMovedLink(slug: string, gone: boolean): string | 'checking' | null {
  const stored = useGuestSession();
  const { pathname, search, hash } = useLocation();
  const queryClient = useQueryClient();
  const [found, setFound] = useState<{ from: string; to: string | null } | null>(null);
  const guestId = gone && stored?.secret && (stored.slug === slug || found?.from === slug) ? stored.id : null;

  useEffect(() => {
    if (!guestId) return;
    let current = true;
    // Asked afresh: a copy read before the reset still names the old link.
    queryClient
      .fetchQuery({ ...guestSessionQueryOptions(guestId), staleTime: 0 })
      .then((session) => {
        if (!current) return;
        // The stored session learns the new link on the page it moves to
        // (RequirePlanVisitor notes what the guest's session answers).
        setFound({ from: slug, to: session.planSlug ?? null });
      })
      .catch(() => current && setFound({ from: slug, to: null }));
    return () => {
      current = false;
    };
  }, [guestId, slug, queryClient]);

  if (!guestId) return null;
  if (found?.from !== slug) return 'checking';
  if (!found.to || found.to === slug) return null;
  return `${movedPath(pathname, slug, found.to)}${search}${hash}`;
}

import { useEffect, type ComponentType, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { clearGuest, forgetGuestSecret, markGuestPlanLink, markGuestRemoved, useGuestSession } from '../../../lib/guest-storage';
import { usePlanLiveUpdates } from '../../../lib/live';
import { LoadingPlan } from '../../plans';
import { isPlanGone } from '../../plans';
import { planBySlugQueryOptions } from '../../plans';
import type { LinkedPlan } from '../../plans';
import { ContinuedElsewhereNotice } from '../continued-notice';
import { useMovedLink } from '../moved-link';
import { guestSessionQueryOptions, isGuestGone, isGuestRemoved, isGuestSecretRefused } from '../queries';
import { usePlanVisitor, type PlanVisitor } from '../visitor';
import { PublicLayout } from './public-layout';
import { PublicPlanState } from './public-plan-state';

interface RequirePlanVisitorProps {
  /** The plan's slug, from the route (/l/:slug/...). */
  slug: string;
  /** The page, once the plan is loaded and the visitor may see it. */
  children: (context: { plan: LinkedPlan; visitor: PlanVisitor }) => ReactNode;
  /** Frames the loading, not-found and error states; the public layout by default. */
  layout?: ComponentType<{ children: ReactNode }>;
}

/**
 * Guard of the /l/{slug}/... pages (spec §6): visitors with neither a user nor
 * a guest session of this plan go to the join page /l/{slug}. Without any
 * stored guest session that is decided at once; with one, after the plan is
 * loaded (the session names the plan by id, the URL by slug).
 *
 * A guest session of this plan without its device secret (stored before
 * secrets existed, or refused by the server) counts as no visitor: the join
 * page then asks "Is this you?" for that name, which restores the session
 * with a new secret (docs/auth-and-guests.md "Guests").
 */
export function RequirePlanVisitor({ slug, children, layout: Layout = PublicLayout }: RequirePlanVisitorProps) {
  const storedGuest = useGuestSession();
  const planQuery = useQuery(planBySlugQueryOptions(slug));
  const visitor = usePlanVisitor(planQuery.data?.id);
  // A stored guest may be gone on the server (moved to an account in another
  // tab, or left the plan) or removed by the host: forget it, so the visitor
  // is asked to join again (or told it was removed) instead of meeting
  // failing writes.
  const guestCheck = useQuery({
    ...guestSessionQueryOptions(visitor?.guestId ?? ''),
    enabled: visitor?.kind === 'guest',
  });
  // The /l/{slug} pages behind this guard (dashboard, ideas, availability) follow the plan live.
  usePlanLiveUpdates(visitor ? planQuery.data : undefined);
  const guestGone = isGuestGone(guestCheck.error);
  const guestRemoved = isGuestRemoved(guestCheck.error);
  const secretRefused = isGuestSecretRefused(guestCheck.error);
  useEffect(() => {
    if (guestGone) clearGuest();
    else if (guestRemoved) markGuestRemoved();
    else if (secretRefused) forgetGuestSecret();
  }, [guestGone, guestRemoved, secretRefused]);
  // The plan's link as it is now, kept with the session: if the host resets
  // it, this device finds the plan again from the link it knew (moved-link.ts).
  const guestId = visitor?.kind === 'guest' ? visitor.guestId : undefined;
  const currentLink = guestCheck.data?.planSlug;
  useEffect(() => {
    if (guestId && currentLink) markGuestPlanLink(guestId, currentLink);
  }, [guestId, currentLink]);
  const moved = useMovedLink(slug, isPlanGone(planQuery.error));
  const joinPage = <Navigate to={paths.join.getHref(slug)} replace />;

  if (visitor === undefined) {
    return (
      <Layout>
        <LoadingPlan />
      </Layout>
    );
  }
  if (visitor === null && !storedGuest) return joinPage;
  if (moved && moved !== 'checking') return <Navigate to={moved} replace />;
  if (moved === 'checking') {
    return (
      <Layout>
        <LoadingPlan />
      </Layout>
    );
  }
  // A plan already shown stays shown when a background refetch fails (but not when it is gone).
  if (planQuery.data === undefined || isPlanGone(planQuery.error)) {
    return (
      <Layout>
        <PublicPlanState query={planQuery}>{() => null}</PublicPlanState>
      </Layout>
    );
  }
  if (visitor === null) return joinPage;
  return (
    <>
      {children({ plan: planQuery.data, visitor })}
      {/* Another device continued as this guest by name (decision 0064). */}
      {visitor.kind === 'guest' && (
        <ContinuedElsewhereNotice guest={{ id: visitor.guestId, name: visitor.name }} continuedAt={guestCheck.data?.continuedAt} />
      )}
    </>
  );
}

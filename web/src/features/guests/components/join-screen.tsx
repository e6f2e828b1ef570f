import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useGuestSession } from '../../../lib/guest-storage';
import { usePlanLiveUpdates } from '../../../lib/live';
import { useCurrentUser } from '../../auth';
import { isPlanGone, LoadingPlan, planBySlugQueryOptions } from '../../plans';
import { useMovedLink } from '../moved-link';
import type { LinkedPlan } from '../../plans';
import { GuestJoin } from './guest-join';
import { JoinPlanSummary } from './join-plan-summary';
import { PublicLayout } from './public-layout';
import { PublicPlanState } from './public-plan-state';
import { SignedInJoin } from './signed-in-join';

function JoinPlan({ plan }: { plan: LinkedPlan }) {
  const { data: user } = useCurrentUser();
  const guest = useGuestSession();
  const storedGuest = !user && guest?.planId === plan.id ? guest : null;
  // A token wins over a stored guest session, as on the server.
  if (storedGuest?.secret) return <Navigate to={paths.guestDashboard.getHref(plan.slug)} replace />;
  return (
    <Stack gap="lg">
      <JoinPlanSummary plan={plan} />
      {user ? (
        <SignedInJoin plan={plan} user={user} />
      ) : (
        // A session of this plan without its secret: "Is this you?" for that name.
        <GuestJoin plan={plan} restoreName={storedGuest?.name} />
      )}
    </Stack>
  );
}

/** /l/{slug}: the public join page (spec §2 Join). */
export function JoinScreen() {
  const { slug = '' } = useParams();
  const planQuery = useQuery(planBySlugQueryOptions(slug));
  // Who has joined so far, and a plan deleted meanwhile, show without a reload.
  usePlanLiveUpdates(planQuery.data);
  // A guest of this device's plan whose link the host reset goes to the new one.
  const moved = useMovedLink(slug, isPlanGone(planQuery.error));
  if (moved && moved !== 'checking') return <Navigate to={moved} replace />;
  if (moved === 'checking') {
    return (
      <PublicLayout>
        <LoadingPlan />
      </PublicLayout>
    );
  }
  return (
    <PublicLayout>
      <PublicPlanState query={planQuery}>{(plan) => <JoinPlan plan={plan} />}</PublicPlanState>
    </PublicLayout>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { usePlanLiveUpdates } from '../../../lib/live';
import { useCurrentUser } from '../../auth';
import { canInvite, isPlanHost } from '../plan-access';
import { planDetailQueryOptions } from '../queries';
import { InviteNotAllowed } from './invite-not-allowed';
import { LoadingPlan } from './loading-plan';
import { PlanLoadState } from './plan-load-state';
import { SharePlan } from './share-plan';

/** /plan/{id}/share (spec §2 Share Plan). */
export function ShareScreen() {
  const { id = '' } = useParams();
  const planQuery = useQuery(planDetailQueryOptions(id));
  const { data: user } = useCurrentUser();
  usePlanLiveUpdates(planQuery.data);

  return (
    <AppLayout logoTo={paths.home.getHref()}>
      <PlanLoadState query={planQuery} loading={<LoadingPlan />}>
        {(plan) =>
          canInvite(plan, user?.id) ? (
            <SharePlan plan={plan} sender={user} isHost={isPlanHost(plan, user?.id)} />
          ) : (
            <InviteNotAllowed plan={plan} />
          )
        }
      </PlanLoadState>
    </AppLayout>
  );
}

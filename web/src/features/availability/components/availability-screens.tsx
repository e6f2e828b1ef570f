import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { LoadingPlan } from '../../plans';
import { PlanLoadState } from '../../plans';
import { usePlanRole, type Plan } from '../../plans';
import { planDetailQueryOptions } from '../../plans';
import { usePlanLiveUpdates } from '../../../lib/live';
import { useCurrentUser } from '../../auth';
import { PublicLayout } from '../../guests';
import { RequirePlanVisitor } from '../../guests';
import { AvailabilityPage } from './availability-page';

/** The availability page with the host's controls for the host and co-hosts (docs/decisions/0098-cohosts.md). */
function MemberAvailabilityPage({ userId, ...props }: Omit<Parameters<typeof AvailabilityPage>[0], 'isHost'> & { plan: Plan; userId: string | undefined }) {
  const { runsPlan } = usePlanRole(props.plan, userId);
  return <AvailabilityPage {...props} isHost={runsPlan} />;
}

/** /plan/{id}/availability: signed in (the route's guard), host controls for the host. */
export function PlanAvailabilityScreen() {
  const { id = '' } = useParams();
  const planQuery = useQuery(planDetailQueryOptions(id));
  const { data: user } = useCurrentUser();
  usePlanLiveUpdates(planQuery.data);
  return (
    <AppLayout logoTo={paths.home.getHref()}>
      <PlanLoadState query={planQuery} loading={<LoadingPlan />}>
        {(plan) => (
          <MemberAvailabilityPage
            plan={plan}
            userId={user?.id}
            planHref={paths.plan.getHref(plan.id)}
            ideasHref={paths.planIdeas.getHref(plan.id)}
            selfHref={paths.planAvailability.getHref(plan.id)}
            signedIn
          />
        )}
      </PlanLoadState>
    </AppLayout>
  );
}

/**
 * /l/{slug}/availability: a member or this plan's guest (others go to the join
 * page). Spec §6: unlike the other /l/ routes, a signed-in host is the host here.
 */
export function GuestAvailabilityScreen() {
  const { slug = '' } = useParams();
  return (
    <RequirePlanVisitor slug={slug}>
      {({ plan, visitor }) => (
        <PublicLayout>
          <MemberAvailabilityPage
            plan={plan}
            userId={visitor.kind === 'member' ? visitor.userId : undefined}
            planHref={paths.join.getHref(plan.slug)}
            ideasHref={paths.guestIdeas.getHref(plan.slug)}
            selfHref={paths.guestAvailability.getHref(plan.slug)}
            signedIn={visitor.kind === 'member'}
          />
        </PublicLayout>
      )}
    </RequirePlanVisitor>
  );
}

import { Suspense } from 'react';
import { Button, Card, Group, Skeleton, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { IconUserPlus } from '../../../components/icons';
import { displayName } from '../../../lib/display-name';
import { usePlanLiveUpdates } from '../../../lib/live';
import { useCurrentUser } from '../../auth';
import { LazyAddToCalendarMenu, canAddToCalendar } from '../../calendar';
import { canInvite } from '../plan-access';
import { planDetailQueryOptions } from '../queries';
import { PlanDetail } from './plan-detail';
import { PlanLoadState } from './plan-load-state';
import type { PlanTabComponents } from './plan-tabs';

function PlanDetailSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-label="Loading plan...">
      <Skeleton h={32} w="70%" aria-hidden="true" />
      {[180, 96, 220].map((height) => (
        <Card key={height} withBorder radius="lg" padding="lg" aria-hidden="true">
          <Skeleton h={height - 40} />
        </Card>
      ))}
    </Stack>
  );
}

/**
 * /plan/{id} (spec §2 Plan detail). The tab panels come from the app layer,
 * which owns the ideas and availability features (imports flow one way).
 */
export function PlanScreen({ tabs }: { tabs: PlanTabComponents }) {
  const { id = '' } = useParams();
  const planQuery = useQuery(planDetailQueryOptions(id));
  const { data: user } = useCurrentUser();
  const plan = planQuery.data;
  // Both tabs, the status card and who's coming follow the group live.
  usePlanLiveUpdates(plan);

  const invite =
    plan && canInvite(plan, user?.id) ? (
      <Button
        component={Link}
        to={paths.planShare.getHref(plan.id)}
        variant="light"
        radius="xl"
        leftSection={<IconUserPlus size={18} />}
      >
        Invite
      </Button>
    ) : null;

  const calendar =
    plan && canAddToCalendar(plan) ? (
      <Suspense fallback={null}>
        <LazyAddToCalendarMenu plan={plan} />
      </Suspense>
    ) : null;

  return (
    <AppLayout
      logoTo={paths.home.getHref()}
      headerRight={
        calendar || invite ? (
          <Group gap={4} wrap="nowrap">
            {calendar}
            {invite}
          </Group>
        ) : null
      }
    >
      <PlanLoadState query={planQuery} loading={<PlanDetailSkeleton />}>
        {(loaded) => <PlanDetail plan={loaded} userId={user?.id} userName={user ? displayName(user) : undefined} tabs={tabs} />}
      </PlanLoadState>
    </AppLayout>
  );
}

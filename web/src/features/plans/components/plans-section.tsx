import { useMemo } from 'react';
import { Alert, Button, Card, Skeleton, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMyPlansLiveUpdates } from '../../../lib/live';
import { planListQueryOptions } from '../queries';
import { PlanList } from './plan-list';
import { PlansEmptyState } from './plans-empty-state';

/** Card-shaped placeholders, so the list does not jump in when it arrives. */
function PlanListSkeleton() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading your plans">
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder radius="lg" padding="md" aria-hidden="true">
          <Stack gap={10}>
            <Skeleton h={20} w="60%" />
            <Skeleton h={14} w="40%" />
            <Skeleton h={14} w="75%" />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

export function PlansSection() {
  const { data: plans, isPending, isError, refetch, isRefetching } = useQuery(planListQueryOptions());
  // Every card follows its plan live; the list refetches when one changes.
  useMyPlansLiveUpdates(useMemo(() => plans?.map((plan) => plan.id), [plans]));

  if (plans) return plans.length === 0 ? <PlansEmptyState /> : <PlanList plans={plans} />;
  if (isPending) return <PlanListSkeleton />;
  if (isError) {
    return (
      <Alert color="red" title="Couldn't load your plans">
        <Button mt="sm" variant="light" color="red" onClick={() => refetch()} disabled={isRefetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  return <PlanListSkeleton />;
}

import { Alert, Button, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { planListQueryOptions } from '../queries';
import { PlanList } from './plan-list';
import { PlansEmptyState } from './plans-empty-state';

export function PlansSection() {
  const { data: plans, isPending, isError, refetch, isRefetching } = useQuery(planListQueryOptions());

  if (isPending) {
    return (
      <Center py="xl" role="status" aria-label="Loading your plans">
        <Loader />
      </Center>
    );
  }
  if (isError) {
    return (
      <Alert color="red" title="Couldn't load your plans">
        <Button mt="sm" variant="light" color="red" onClick={() => refetch()} disabled={isRefetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  return plans.length === 0 ? <PlansEmptyState /> : <PlanList plans={plans} />;
}

import type { ReactNode } from 'react';
import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-error';
import { LoadingPlan } from '../../plans/components/loading-plan';
import type { Plan } from '../../plans/schema';

/**
 * Spec §2 Join: a missing plan. Unlike the signed-in pages' card, 'Go Home'
 * leads to / (the landing page, or home for a signed-in visitor).
 */
export function PublicPlanNotFound() {
  return (
    <Card withBorder radius="lg" padding="xl" mt="xl">
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz="h3">
          Plan not found
        </Title>
        <Text c="dimmed">This plan may have been deleted or the link is invalid.</Text>
        <Button component={Link} to={paths.landing.getHref()} mt="xs">
          Go Home
        </Button>
      </Stack>
    </Card>
  );
}

interface PublicPlanStateProps {
  query: UseQueryResult<Plan>;
  children: (plan: Plan) => ReactNode;
}

/** The plan a public link names: loading, not found (404), a retry on other failures, or the plan. */
export function PublicPlanState({ query, children }: PublicPlanStateProps) {
  if (query.isPending) return <LoadingPlan />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <PublicPlanNotFound />;
    return (
      <Alert color="red" title="Couldn't load this plan" mt="md">
        <Button mt="sm" variant="light" color="red" onClick={() => query.refetch()} disabled={query.isRefetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  return children(query.data);
}

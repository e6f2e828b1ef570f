import type { ReactNode } from 'react';
import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { NeedsNetwork } from '../../../components/needs-network';
import { ApiError, isNetworkFailure } from '../../../lib/api-error';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

/**
 * Spec §8: a missing plan shows the not-found screen. 'Go Home' leads to /home
 * on signed-in pages; public link pages pass `/` (landing, or home when signed in).
 */
function PlanNotFound({ homeHref = paths.home.getHref() }: { homeHref?: string }) {
  return (
    <Card withBorder radius="lg" padding="xl" mt="xl">
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz="h3">
          Plan not found
        </Title>
        <Text c="dimmed">This plan may have been deleted or the link is invalid.</Text>
        <Button component={Link} to={homeHref} mt="xs">
          Go Home
        </Button>
      </Stack>
    </Card>
  );
}

interface PlanLoadStateProps<P extends Plan> {
  query: UseQueryResult<P>;
  loading: ReactNode;
  children: (plan: P) => ReactNode;
  /** Where the not-found card's 'Go Home' leads. */
  homeHref?: string;
}

/** The plan's read answered 404: it was deleted, or never existed. */
export const isPlanGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * Loading, not found (404), other failures with a retry, or the plan. A plan
 * already shown stays shown when a background refetch (a live update) fails
 * for another reason, so nothing the visitor is typing is lost.
 */
export function PlanLoadState<P extends Plan>({ query, loading, children, homeHref }: PlanLoadStateProps<P>) {
  if (isPlanGone(query.error)) return <PlanNotFound homeHref={homeHref} />;
  if (query.data !== undefined) return children(query.data);
  if (query.isPending) return loading;
  if (query.isError && isNetworkFailure(query.error)) return <NeedsNetwork retry={query.refetch} />;
  if (query.isError) {
    return (
      <Alert color="red" title="Couldn't load this plan" mt="md">
        <Button mt="sm" variant="light" color="red" onClick={() => query.refetch()} disabled={query.isRefetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  return loading;
}

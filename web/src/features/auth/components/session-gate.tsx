import { Suspense } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { CenteredCard } from '../../../components/centered-card';
import { PageLoader } from '../../../components/page-loader';
import { Splash } from '../../../components/splash';
import { useRetryUntilOnline } from '../../../components/needs-network';
import { isNetworkFailure, OFFLINE_PAGE } from '../../../lib/api-error';
import { useCurrentUser } from '../queries';

/**
 * Root layout route: every screen knows whether someone is signed in before it
 * renders, so none flashes the wrong state (spec §2: the splash while loading).
 */
export function SessionGate() {
  const { isPending, isError, error, refetch, isRefetching } = useCurrentUser();
  if (isPending) return <Splash />;
  // No network, and no answer saved on this device: it loads by itself once there is one.
  if (isError && isNetworkFailure(error)) {
    return (
      <CenteredCard>
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} fz="h3">
            You're offline
          </Title>
          <Text c="dimmed">{OFFLINE_PAGE}</Text>
          <RetryUntilOnline retry={refetch} />
        </Stack>
      </CenteredCard>
    );
  }
  if (isError) {
    // Not a 401 (that is "signed out"): the API is unreachable or broken.
    return (
      <CenteredCard>
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} fz="h3">
            Can't reach Hangplan
          </Title>
          <Text c="dimmed">Check your connection and try again.</Text>
          <Button onClick={() => refetch()} disabled={isRefetching}>
            {isRefetching ? 'Retrying...' : 'Try again'}
          </Button>
        </Stack>
      </CenteredCard>
    );
  }
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

function RetryUntilOnline({ retry }: { retry: () => unknown }) {
  useRetryUntilOnline(retry);
  return null;
}

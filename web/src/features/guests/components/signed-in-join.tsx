import { useCallback, useEffect, useRef } from 'react';
import { Button, Card, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { User } from '../../auth';
import type { LinkedPlan } from '../../plans';
import { accountName } from '../account-name';
import { useJoinPlan } from '../mutations';

/**
 * Spec §2 Join, signed in: joined automatically, once per visit, then on to
 * the plan page. 'Join Plan' shows 'Joining...' meanwhile and retries after a
 * failure (whose toast says why).
 */
export function SignedInJoin({ plan, user }: { plan: LinkedPlan; user: User }) {
  const navigate = useNavigate();
  const { mutate, isPending, isSuccess } = useJoinPlan(plan);
  const name = accountName(user);
  const attempted = useRef<string | null>(null);

  const join = useCallback(
    () =>
      mutate(
        { name, userId: user.id },
        { onSuccess: () => navigate(paths.plan.getHref(plan.id), { replace: true }) },
      ),
    [mutate, navigate, name, user.id, plan.id],
  );

  // Once per plan and user, also under StrictMode's double effects.
  useEffect(() => {
    const visit = `${plan.id} ${user.id}`;
    if (attempted.current === visit) return;
    attempted.current = visit;
    join();
  }, [plan.id, user.id, join]);

  const busy = isPending || isSuccess;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap="md">
        <Text>
          You're signed in as{' '}
          <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        </Text>
        <Button size="md" fullWidth onClick={join} disabled={busy}>
          {busy ? 'Joining...' : 'Join Plan'}
        </Button>
      </Stack>
    </Card>
  );
}

import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

/** docs/api.md "Plans": without open invitations only the host shares. */
export function InviteNotAllowed({ plan }: { plan: Plan }) {
  return (
    <Card withBorder radius="lg" padding="xl" mt="md">
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz="h3">
          {plan.title}
        </Title>
        <Text>Only the host can invite people to this plan</Text>
        <Button component={Link} to={paths.plan.getHref(plan.id)} variant="light" mt="xs">
          View Plan Details
        </Button>
      </Stack>
    </Card>
  );
}

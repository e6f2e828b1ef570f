import { Card, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { PlanSummary } from '../schema';

// Minimal until the plans issue: title and locked idea ('TBD' when none).
// Locked time and participant names (spec §2 Home) come with the plan card.
export function PlanList({ plans }: { plans: PlanSummary[] }) {
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {plans.map((plan) => (
        <li key={plan.id}>
          <UnstyledButton component={Link} to={paths.plan.getHref(plan.id)} display="block" w="100%">
            <Card withBorder radius="lg" padding="md">
              <Text fw={700}>{plan.title}</Text>
              <Text c="dimmed" fz="sm">
                {plan.lockedIdeaText ?? 'TBD'}
              </Text>
            </Card>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}

import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '../../plans';
import { planPhaseLabel } from '../plan-phase';
import { colors } from '../../../lib/colors';

/** Spec §2 Join: 'Join the Plan', the plan's title, its description and phase. */
export function JoinPlanSummary({ plan }: { plan: Plan }) {
  const phase = planPhaseLabel(plan.status);
  const color = phase === 'Active' ? 'teal' : phase === 'Cancelled' ? 'red' : 'violet';
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="join-plan-title">
      <Stack gap="xs">
        <Text fz="sm" fw={700} c={colors.accentText} tt="uppercase">
          Join the Plan
        </Text>
        <Title id="join-plan-title" order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
          {plan.title}
        </Title>
        {plan.description && (
          <Text c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {plan.description}
          </Text>
        )}
        <Group gap="xs">
          {/* Shade 9 text: the light variant's default shade misses AA contrast. */}
          <Badge variant="light" color={color} size="lg" radius="sm">
            {phase}
          </Badge>
        </Group>
      </Stack>
    </Card>
  );
}

import type { ReactNode } from 'react';
import { Badge, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { IconBulb, IconCalendar, IconCheck, IconUsers } from '../../../components/icons';
import { answersOpen, goingLine } from '../../rsvps';
import { summarizeNames } from '../../../lib/overflow';
import { isPlanCancelled } from '../plan-access';
import { formatCardTime } from '../plan-time';
import type { PlanSummary } from '../../../../../supabase/functions/_shared/contract/plans';

/** Spec §9: a card shows at most 6 participant names, then '+N'. */
const PLAN_CARD_MAX_NAMES = 6;

function Line({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={8} wrap="nowrap" c="dimmed">
      {/* Fixed size: a long truncated line must not squeeze the icon. */}
      <span style={{ display: 'flex', flexShrink: 0 }}>{icon}</span>
      {children}
    </Group>
  );
}

/** One plan on the home screen; the whole card opens the plan (spec §2 Home). */
export function PlanCard({ plan }: { plan: PlanSummary }) {
  const time = formatCardTime(plan);
  const names = plan.participants.map((participant) => participant.name);

  return (
    <UnstyledButton component={Link} to={paths.plan.getHref(plan.id)} display="block" w="100%" style={{ borderRadius: 'var(--mantine-radius-lg)' }}>
      <Card withBorder radius="lg" padding="md">
        <Stack gap={6}>
          <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={700} fz="lg" lineClamp={2}>
              {plan.title}
            </Text>
            {/* docs/decisions/0100-cancelling-a-plan.md */}
            {isPlanCancelled(plan) && (
              <Badge color="red" variant="light" tt="none" style={{ flexShrink: 0 }}>
                Cancelled
              </Badge>
            )}
          </Group>
          <Line icon={<IconBulb size={16} />}>
            <Text fz="sm" c="var(--mantine-color-text)" lineClamp={1}>
              {plan.lockedIdeaText ?? 'TBD'}
            </Text>
          </Line>
          {time && (
            <Line icon={<IconCalendar size={16} />}>
              <Text fz="sm" c="var(--mantine-color-text)">
                {time}
              </Text>
            </Line>
          )}
          {/* A set plan says who is going; a cancelled one does not (docs/decisions/0103). */}
          {plan.answers && answersOpen(plan) && (
            <Line icon={<IconCheck size={16} />}>
              <Text fz="sm" c="var(--mantine-color-text)">
                {goingLine(plan.answers)}
              </Text>
            </Line>
          )}
          {names.length > 0 && (
            <Line icon={<IconUsers size={16} />}>
              <Text fz="sm" c="dimmed" truncate title={names.join(', ')}>
                {summarizeNames(names, PLAN_CARD_MAX_NAMES)}
              </Text>
            </Line>
          )}
        </Stack>
      </Card>
    </UnstyledButton>
  );
}

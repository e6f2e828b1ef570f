import { Suspense } from 'react';
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { HostTimeNote } from '../../../components/host-time-note';
import { IconCheck, IconClock } from '../../../components/icons';
import { formatLongDate } from '../../../lib/local-date';
import { formatPeriod } from '../../../lib/shared-periods';
import { LazyAddToCalendarMenu } from '../../calendar';
import type { Plan } from '../../plans';
import { colors } from '../../../lib/colors';

/** The plan's final time, when its status is completed with a locked slot (spec §2, §4). */
export function confirmedTime(plan: Pick<Plan, 'status' | 'lockedTimeSlot'>): { date: string; period: string } | null {
  if (plan.status !== 'completed' || !plan.lockedTimeSlot) return null;
  return { date: formatLongDate(plan.lockedTimeSlot.date), period: formatPeriod(plan.lockedTimeSlot.period) };
}

const when = ({ date, period }: { date: string; period: string }) => (period ? `${date} at ${period}` : date);

function CalendarButton({ plan }: { plan: Plan }) {
  return (
    <Suspense fallback={null}>
      <LazyAddToCalendarMenu plan={plan} variant="button" />
    </Suspense>
  );
}

/** The guest dashboard's and plan tab's card (spec §2 Guest dashboard, Availability tab). */
export function EventTimeConfirmedCard({ plan }: { plan: Plan }) {
  const time = confirmedTime(plan);
  if (!time) return null;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="event-time-confirmed" bg={colors.success}>
      <Stack align="center" ta="center" gap="xs">
        <ThemeIcon color="teal" size={48} radius="xl" aria-hidden="true">
          <IconCheck size={26} />
        </ThemeIcon>
        <Title id="event-time-confirmed" order={2} fz="h3">
          Event Time Confirmed!
        </Title>
        <Text fw={700}>{time.date}</Text>
        {time.period && (
          <Text fw={700} c={colors.successText}>
            {time.period}
          </Text>
        )}
        <HostTimeNote plan={plan} />
        <Text c="dimmed" fz="sm">
          The host has set the final event time. See you there!
        </Text>
        <CalendarButton plan={plan} />
      </Stack>
    </Card>
  );
}

/** The availability page once the time is set (spec §2 Availability page). */
export function EventConfirmedPanel({ plan, backTo }: { plan: Plan; backTo: string }) {
  const time = confirmedTime(plan);
  if (!time) return null;
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        Event Confirmed
      </Title>
      <Card withBorder radius="lg" padding="lg" bg={colors.success}>
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon color="teal" size={56} radius="xl" aria-hidden="true">
            <IconCheck size={30} />
          </ThemeIcon>
          <Title order={2} fz="h3">
            Time Set!
          </Title>
          <Text fw={600}>See you on {when(time)}!</Text>
          <HostTimeNote plan={plan} />
          <Group gap={6} c="dimmed" justify="center">
            <IconClock size={16} />
            <Text fz="sm">Final time confirmed by host</Text>
          </Group>
          <CalendarButton plan={plan} />
        </Stack>
      </Card>
      <Button component={Link} to={backTo} size="md" radius="xl" fullWidth>
        Back to Plan
      </Button>
    </Stack>
  );
}

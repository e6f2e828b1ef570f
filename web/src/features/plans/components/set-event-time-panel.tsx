import { useId, useState } from 'react';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconClock } from '../../../components/icons';
import { formatLongDate } from '../../../lib/local-date';
import { to12HourTime } from '../../../lib/shared-periods';
import { showSuccessToast } from '../../../lib/toast';
import { useSetEventTime, useUnlockPlan } from '../host-mutations';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { colors } from '../../../lib/colors';

/**
 * Spec §2: the host's panel once a date is locked (status time_range_locked;
 * date_locked reads the same, docs/api.md "Time slots and the lock flow"). The native time input gives
 * 'HH:mm', which is sent as is; it is shown back in 12-hour form ('7:30 PM').
 */
export function shouldShowSetEventTime(plan: Pick<Plan, 'status' | 'lockedTimeSlotDate'>, isHost: boolean): boolean {
  return isHost && Boolean(plan.lockedTimeSlotDate) && (plan.status === 'time_range_locked' || plan.status === 'date_locked');
}

export function SetEventTimePanel({ plan }: { plan: Plan }) {
  const [time, setTime] = useState('');
  const hintId = useId();
  const date = formatLongDate(plan.lockedTimeSlotDate ?? '');
  const setEventTime = useSetEventTime(plan.id, () => {
    showSuccessToast('Event time set!', 'All participants have been notified of the final event time.');
    setTime('');
  });
  const unlock = useUnlockPlan(plan.id);
  const display = to12HourTime(time);

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="set-event-time-title" bg={colors.tint}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (time) setEventTime.mutate(time);
        }}
      >
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap">
            <IconClock size={20} />
            <Title id="set-event-time-title" order={2} fz="h4">
              Set Event Time
            </Title>
          </Group>
          <Text fw={700}>{date}</Text>
          <TextInput
            type="time"
            label="Event time"
            value={time}
            onChange={(event) => setTime(event.currentTarget.value)}
            aria-describedby={display ? hintId : undefined}
            size="md"
          />
          {display && (
            <Text id={hintId} fz="sm" c="dimmed">
              Everyone will see {display}.
            </Text>
          )}
          <Group grow gap="sm">
            <Button variant="default" onClick={() => unlock.mutate()} loading={unlock.isPending} disabled={setEventTime.isPending}>
              Change Date
            </Button>
            <Button type="submit" disabled={!time || unlock.isPending} loading={setEventTime.isPending}>
              Set Time
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

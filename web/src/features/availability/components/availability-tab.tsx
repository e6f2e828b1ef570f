import { Card, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCalendar } from '../../../components/icons';

interface AvailabilityTabProps {
  planId: string;
  isHost: boolean;
}

/**
 * PLACEHOLDER: the plan page's Availability tab. The availability issue
 * replaces this body (date voting, host 'Pick Date', 'Final Time Set'; spec §2).
 */
export function AvailabilityTab(_props: AvailabilityTabProps) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack align="center" ta="center" gap="xs">
        <ThemeIcon variant="light" size={44} radius="xl" aria-hidden="true">
          <IconCalendar size={22} />
        </ThemeIcon>
        <Text fw={600}>Availability is coming soon</Text>
        <Text c="dimmed" fz="sm">
          Soon you'll mark the days you're free here and see when everyone can make it.
        </Text>
      </Stack>
    </Card>
  );
}

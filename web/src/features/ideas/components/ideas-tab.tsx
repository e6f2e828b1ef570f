import { Card, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBulb } from '../../../components/icons';

interface IdeasTabProps {
  planId: string;
  isHost: boolean;
}

/**
 * PLACEHOLDER: the plan page's Ideas tab. The ideas issue replaces this body
 * (idea list by votes, 'Add New Idea', suggestions, host Pick; spec §2).
 */
export function IdeasTab(_props: IdeasTabProps) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack align="center" ta="center" gap="xs">
        <ThemeIcon variant="light" size={44} radius="xl" aria-hidden="true">
          <IconBulb size={22} />
        </ThemeIcon>
        <Text fw={600}>Ideas are coming soon</Text>
        <Text c="dimmed" fz="sm">
          Soon you'll suggest what to do here and vote on each other's ideas.
        </Text>
      </Stack>
    </Card>
  );
}

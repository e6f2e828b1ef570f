import { Group, Text } from '@mantine/core';
import { IconCheck, IconStar } from '../../../components/icons';

export function MarketingClaims() {
  return (
    <Group gap="md" justify="center" c="dimmed" fz="sm">
      <Group gap={4} wrap="nowrap">
        <IconCheck size={16} />
        <Text inherit>Free to use</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <IconCheck size={16} />
        <Text inherit>No credit card required</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <IconStar size={16} color="var(--mantine-color-yellow-7)" />
        <Text inherit>Rated 4.9/5 by planners</Text>
      </Group>
    </Group>
  );
}

import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { IconCalendar } from './icons';

export function Logo({ to }: { to: string }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label="Hangplan home">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={32} radius="md" variant="filled">
          <IconCalendar size={18} />
        </ThemeIcon>
        <Text fw={800} fz="lg" c="var(--mantine-color-text)">
          Hangplan
        </Text>
      </Group>
    </UnstyledButton>
  );
}

import type { ReactNode } from 'react';
import { Container, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link, useMatch } from 'react-router-dom';
import { paths } from '../config/paths';
import { IconHeart, IconHome, IconUser } from './icons';
import { colors } from '../lib/colors';

interface Tab {
  label: string;
  to: string;
  icon: ReactNode;
}

const tabs: Tab[] = [
  { label: 'Home', to: paths.home.getHref(), icon: <IconHome size={22} /> },
  { label: 'Profile', to: paths.profile.getHref(), icon: <IconUser size={22} /> },
  { label: 'Interests', to: paths.interests.getHref(), icon: <IconHeart size={22} /> },
];

function BottomNavTab({ label, to, icon }: Tab) {
  // `end: false`: /interests/manage still lights the Interests tab.
  const active = useMatch({ path: to, end: false }) !== null;
  return (
    <UnstyledButton
      component={Link}
      to={to}
      aria-current={active ? 'page' : undefined}
      h="100%"
      py={6}
      c={active ? colors.accentText : 'dimmed'}
    >
      <Stack align="center" gap={2}>
        {icon}
        <Text fz="xs" fw={active ? 700 : 500} c="inherit">
          {label}
        </Text>
      </Stack>
    </UnstyledButton>
  );
}

export function BottomNav() {
  return (
    <Container component="nav" aria-label="Main" size="sm" h="100%" px="xs">
      <Group h="100%" grow gap={0}>
        {tabs.map((tab) => (
          <BottomNavTab key={tab.to} {...tab} />
        ))}
      </Group>
    </Container>
  );
}

import { Affix, Avatar, Button, Container, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { IconPlus } from '../../../components/icons';
import { displayName } from '../../../lib/display-name';
import { initials } from '../../../lib/initials';
import { useCurrentUser } from '../../auth';
import { PlansSection } from './plans-section';

export function HomeScreen() {
  // Rendered under RequireAuth, so the user is known.
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const name = displayName(user);

  const avatar = (
    <UnstyledButton component={Link} to={paths.profile.getHref()} aria-label={`Profile of ${name}`} style={{ borderRadius: '50%' }}>
      <Avatar color="violet" radius="xl" variant="filled">
        {initials(user)}
      </Avatar>
    </UnstyledButton>
  );

  return (
    <AppLayout headerRight={avatar}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz="h2">
            Your Plans
          </Title>
          <Text c="dimmed">Welcome back, {name}!</Text>
        </div>
        <PlansSection />
      </Stack>
      {/* Above the bottom navigation (64 px), at the right edge of the content column.
          The full-width strip lets clicks through; only the button takes them. */}
      <Affix position={{ bottom: 84, left: 0, right: 0 }} zIndex={150} style={{ pointerEvents: 'none' }}>
        <Container size="sm">
          <Group justify="flex-end">
            <Button
              component={Link}
              to={paths.createPlan.getHref()}
              size="md"
              radius="xl"
              leftSection={<IconPlus size={20} />}
              style={{ boxShadow: 'var(--mantine-shadow-lg)', pointerEvents: 'auto' }}
            >
              Create Plan
            </Button>
          </Group>
        </Container>
      </Affix>
    </AppLayout>
  );
}

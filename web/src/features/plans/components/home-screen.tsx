import { Affix, Avatar, Button, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { IconPlus } from '../../../components/icons';
import { displayName } from '../../../lib/display-name';
import { initials } from '../../../lib/initials';
import { useCurrentUser } from '../../auth/queries';
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
      {/* Above the bottom navigation (64 px) with a gap. */}
      <Affix position={{ bottom: 84, right: 16 }} zIndex={150}>
        <Button
          component={Link}
          to={paths.createPlan.getHref()}
          size="md"
          radius="xl"
          leftSection={<IconPlus size={20} />}
          style={{ boxShadow: 'var(--mantine-shadow-lg)' }}
        >
          Create Plan
        </Button>
      </Affix>
    </AppLayout>
  );
}

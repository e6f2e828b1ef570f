import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { CenteredCard } from './centered-card';

export function NotFoundScreen() {
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="md">
        <Title order={1} fz="h2">
          404 Page Not Found
        </Title>
        <Text c="dimmed">The page you are looking for doesn't exist or has moved.</Text>
        <Button component={Link} to={paths.landing.getHref()}>
          Go Home
        </Button>
      </Stack>
    </CenteredCard>
  );
}

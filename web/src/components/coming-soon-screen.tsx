import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { CenteredCard } from './centered-card';

/** Placeholder for screens that later issues build. Says so plainly. */
export function ComingSoonScreen({ title }: { title: string }) {
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz="h3">
          {title}
        </Title>
        <Text c="dimmed">Coming soon</Text>
        <Button component={Link} to={paths.landing.getHref()} variant="light">
          Go Home
        </Button>
      </Stack>
    </CenteredCard>
  );
}

import { Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { IconCalendar } from '../../../components/icons';

export function PlansEmptyState() {
  return (
    <Card withBorder radius="lg" padding="xl">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconCalendar size={28} />
        </ThemeIcon>
        <Title order={2} fz="h3">
          Ready to make plans?
        </Title>
        <Text c="dimmed" maw={320}>
          Create a plan, share the link, and decide together what to do and when.
        </Text>
        <Button component={Link} to={paths.createPlan.getHref()} size="md" mt="xs">
          Create Your First Plan
        </Button>
      </Stack>
    </Card>
  );
}

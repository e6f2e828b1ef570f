import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { colors } from '../../../lib/colors';

/**
 * Spec §2 Guest dashboard, bottom banner: guests are asked to create an
 * account (their votes move to it at sign-in), signed-in visitors to sign in
 * for notifications. Both go to /auth and come back to this dashboard.
 */
export function DashboardBanner({ slug, isGuest }: { slug: string; isGuest: boolean }) {
  const title = isGuest ? 'Save Your Votes & Get Updates' : 'Get Plan Notifications';
  const text = isGuest
    ? 'Create a free account to keep your votes and hear when the plan is set.'
    : 'Hear by e-mail as soon as the host sets the time.';
  return (
    <Card radius="lg" padding="lg" bg={colors.tint} withBorder component="aside" aria-labelledby="dashboard-banner-title">
      <Stack gap="sm">
        <div>
          <Title id="dashboard-banner-title" order={2} fz="h4">
            {title}
          </Title>
          <Text fz="sm" c="dimmed" mt={4}>
            {text}
          </Text>
        </div>
        <Button component={Link} to={paths.auth.getHref(paths.guestDashboard.getHref(slug))} size="md" fullWidth>
          {isGuest ? 'Create Account' : 'Sign In'}
        </Button>
      </Stack>
    </Card>
  );
}

import { Container, Divider, Stack, Text } from '@mantine/core';
import { paths } from '../../../config/paths';
import { Logo } from '../../../components/logo';

export function LandingFooter() {
  return (
    <footer>
      <Divider />
      <Container size="lg" py="xl">
        <Stack align="center" gap="xs" ta="center">
          <Logo to={paths.landing.getHref()} />
          <Text fz="sm" c="dimmed">
            Made for friends who actually want to hang out.
          </Text>
          <Text fz="xs" c="dimmed">
            © {new Date().getFullYear()} Hangplan
          </Text>
        </Stack>
      </Container>
    </footer>
  );
}

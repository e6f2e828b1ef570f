import { Button, Container, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { Logo } from '../../../components/logo';

export function LandingHeader() {
  return (
    <Container component="header" size="lg" py="md">
      <Group justify="space-between" wrap="nowrap">
        <Logo to={paths.landing.getHref()} />
        <Button component={Link} to={paths.auth.getHref()} variant="default">
          Sign In
        </Button>
      </Group>
    </Container>
  );
}

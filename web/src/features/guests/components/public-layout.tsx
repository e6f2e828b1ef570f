import type { ReactNode } from 'react';
import { AppShell, Container, Group } from '@mantine/core';
import { paths } from '../../../config/paths';
import { Logo } from '../../../components/logo';

/** The shell of the public plan pages (/l/...): logo header, no app navigation. */
export function PublicLayout({ children, headerRight }: { children: ReactNode; headerRight?: ReactNode }) {
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <Container size="sm" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo to={paths.landing.getHref()} />
            {headerRight}
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size="sm" py="lg" pb="xl">
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

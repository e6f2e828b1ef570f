import type { ReactNode } from 'react';
import { AppShell, Container, Group } from '@mantine/core';
import { paths } from '../config/paths';
import { BottomNav } from './bottom-nav';
import { Logo } from './logo';
import { colors } from '../lib/colors';

interface AppLayoutProps {
  children: ReactNode;
  /** Right side of the header, e.g. the avatar. */
  headerRight?: ReactNode;
  /** Where the logo leads: the landing route by default (spec §2 Home). */
  logoTo?: string;
}

/** The signed-in shell: logo header, centred content column, bottom navigation. */
export function AppLayout({ children, headerRight, logoTo = paths.landing.getHref() }: AppLayoutProps) {
  return (
    <AppShell header={{ height: 60 }} footer={{ height: 64 }} padding={0}>
      <AppShell.Header>
        <Container size="sm" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo to={logoTo} />
            {headerRight}
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main bg={colors.page}>
        {/* Bottom padding keeps content clear of a floating action button. */}
        <Container size="sm" py="lg" pb={96}>
          {children}
        </Container>
      </AppShell.Main>
      <AppShell.Footer>
        <BottomNav />
      </AppShell.Footer>
    </AppShell>
  );
}

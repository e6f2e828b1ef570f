import type { ReactNode } from 'react';
import { Box, Container, Group } from '@mantine/core';
import { paths } from '../../../config/paths';
import { Logo } from '../../../components/logo';
import { colors } from '../../../lib/colors';

const HEADER_HEIGHT = 60;

/**
 * The shell of the public plan pages (/l/...): logo header, no app navigation.
 * A header that sticks to the top and the page under it, without AppShell:
 * with no navbar, aside or footer to place, AppShell's media styles, resize
 * tracking and the re-renders they take were all cost on the page friends
 * open from a shared link (docs/performance.md).
 */
export function PublicLayout({ children, headerRight }: { children: ReactNode; headerRight?: ReactNode }) {
  return (
    <>
      <Box
        component="header"
        pos="sticky"
        top={0}
        h={HEADER_HEIGHT}
        bg="var(--mantine-color-body)"
        style={{ zIndex: 100, borderBottom: `1px solid ${colors.line}` }}
      >
        <Container size="sm" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo to={paths.landing.getHref()} />
            {headerRight}
          </Group>
        </Container>
      </Box>
      <Box component="main" bg={colors.page} mih={`calc(100dvh - ${HEADER_HEIGHT}px)`}>
        <Container size="sm" py="lg" pb="xl">
          {children}
        </Container>
      </Box>
    </>
  );
}

import type { ReactNode } from 'react';
import { Card, Center, Stack } from '@mantine/core';
import { paths } from '../config/paths';
import { Logo } from './logo';
import { colors } from '../lib/colors';

/**
 * A page that is one card under the logo (the card is the page's <main>):
 * sign-in, undoing an e-mail change, an e-mail's unsubscribe link.
 */
export function LogoCardPage({ children }: { children: ReactNode }) {
  return (
    <Center mih="100dvh" p="md" bg={colors.page}>
      <Stack w="100%" maw={420} align="center" gap="lg">
        <Logo to={paths.landing.getHref()} />
        <Card component="main" withBorder shadow="sm" radius="lg" padding="xl" w="100%">
          {children}
        </Card>
      </Stack>
    </Center>
  );
}

import type { ReactNode } from 'react';
import { Card, Center } from '@mantine/core';
import { colors } from '../lib/colors';

/** A single card in the middle of the screen: not-found and error states. */
export function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <Center mih="100dvh" p="md" bg={colors.page}>
      <Card withBorder shadow="sm" padding="xl" radius="lg" w="100%" maw={420}>
        {children}
      </Card>
    </Center>
  );
}

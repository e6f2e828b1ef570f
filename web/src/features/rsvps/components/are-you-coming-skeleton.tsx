import { Card, Skeleton } from '@mantine/core';

/** "Are you coming?" while its code or the answers load: its size, so nothing below it moves. */
export function AreYouComingSkeleton() {
  return (
    <Card withBorder radius="lg" padding="lg" role="status" aria-label="Loading your answer">
      <Skeleton h={24} w="50%" mb="md" aria-hidden="true" />
      <Skeleton h={50} aria-hidden="true" />
    </Card>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';

/** Spec §2 Share Plan: 'Loading plan...'. */
export function LoadingPlan() {
  return (
    <Center py={64}>
      <Stack align="center" gap="sm" role="status">
        <Loader aria-hidden="true" />
        <Text fw={600}>Loading plan...</Text>
      </Stack>
    </Center>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown while the session is loading (spec §2). */
export function Splash() {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" role="status">
        <Loader aria-hidden="true" />
        <Text fw={600}>Loading Hangplan...</Text>
      </Stack>
    </Center>
  );
}

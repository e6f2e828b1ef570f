import { Button, Card, Group, Text, Title } from '@mantine/core';
import { useInstallPrompt } from '../lib/install-prompt';

/**
 * "Install Hangplan", where the browser offers it (lib/install-prompt.ts).
 * Placed last on its screen, so its arrival never moves what is above it.
 */
export function InstallHint() {
  const { available, install, dismiss } = useInstallPrompt();
  if (!available) return null;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="install-hint-title">
      <Title order={2} fz="h4" id="install-hint-title">
        Hangplan on your phone
      </Title>
      <Text c="dimmed" mt={4}>
        Install Hangplan to open your plans from your home screen, even with no signal.
      </Text>
      <Group mt="md" gap="sm">
        <Button onClick={() => void install()}>Install Hangplan</Button>
        <Button variant="subtle" onClick={dismiss}>
          Not now
        </Button>
      </Group>
    </Card>
  );
}

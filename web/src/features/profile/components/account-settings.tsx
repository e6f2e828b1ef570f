import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from '../../auth/sign-out';

export function AccountSettings() {
  const queryClient = useQueryClient();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="account-settings-title">
      <Stack gap="sm">
        <Title id="account-settings-title" order={2} fz="h4">
          Account Settings
        </Title>
        <Text c="dimmed" fz="sm">
          Signing out only affects this device.
        </Text>
        <Button variant="outline" color="red" onClick={() => signOut(queryClient)}>
          Sign Out
        </Button>
      </Stack>
    </Card>
  );
}

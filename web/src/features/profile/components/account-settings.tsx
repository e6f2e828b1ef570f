import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { signOut } from '../../auth';
import { useSignOutEverywhere } from '../mutations';

export function AccountSettings() {
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const everywhere = useSignOutEverywhere();
  const busy = signingOut || everywhere.isPending || everywhere.isSuccess;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="account-settings-title">
      <Stack gap="sm">
        <Title id="account-settings-title" order={2} fz="h4">
          Account Settings
        </Title>
        <Text c="dimmed" fz="sm">
          Sign Out ends your session on this device. Sign out everywhere ends it on every device where you are signed in.
        </Text>
        <Button
          variant="outline"
          color="red"
          disabled={busy}
          onClick={() => {
            setSigningOut(true);
            void signOut(queryClient);
          }}
        >
          {signingOut ? 'Signing out...' : 'Sign Out'}
        </Button>
        <Button variant="subtle" color="red" disabled={busy} onClick={() => everywhere.mutate()}>
          {everywhere.isPending ? 'Signing out...' : 'Sign out everywhere'}
        </Button>
      </Stack>
    </Card>
  );
}

import { useState } from 'react';
import { Avatar, Group, Stack, Text, Title } from '@mantine/core';
import { AppLayout } from '../../../components/app-layout';
import { InstallHint } from '../../../components/install-hint';
import { displayName } from '../../../lib/display-name';
import { initials } from '../../../lib/initials';
import { useCurrentUser } from '../../auth';
import { AccountSettings } from './account-settings';
import { AppearanceSettings } from './appearance-settings';
import { CalendarFeedCard } from '../../calendar';
import { DeleteAccount } from './delete-account';
import { EmailCodeCard } from './email-code-card';
import { ProfileForm } from './profile-form';

export function ProfileScreen() {
  // Rendered under RequireAuth, so the user is known.
  const { data: user } = useCurrentUser();
  // Kept here: the form re-mounts whenever the stored user changes.
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  if (!user) return null;

  return (
    <AppLayout>
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar color="violet" variant="filled" radius="xl" size="lg" aria-hidden="true">
            {initials(user)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Title order={1} fz="h2">
              Profile
            </Title>
            <Text c="dimmed" truncate>
              {displayName(user)} · {user.email}
            </Text>
          </div>
        </Group>
        {/* Re-mounts with what the server stored (it normalises the e-mail). */}
        <ProfileForm key={`${user.email}|${user.firstName}|${user.lastName}`} user={user} onPendingEmail={setPendingEmail} />
        {pendingEmail && <EmailCodeCard key={pendingEmail} email={pendingEmail} onClose={() => setPendingEmail(null)} />}
        <CalendarFeedCard />
        <AppearanceSettings />
        <AccountSettings />
        <DeleteAccount userId={user.id} />
        <InstallHint />
      </Stack>
    </AppLayout>
  );
}

import { Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconBell } from '../../../components/icons';
import type { DevicePushState, PushIdentity } from '../../../lib/device-push';
import { useDevicePush } from '../mutations';
import { devicePushQueryOptions } from '../queries';

/** What each state says (the card is not shown where the browser has no Web Push). */
function explanation(state: Exclude<DevicePushState, 'unsupported'>, identity: PushIdentity): string {
  switch (state) {
    case 'on':
      return 'Notifications are on for this device.';
    case 'blocked':
      return "Notifications are blocked for Hangplan. Allow them in your browser's site settings to turn them on.";
    case 'needs-home-screen':
      return 'On iPhone and iPad, notifications work once Hangplan is on your Home Screen: tap Share, then Add to Home Screen, and open Hangplan from there.';
    case 'off':
      return identity.kind === 'member'
        ? 'Get a notification on this device when something is decided in your plans, even with Hangplan closed.'
        : 'Get a notification on this device when something is decided in this plan, even with Hangplan closed.';
  }
}

/**
 * "Turn on notifications" for the plan page (a member: every plan of the
 * account) and the guest dashboard (a guest: this plan), per device
 * (docs/notifications.md "In the browser"). The browser's permission is asked
 * only on the tap, never on load.
 */
export function NotificationsCard({ identity }: { identity: PushIdentity }) {
  const { data: state } = useQuery(devicePushQueryOptions(identity));
  const { turnOn, turnOff } = useDevicePush(identity);
  if (state === undefined || state === 'unsupported') return null;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="notifications-title">
      <Group gap="sm" wrap="nowrap" mb="xs">
        <ThemeIcon variant="light" size={36} radius="md" aria-hidden="true">
          <IconBell size={18} />
        </ThemeIcon>
        <Title id="notifications-title" order={2} fz="h4">
          Notifications
        </Title>
      </Group>
      <Text fz="sm" c={state === 'on' ? undefined : 'dimmed'} role={state === 'on' ? 'status' : undefined}>
        {explanation(state, identity)}
      </Text>
      {state === 'off' && (
        <Button mt="md" radius="xl" fullWidth loading={turnOn.isPending} onClick={() => turnOn.mutate()}>
          Turn on notifications
        </Button>
      )}
      {state === 'on' && (
        <Button mt="md" radius="xl" variant="default" fullWidth loading={turnOff.isPending} onClick={() => turnOff.mutate()}>
          Turn off notifications
        </Button>
      )}
    </Card>
  );
}

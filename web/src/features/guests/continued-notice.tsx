// "Your name was continued on another device" (decision 0064): when another
// device continues as this device's guest by name ("Yes, that's me"), the
// guest's session read answers `continuedAt`, and the guest's pages show this
// card until it is closed, once per new value. The restore reaches open
// devices through the live feed (part participants re-reads the guest
// session); a device opened later learns it on its first read. What was
// closed is kept in the guest session item (spec §3 keeps local storage to
// three items). "That wasn't me" signs the other devices out.
import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { markContinuedSeen, useGuestSession } from '../../lib/guest-storage';
import { formatMoment } from '../../lib/local-date';
import { useEndOtherDevices } from './mutations';

export const CONTINUED_NOTICE_TITLE = 'Your name was continued on another device';

export function continuedNoticeMessage(name: string, continuedAt: string): string {
  return `On ${formatMoment(continuedAt)}, another device continued as ${name} with "Yes, that's me". It can vote and comment as you, but cannot remove you from the plan.`;
}

interface ContinuedElsewhereNoticeProps {
  guest: { id: string; name: string };
  /** From GET /api/guest-session/{id}; nothing is shown without one. */
  continuedAt: string | null | undefined;
}

export function ContinuedElsewhereNotice({ guest, continuedAt }: ContinuedElsewhereNoticeProps) {
  const stored = useGuestSession();
  const [confirming, setConfirming] = useState(false);
  const endOthers = useEndOtherDevices(guest);
  if (!continuedAt || stored?.id !== guest.id) return null;
  if (stored.continuedSeenAt && Date.parse(stored.continuedSeenAt) >= Date.parse(continuedAt)) return null;
  const close = () => markContinuedSeen(guest.id, continuedAt);

  return (
    <>
      <div
        style={{
          position: 'fixed',
          bottom: 16,
          left: 0,
          right: 0,
          display: 'flex',
          justifyContent: 'center',
          padding: '0 12px',
          pointerEvents: 'none',
          zIndex: 200,
        }}
      >
        <Alert
          title={CONTINUED_NOTICE_TITLE}
          withCloseButton
          closeButtonLabel="Close"
          onClose={close}
          color="blue"
          radius="lg"
          maw={480}
          w="100%"
          style={{ pointerEvents: 'auto', boxShadow: 'var(--mantine-shadow-md)' }}
        >
          <Text size="sm">{continuedNoticeMessage(guest.name, continuedAt)}</Text>
          <Group gap="xs" mt="sm">
            <Button size="xs" color="red.9" onClick={() => setConfirming(true)}>
              That wasn't me
            </Button>
            <Button size="xs" variant="default" onClick={close}>
              It was me
            </Button>
          </Group>
        </Alert>
      </div>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              close();
            },
          })
        }
        title="Sign out the other devices?"
        message={`Every other device that continued as ${guest.name} is signed out, and nobody can continue as ${guest.name} by name while you keep using this one. Votes stay as they are.`}
        confirmLabel="Sign them out"
        pendingLabel="Signing out..."
        pending={endOthers.isPending}
      />
    </>
  );
}

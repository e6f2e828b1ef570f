import { useEffect, useRef } from 'react';
import { Avatar, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { nameInitials } from '../../../lib/initials';
import { guestVotesSummary } from '../plan-phase';
import type { ExistingGuest } from '../mutations';

interface IsThisYouCardProps {
  guest: ExistingGuest;
  onConfirm: () => void;
  onDecline: () => void;
  restoring: boolean;
  /** Why the card shows without the visitor asking (a session that must be confirmed again). */
  note?: string;
}

/** Spec §2 Join: a guest of that name already joined. */
export function IsThisYouCard({ guest, onConfirm, onDecline, restoring, note }: IsThisYouCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form this replaces had focus: tell screen readers what changed.
  useEffect(() => heading.current?.focus(), []);

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="is-this-you-title">
      <Stack gap="md">
        <Title id="is-this-you-title" ref={heading} tabIndex={-1} order={2} fz="h3">
          Is this you?
        </Title>
        {note && <Text fz="sm">{note}</Text>}
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Avatar radius="xl" size="lg" color="gray.7" variant="filled" aria-hidden="true">
            {nameInitials(guest.name)}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {guest.name}
            </Text>
            <Text fz="sm" c="dimmed">
              Guest participant
            </Text>
            <Text fz="sm">{guestVotesSummary(guest.ideaVotes.length, guest.timeSlotVotes.length)}</Text>
          </Stack>
        </Group>
        <Stack gap="xs">
          <Button size="md" fullWidth onClick={onConfirm} disabled={restoring}>
            {restoring ? 'Restoring...' : "Yes, that's me"}
          </Button>
          <Button size="md" fullWidth variant="default" onClick={onDecline} disabled={restoring}>
            No, different person
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}

import { Group, Text } from '@mantine/core';
import { IconClock } from './icons';

/**
 * "Waiting for connection": a vote or comment made with no network, kept on
 * this device and sent when the network is back (docs/offline.md "Offline
 * votes and comments"). Small, muted, no colour of alarm: nothing is wrong.
 * `label` names what waits, for screen readers ("Your vote is waiting for
 * connection").
 */
export function PendingMark({ label }: { label: string }) {
  return (
    <Group component="span" role="status" aria-label={label} gap={4} wrap="nowrap" c="dimmed" style={{ flexShrink: 0 }}>
      <IconClock size={14} />
      <Text component="span" fz="xs" c="dimmed">
        Waiting for connection
      </Text>
    </Group>
  );
}

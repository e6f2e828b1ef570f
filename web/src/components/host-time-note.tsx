import { Text } from '@mantine/core';
import { hostTimeNote } from '../lib/host-time';
import { deviceTimeZone } from '../lib/local-date';

/** What a plan's time needs for the note: its locked date, the host's time and its zone. */
export interface HostTimePlan {
  lockedTimeSlotDate?: string | null;
  lockedTimeSlot?: { date: string } | null;
  eventTime?: string | null;
  timeZone?: string | null;
}

/**
 * "7:30 PM Berlin time is 1:30 PM where you are.": under a plan's time, for a
 * viewer whose clock reads another time then (lib/host-time.ts); nothing
 * otherwise.
 */
export function HostTimeNote({ plan }: { plan: HostTimePlan }) {
  const note = hostTimeNote(
    { date: plan.lockedTimeSlot?.date ?? plan.lockedTimeSlotDate, time: plan.eventTime, timeZone: plan.timeZone },
    deviceTimeZone(),
  );
  return note ? (
    <Text component="span" display="block" fz="sm" fw={400} c="dimmed">
      {note}
    </Text>
  ) : null;
}

import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CAPACITY_MAX, PLUS_ONES_MAX, type Rsvps } from '../../../../../supabase/functions/_shared/contract/rsvps';
import { useSetCapacity } from '../mutations';
import { parseSpots } from '../rsvps';
import { FriendsStepper } from './answer-choices';

export { spotsLine } from '../rsvps';

interface CapacityDialogProps {
  planId: string;
  rsvps: Pick<Rsvps, 'capacity' | 'headcount' | 'maxPlusOnes'>;
  opened: boolean;
  onClose: () => void;
}

/**
 * The host's spots and friends (docs/api-after-the-date.md "Who's coming"): a limit on the
 * spots (going people plus their friends; past it, Going joins the waitlist)
 * and how many friends each may bring. Lowering the spots bumps nobody.
 */
export function CapacityDialog({ planId, rsvps, opened, onClose }: CapacityDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Spots and friends" centered radius="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* Mounted with each opening: it starts from the plan's settings. */}
      {opened && <CapacityForm planId={planId} rsvps={rsvps} onClose={onClose} />}
    </Modal>
  );
}

function CapacityForm({ planId, rsvps, onClose }: Omit<CapacityDialogProps, 'opened'>) {
  const [limited, setLimited] = useState(rsvps.capacity !== null);
  const [spotsText, setSpotsText] = useState(String(rsvps.capacity ?? Math.max(rsvps.headcount, 10)));
  const [maxPlusOnes, setMaxPlusOnes] = useState(rsvps.maxPlusOnes);
  const save = useSetCapacity(planId, { onDone: onClose });
  const spots = parseSpots(spotsText, CAPACITY_MAX);
  const invalid = limited && spots === null;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid) return;
        save.mutate({ capacity: limited ? spots : null, maxPlusOnes });
      }}
    >
      <Stack gap="md">
        <Checkbox label="Limit the spots" checked={limited} onChange={(event) => setLimited(event.currentTarget.checked)} size="md" />
        {limited && (
          <TextInput
            label="Spots"
            description="Going people plus their friends; after that, Going joins the waitlist."
            inputMode="numeric"
            value={spotsText}
            onChange={(event) => setSpotsText(event.currentTarget.value)}
            error={invalid ? `Spots must be a whole number from 1 to ${CAPACITY_MAX}.` : undefined}
            size="md"
          />
        )}
        {limited && spots !== null && spots < rsvps.headcount && (
          <Text fz="sm" c="dimmed">
            Everyone already going keeps their spot.
          </Text>
        )}
        <FriendsStepper value={maxPlusOnes} max={PLUS_ONES_MAX} onChange={setMaxPlusOnes} label="Friends each may bring" zero="None" />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={invalid}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

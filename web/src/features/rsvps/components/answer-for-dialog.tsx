import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { RsvpAnswer, RsvpState } from '../../../../../supabase/functions/_shared/contract/rsvps';
import { useAnswerFor } from '../mutations';
import { friendsHint } from '../rsvps';
import { AnswerChoices, FriendsStepper } from './answer-choices';

/** Whom the host answers for, and their answer so far. */
export interface AnswerForPerson {
  participantId: string;
  name: string;
  answer: RsvpState | null;
  plusOnes: number;
}

interface AnswerForDialogProps {
  planId: string;
  /** Null: closed. */
  person: AnswerForPerson | null;
  maxPlusOnes: number;
  onClose: () => void;
}

/**
 * The host (or a co-host) answers for someone who replied in the chat
 * (docs/api-after-the-date.md "Who's coming"): the person then sees "set by the host" and
 * can change it.
 */
export function AnswerForDialog({ planId, person, maxPlusOnes, onClose }: AnswerForDialogProps) {
  return (
    <Modal
      opened={person !== null}
      onClose={onClose}
      title={person ? `Answer for ${person.name}` : ''}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {person && <AnswerForForm key={person.participantId} planId={planId} person={person} maxPlusOnes={maxPlusOnes} onClose={onClose} />}
    </Modal>
  );
}

function AnswerForForm({ planId, person, maxPlusOnes, onClose }: { planId: string; person: AnswerForPerson; maxPlusOnes: number; onClose: () => void }) {
  const [answer, setAnswer] = useState<RsvpAnswer | null>(person.answer === 'waitlist' ? 'going' : person.answer);
  const [plusOnes, setPlusOnes] = useState(Math.min(person.plusOnes, maxPlusOnes));
  const save = useAnswerFor(planId, { onDone: onClose });

  return (
    <Stack gap="md">
      <Text fz="sm" c="dimmed">
        They will see that you set it, and can change it.
      </Text>
      <AnswerChoices current={answer} onChoose={setAnswer} disabled={save.isPending} label={`${person.name}'s answer`} />
      {answer === 'going' && maxPlusOnes > 0 && (
        <FriendsStepper value={plusOnes} max={maxPlusOnes} hint={friendsHint(maxPlusOnes)} onChange={setPlusOnes} disabled={save.isPending} zero="None" />
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          loading={save.isPending}
          disabled={answer === null}
          onClick={() => answer && save.mutate({ participantId: person.participantId, answer, plusOnes: answer === 'going' ? plusOnes : 0 })}
        >
          Save
        </Button>
      </Group>
    </Stack>
  );
}

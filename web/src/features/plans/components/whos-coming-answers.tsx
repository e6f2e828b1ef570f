import { Suspense, useState } from 'react';
import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { answerLabel, answersOpen, goingFirst, LazyAnswerForDialog, rsvpsQueryOptions, type AnswerForPerson } from '../../rsvps';
import type { Participant, Plan } from '../../../../../supabase/functions/_shared/contract/plans';

/**
 * Who's coming once a date is locked (docs/decisions/0103-whos-coming-on-the-screens.md):
 * the people in the answers' order (going first), each one's answer, and the
 * host's "Answer" for someone who replied in the chat. Before a date is
 * locked the answers are not read and everything stays as it was. The plan
 * page's Who's coming card and the guest dashboard's people tab both read
 * them here; `guestId` (a guest viewer's) shares the read with that guest's
 * "Are you coming?" card.
 */
export function useWhosComingAnswers(
  plan: Pick<Plan, 'id' | 'hostId' | 'status'>,
  canAnswerFor: boolean,
  guestId: string | null = null,
) {
  const open = answersOpen(plan);
  const { data } = useQuery({ ...rsvpsQueryOptions(plan.id, guestId), enabled: open });
  const [answering, setAnswering] = useState<AnswerForPerson | null>(null);
  const rsvps = open ? data : undefined;
  const byId = new Map(rsvps?.people.map((person) => [person.participantId, person]));
  return {
    order: (participants: Participant[]) => goingFirst(participants, rsvps?.people),
    /** "Going +2", "Maybe" ...; null without an answer. */
    said: (participant: Participant) => {
      const person = byId.get(participant.id);
      return person ? answerLabel(person) : null;
    },
    /** The host's Answer for everyone else once the answers are in; undefined: none. */
    answerFor: (participant: Participant) => {
      const person = byId.get(participant.id);
      return canAnswerFor && person && participant.userId !== plan.hostId ? () => setAnswering(person) : undefined;
    },
    /** The host's dialog, loaded the first time it opens. */
    dialog:
      answering && rsvps ? (
        <Suspense fallback={null}>
          <LazyAnswerForDialog planId={plan.id} person={answering} maxPlusOnes={rsvps.maxPlusOnes} onClose={() => setAnswering(null)} />
        </Suspense>
      ) : null,
  };
}

/** " · Going +2" after a name in the list. */
export function AnswerNote({ said }: { said: string | null }) {
  if (!said) return null;
  return (
    <Text component="span" fz="xs" c="dimmed">
      {' · '}
      {said}
    </Text>
  );
}

/** The host's "Answer" on a person of the list. */
export function AnswerForButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button size="compact-xs" variant="subtle" aria-label={`Answer for ${name}`} onClick={onClick}>
      Answer
    </Button>
  );
}

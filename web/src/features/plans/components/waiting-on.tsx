import { useId } from 'react';
import { Button, Card, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { answersOpen, rsvpsQueryOptions } from '../../rsvps';
import { recentReminder } from '../deadline';
import { useRemindUnanswered } from '../host-mutations';
import { planParticipantsQueryOptions } from '../queries';
import { useNow } from '../use-now';
import type { Participant, ParticipantRole, Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { noDatesLine } from '../../../../../supabase/functions/_shared/contract/dates';
import { withGuestMark } from './whos-coming';

/**
 * The host and the co-hosts are the ones reminding: never on the list, and
 * never reminded (the server's rule: docs/notifications.md "Who is told what").
 */
const remindsOthers = (role: ParticipantRole | null | undefined) => role === 'host' || role === 'cohost';

/** Everyone but the host and co-hosts who has not voted on any idea or date, in join order. */
export function notAnswered(participants: readonly Participant[], hostId: string): Participant[] {
  return participants.filter(
    (participant) => participant.userId !== hostId && !remindsOthers(participant.role) && participant.hasResponded === false,
  );
}

/** What the card asks about: the votes while they are open, "Are you coming?" once a date is locked. */
type Phase = 'votes' | 'answers';

const TEXTS: Record<Phase, { loading: string; failed: string; everyone: string; waiting: string; toast: string }> = {
  votes: {
    loading: 'Loading who has voted',
    failed: "Couldn't load who has voted.",
    everyone: 'Everyone has voted.',
    waiting: 'They have not voted on any idea or date yet.',
    toast: 'They will be asked to vote on ideas and dates.',
  },
  answers: {
    loading: 'Loading who has answered',
    failed: "Couldn't load who has answered.",
    everyone: 'Everyone has answered.',
    waiting: "They have not said whether they're coming yet.",
    toast: "They will be asked whether they're coming.",
  },
};

function RemindButton({ plan, phase }: { plan: Pick<Plan, 'id' | 'remindedAt'>; phase: Phase }) {
  const now = useNow();
  const remind = useRemindUnanswered(plan.id, TEXTS[phase].toast);
  const recent = recentReminder(plan.remindedAt, now);
  const noteId = useId();
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant="light"
        onClick={() => remind.mutate()}
        loading={remind.isPending}
        disabled={recent !== null}
        aria-describedby={recent ? noteId : undefined}
      >
        Remind them
      </Button>
      {recent && (
        <Text id={noteId} fz="sm" c="dimmed">
          {recent.sent}. {recent.again}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Who has not answered, in join order (never the host nor a co-host): while no date is
 * locked, who has not voted on any idea or date; once one is, who has not
 * said whether they are coming (the headcount's people with no answer,
 * docs/api-after-the-date.md "Who's coming"). Both follow the group live.
 */
function useWaiting(plan: Plan, phase: Phase) {
  const participants = useQuery({ ...planParticipantsQueryOptions(plan.id), enabled: phase === 'votes' });
  const rsvps = useQuery({ ...rsvpsQueryOptions(plan.id, null), enabled: phase === 'answers' });
  if (phase === 'votes') {
    const list = participants.data;
    return {
      isPending: participants.isPending,
      isError: participants.isError,
      others: list ? list.filter((participant) => participant.userId !== plan.hostId).length : 0,
      waiting: list ? notAnswered(list, plan.hostId).map((p) => ({ id: p.id, name: p.name, isGuest: p.isGuest })) : [],
      // Who said none of the dates work: answered, never reminded, and named here (docs/api.md "Time slots and the lock flow").
      cannot: list ? list.filter((p) => p.noDates === true).map((p) => ({ id: p.id, name: p.name, isGuest: p.isGuest })) : [],
    };
  }
  const people = rsvps.data?.people ?? [];
  const others = people.filter((person) => person.role !== 'host');
  return {
    isPending: rsvps.isPending,
    isError: rsvps.isError,
    others: others.length,
    waiting: others
      .filter((person) => person.answer === null && !remindsOthers(person.role))
      .map((p) => ({ id: p.participantId, name: p.name, isGuest: p.isGuest })),
    cannot: [],
  };
}

/** "2 can't make any of these", and their names. */
function CannotMakeAny({ people }: { people: { id: string; name: string; isGuest: boolean }[] }) {
  const titleId = useId();
  return (
    <Stack gap={4} mt="sm">
      <Text id={titleId} fz="sm" fw={600}>
        {noDatesLine(people.length)}
      </Text>
      <List listStyleType="none" spacing={4} aria-labelledby={titleId}>
        {people.map((person) => (
          <List.Item key={person.id} style={{ overflowWrap: 'anywhere' }}>
            {withGuestMark(person)}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/**
 * The host's (and co-hosts') "Waiting on" card on the plan page: while
 * voting is open, who has not voted (and, apart, who said none of the dates
 * work: "2 can't make any of these"); once a date is locked, who has not
 * answered "Are you coming?" (docs/decisions/0102-event-reminders.md). Remind
 * them asks exactly those people (once per 12 hours).
 */
export function WaitingOn({ plan }: { plan: Plan }) {
  const phase: Phase = answersOpen(plan) ? 'answers' : 'votes';
  const text = TEXTS[phase];
  const { isPending, isError, others, waiting, cannot } = useWaiting(plan, phase);
  const titleId = useId();

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={titleId}>
      <Title id={titleId} order={2} fz="h4" mb="xs">
        Waiting on
      </Title>
      {isPending ? (
        <Skeleton h={20} w="60%" role="status" aria-label={text.loading} />
      ) : isError ? (
        <Text c="dimmed" fz="sm">
          {text.failed}
        </Text>
      ) : others === 0 ? (
        <Text c="dimmed" fz="sm">
          No one else has joined yet.
        </Text>
      ) : waiting.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {text.everyone}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text c="dimmed" fz="sm">
            {text.waiting}
          </Text>
          <List listStyleType="none" spacing={4} aria-labelledby={titleId}>
            {waiting.map((participant) => (
              <List.Item key={participant.id} style={{ overflowWrap: 'anywhere' }}>
                {withGuestMark(participant)}
              </List.Item>
            ))}
          </List>
          <RemindButton plan={plan} phase={phase} />
        </Stack>
      )}
      {!isPending && !isError && cannot.length > 0 && <CannotMakeAny people={cannot} />}
    </Card>
  );
}

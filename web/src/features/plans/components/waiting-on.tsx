import { useId } from 'react';
import { Button, Card, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { recentReminder } from '../deadline';
import { useRemindUnanswered } from '../host-mutations';
import { planParticipantsQueryOptions } from '../queries';
import { useNow } from '../use-now';
import type { Participant, Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { withGuestMark } from './whos-coming';

/** Everyone but the host who has not voted on any idea or date, in join order. */
export function notAnswered(participants: readonly Participant[], hostId: string): Participant[] {
  return participants.filter((participant) => participant.userId !== hostId && participant.hasResponded === false);
}

function RemindButton({ plan }: { plan: Pick<Plan, 'id' | 'remindedAt'> }) {
  const now = useNow();
  const remind = useRemindUnanswered(plan.id);
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
 * The host's "Waiting on" card on the plan page while no date is locked: who
 * has not voted on any idea or date yet (never the host), and Remind them
 * (once per 12 hours). The participants follow the group live.
 */
export function WaitingOn({ plan }: { plan: Plan }) {
  const { data: participants, isPending, isError } = useQuery(planParticipantsQueryOptions(plan.id));
  const titleId = useId();
  const others = participants?.filter((participant) => participant.userId !== plan.hostId) ?? [];
  const waiting = participants ? notAnswered(participants, plan.hostId) : [];

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={titleId}>
      <Title id={titleId} order={2} fz="h4" mb="xs">
        Waiting on
      </Title>
      {isPending ? (
        <Skeleton h={20} w="60%" role="status" aria-label="Loading who has voted" />
      ) : isError ? (
        <Text c="dimmed" fz="sm">
          Couldn't load who has voted.
        </Text>
      ) : others.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No one else has joined yet.
        </Text>
      ) : waiting.length === 0 ? (
        <Text c="dimmed" fz="sm">
          Everyone has voted.
        </Text>
      ) : (
        <Stack gap="sm">
          <Text c="dimmed" fz="sm">
            They have not voted on any idea or date yet.
          </Text>
          <List listStyleType="none" spacing={4} aria-labelledby={titleId}>
            {waiting.map((participant) => (
              <List.Item key={participant.id} style={{ overflowWrap: 'anywhere' }}>
                {withGuestMark(participant)}
              </List.Item>
            ))}
          </List>
          <RemindButton plan={plan} />
        </Stack>
      )}
    </Card>
  );
}

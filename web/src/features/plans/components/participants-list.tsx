import { Avatar, Badge, Button, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { nameInitials } from '../../../lib/initials';
import { planParticipantsQueryOptions } from '../queries';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { RoleBadge } from './role-badge';
import { AnswerNote, useWhosComingAnswers } from './whos-coming-answers';

interface ParticipantsListProps {
  plan: Pick<Plan, 'id' | 'hostId' | 'status'>;
  /** The viewer's guest id (a guest of the plan): the answers are read as that guest's "Are you coming?" card reads them. */
  guestId?: string | null;
}

/**
 * Spec §2 Guest dashboard: the people tab's content, with a 'Member' badge
 * for accounts and 'Host' / 'Co-host' for who runs the plan. Once a date is
 * locked, like the plan page's Who's coming: going first and each one's
 * answer ("Going +2", "Waitlist #1"; nothing before they answer)
 * (docs/decisions/0103-whos-coming-on-the-screens.md).
 */
export function ParticipantsList({ plan, guestId = null }: ParticipantsListProps) {
  const { data: participants, isPending, isError, refetch, isRefetching } = useQuery(
    planParticipantsQueryOptions(plan.id),
  );
  const answers = useWhosComingAnswers(plan, false, guestId);

  return (
    <Stack gap="sm" component="section" aria-labelledby="participants-title">
      <Title id="participants-title" order={2} fz="h4">
        Participants
      </Title>
      {isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading participants">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} h={40} aria-hidden="true" />
          ))}
        </Stack>
      ) : isError ? (
        <Group gap="sm">
          <Text c="dimmed" fz="sm">
            Couldn't load the participants.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => refetch()} disabled={isRefetching}>
            Try again
          </Button>
        </Group>
      ) : (
        <List listStyleType="none" spacing="xs" aria-label="Participants">
          {answers.order(participants).map((participant) => (
            <List.Item key={participant.id}>
              <Group gap="sm" wrap="nowrap">
                <Avatar radius="xl" variant="filled" color={participant.isGuest ? 'gray.7' : 'violet'} aria-hidden="true">
                  {nameInitials(participant.name)}
                </Avatar>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {participant.name}
                  <AnswerNote said={answers.said(participant)} />
                </Text>
                {!participant.isGuest && (
                  <Badge variant="light" radius="sm">
                    Member
                  </Badge>
                )}
                <RoleBadge role={participant.role} />
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

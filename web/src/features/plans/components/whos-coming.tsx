import { useState } from 'react';
import { Avatar, Button, Card, Group, List, Popover, Skeleton, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { nameInitials } from '../../../lib/initials';
import { splitOverflow } from '../../../lib/overflow';
import { useAllowBack, useRemoveParticipant, useSetCohost } from '../host-mutations';
import { planParticipantsQueryOptions, planRemovalsQueryOptions } from '../queries';
import type { Participant, ParticipantRole, Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { RoleBadge } from './role-badge';
import { AnswerForButton, AnswerNote, useWhosComingAnswers } from './whos-coming-answers';

/** Spec §9: the plan page's avatar stack shows 6, then '+N more'. */
const PLAN_PAGE_MAX_AVATARS = 6;

export const withGuestMark = (participant: Pick<Participant, 'name' | 'isGuest'>) =>
  participant.isGuest ? `${participant.name} (Guest)` : participant.name;

/** What the host (and a co-host) may do to one person in the full list. */
interface PersonActions {
  /** Remove from the plan (the host and co-hosts; never the host, a co-host only ordinary people). */
  remove?: () => void;
  /** "Make co-host" / "Remove co-host": the host's, for members (docs/decisions/0098-cohosts.md). */
  toggleCohost?: () => void;
  /** The toggle of this person is on its way. */
  togglePending?: boolean;
  /** Answer for them (the host and co-hosts, once a date is locked: docs/decisions/0103-whos-coming-on-the-screens.md). */
  answerFor?: () => void;
}

/** A name in the full list, its role, and the actions the viewer has on it. */
function ParticipantRow({
  participant,
  said = null,
  actions,
  close,
}: {
  participant: Participant;
  /** Their answer once a date is locked ("Going +2"). */
  said?: string | null;
  actions: PersonActions;
  close: () => void;
}) {
  const { remove, toggleCohost, togglePending, answerFor } = actions;
  const isCohost = participant.role === 'cohost';
  const run = (action: () => void) => () => {
    close();
    action();
  };
  return (
    <List.Item>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap" miw={0}>
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {withGuestMark(participant)}
            <AnswerNote said={said} />
          </Text>
          <RoleBadge role={participant.role} />
        </Group>
        {(remove || toggleCohost || answerFor) && (
          <Group gap={4} wrap="nowrap">
            {answerFor && <AnswerForButton name={participant.name} onClick={run(answerFor)} />}
            {toggleCohost && (
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={isCohost ? `Remove ${participant.name} as co-host` : `Make ${participant.name} a co-host`}
                loading={togglePending}
                onClick={toggleCohost}
              >
                {isCohost ? 'Remove co-host' : 'Make co-host'}
              </Button>
            )}
            {remove && (
              <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${participant.name}`} onClick={run(remove)}>
                Remove
              </Button>
            )}
          </Group>
        )}
      </Group>
    </List.Item>
  );
}

/**
 * The host's list of who was removed, each with "Allow back"
 * (docs/decisions/0083-removal-holds.md). Asked for when the list opens;
 * nothing when no one was removed.
 */
function RemovedPeople({ planId }: { planId: string }) {
  const { data: removals } = useQuery(planRemovalsQueryOptions(planId));
  const allowBack = useAllowBack(planId);
  if (!removals?.length) return null;
  return (
    <>
      <Text id="removed-people-title" fz="xs" fw={700} c="dimmed" mt="sm" mb={4}>
        Removed
      </Text>
      <List listStyleType="none" spacing={4} fz="sm" aria-labelledby="removed-people-title">
        {removals.map((removal) => (
          <List.Item key={removal.id}>
            <Group gap="xs" justify="space-between" wrap="nowrap">
              <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {withGuestMark(removal)}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`Allow ${removal.name} back`}
                loading={allowBack.isPending && allowBack.variables?.id === removal.id}
                onClick={() => allowBack.mutate(removal)}
              >
                Allow back
              </Button>
            </Group>
          </List.Item>
        ))}
      </List>
    </>
  );
}

/**
 * The stack opens the full list on hover (mouse), and on tap, click, Enter or
 * Space (touch and keyboard). A tap also sends pointerenter, so hover listens
 * to mouse pointers only; otherwise the tap would open and close it at once.
 */
function ParticipantStack({
  participants,
  actionsFor,
  said,
  removedOf,
}: {
  participants: Participant[];
  /** Each one's answer once a date is locked. */
  said: (participant: Participant) => string | null;
  /** The host's (or a co-host's) actions on each person (docs/decisions/0065-moderation.md, 0098-cohosts.md). */
  actionsFor: (participant: Participant) => PersonActions;
  /** The host's plan: the list also shows who was removed from it. */
  removedOf?: string;
}) {
  const [hovered, setHovered] = useState(false);
  const [pinned, setPinned] = useState(false);
  const { visible, hiddenCount } = splitOverflow(participants, PLAN_PAGE_MAX_AVATARS);
  const close = () => {
    setHovered(false);
    setPinned(false);
  };

  return (
    <Popover opened={hovered || pinned} onDismiss={close} position="bottom-start" shadow="md" withArrow>
      <Popover.Target>
        <UnstyledButton
          aria-label={`See everyone coming (${participants.length})`}
          onClick={() => setPinned((current) => !current)}
          // Focus stays on this button, where the dropdown's own Escape handler never hears it.
          onKeyDown={(event) => event.key === 'Escape' && close()}
          onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
          onPointerLeave={(event) => event.pointerType === 'mouse' && setHovered(false)}
          style={{ borderRadius: 'var(--mantine-radius-xl)' }}
        >
          <Group gap="sm" wrap="nowrap">
            <Avatar.Group spacing={6}>
              {visible.map((participant) => (
                <Avatar key={participant.id} radius="xl" variant="filled" color={participant.isGuest ? 'gray.7' : 'violet'}>
                  {nameInitials(participant.name)}
                </Avatar>
              ))}
            </Avatar.Group>
            {hiddenCount > 0 && (
              <Text fz="sm" fw={600} c="dimmed">
                +{hiddenCount} more
              </Text>
            )}
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown maw={320}>
        <List listStyleType="none" spacing={4} fz="sm" aria-label="Everyone coming">
          {participants.map((participant) => (
            <ParticipantRow key={participant.id} participant={participant} said={said(participant)} actions={actionsFor(participant)} close={close} />
          ))}
        </List>
        {removedOf && <RemovedPeople planId={removedOf} />}
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * The host's Remove: everyone but the host, asking first. What the person
 * wrote and voted goes with them, and they cannot join again until the host
 * allows them back.
 */
function useRemoval(plan: Pick<Plan, 'id' | 'slug' | 'hostId'>) {
  const [asking, setAsking] = useState<Participant | null>(null);
  const removal = useRemoveParticipant(plan, { onRemoved: () => setAsking(null) });
  const dialog = (
    <ConfirmDialog
      opened={asking !== null}
      onClose={() => setAsking(null)}
      onConfirm={() => asking && removal.mutate(asking)}
      title={`Remove ${asking?.name ?? ''}?`}
      message="Their ideas, comments and votes will be removed from the plan too. They cannot join again unless you allow them back."
      confirmLabel="Remove"
      pendingLabel="Removing..."
      pending={removal.isPending}
    />
  );
  return { ask: setAsking, dialog };
}

/**
 * What the viewer may do to each person: the host removes anyone but
 * themselves and makes members co-hosts or not; a co-host removes ordinary
 * participants only (docs/decisions/0099-what-stays-the-hosts.md); everyone
 * else nothing. The server holds the same rules.
 */
export function personActions(
  role: ParticipantRole | null,
  participant: Pick<Participant, 'role' | 'isGuest' | 'userId'>,
  hostId: string,
  handlers: { remove: () => void; toggleCohost: () => void },
): PersonActions {
  // (A copy of the list from before roles knows the host by hostId.)
  if (participant.role === 'host' || participant.userId === hostId) return {};
  if (role === 'host') {
    return { remove: handlers.remove, toggleCohost: participant.isGuest ? undefined : handlers.toggleCohost };
  }
  if (role === 'cohost' && !participant.role) return { remove: handlers.remove };
  return {};
}

interface WhosComingProps {
  plan: Pick<Plan, 'id' | 'slug' | 'hostId' | 'status'>;
  /** The viewer's role (usePlanRole): the host and co-hosts get the actions of personActions. */
  role?: ParticipantRole | null;
}

export function WhosComing({ plan, role = null }: WhosComingProps) {
  const planId = plan.id;
  const { data: participants, isPending, isError, refetch, isRefetching } = useQuery(planParticipantsQueryOptions(planId));
  const removal = useRemoval(plan);
  const setCohost = useSetCohost(planId);
  // Once a date is locked: going first, each one's answer, the host's and co-hosts' Answer.
  const answers = useWhosComingAnswers(plan, role !== null);
  const actionsFor = (participant: Participant): PersonActions => ({
    ...personActions(role, participant, plan.hostId, {
      remove: () => removal.ask(participant),
      toggleCohost: () => setCohost.mutate({ participant, cohost: participant.role !== 'cohost' }),
    }),
    togglePending: setCohost.isPending && setCohost.variables?.participant.id === participant.id,
    answerFor: answers.answerFor(participant),
  });

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="whos-coming-title">
      <Title id="whos-coming-title" order={2} fz="h4" mb="sm">
        Who's coming
      </Title>
      {isPending ? (
        // The size of the loaded stack (38 px avatars in a 44 px tap row), so
        // nothing below moves when the people arrive.
        <Group gap={4} mih={44} role="status" aria-label="Loading who's coming">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} circle height={38} aria-hidden="true" />
          ))}
        </Group>
      ) : isError ? (
        <Group gap="sm">
          <Text c="dimmed" fz="sm">
            Couldn't load who's coming.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => refetch()} disabled={isRefetching}>
            Try again
          </Button>
        </Group>
      ) : participants.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No one has joined yet.
        </Text>
      ) : (
        <ParticipantStack
          participants={answers.order(participants)}
          actionsFor={actionsFor}
          said={answers.said}
          removedOf={role ? planId : undefined}
        />
      )}
      {role && removal.dialog}
      {answers.dialog}
    </Card>
  );
}

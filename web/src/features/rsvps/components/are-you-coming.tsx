import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PendingMark } from '../../../components/pending-mark';
import { colors } from '../../../lib/colors';
import { useAnswer, type Answerer } from '../mutations';
import { rsvpsQueryOptions } from '../queries';
import { friendsHint, isAsked, isFull, myAnswerLine } from '../rsvps';
import { AnswerChoices, FriendsStepper } from './answer-choices';
import { AreYouComingSkeleton } from './are-you-coming-skeleton';
import { CapacityDialog, spotsLine } from './capacity-dialog';

interface AreYouComingProps {
  planId: string;
  who: Answerer;
  /** The host (or a co-host): the spots and friends settings too. */
  canHost?: boolean;
}

/**
 * "Are you coming?" (docs/decisions/0103-whos-coming-on-the-screens.md): once
 * a date is locked, first on the plan page and the guest's dashboard. Going,
 * Maybe, Can't go each answer at once (through the device's outbox, so with
 * no network it waits, marked); with Going, the friends stepper. After a new
 * date it asks again; an answer the host set says so until the person
 * changes it.
 */
export function AreYouComing({ planId, who, canHost = false }: AreYouComingProps) {
  const guestId = who.kind === 'guest' ? who.guestId : null;
  const { data: rsvps, isPending, isError, refetch, isRefetching } = useQuery(rsvpsQueryOptions(planId, guestId));
  const { answer, pending } = useAnswer(planId, who);
  const [settingSpots, setSettingSpots] = useState(false);

  if (isPending) return <AreYouComingSkeleton />;
  if (isError) {
    return (
      <Card withBorder radius="lg" padding="lg">
        <Group gap="sm">
          <Text c="dimmed" fz="sm">
            Couldn't load the answers.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => refetch()} disabled={isRefetching}>
            Try again
          </Button>
        </Group>
      </Card>
    );
  }

  const asked = isAsked(rsvps);
  const mine = asked ? null : rsvps.mine;
  const status = mine && myAnswerLine(mine);
  const plusOnes = mine?.plusOnes ?? 0;
  const goingNow = mine?.answer === 'going' || mine?.answer === 'waitlist';
  const full = isFull(rsvps);

  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="section"
      aria-labelledby="are-you-coming-title"
      bg={asked ? colors.tint : undefined}
    >
      <Stack gap="md">
        <div>
          <Title id="are-you-coming-title" order={2} fz="h4">
            {rsvps.askAgain ? 'New date: are you still coming?' : 'Are you coming?'}
          </Title>
          {status && (
            <Group gap="xs" mt={4} wrap="wrap">
              <Text fw={600} c={colors.accentText}>
                {status}
              </Text>
              {mine?.setByHost && (
                <Text fz="sm" c="dimmed">
                  (set by the host)
                </Text>
              )}
            </Group>
          )}
          {pending?.waiting && <PendingMark label="Your answer is waiting for connection" />}
          {full && !goingNow && (
            <Text fz="sm" c="dimmed" mt={4}>
              Every spot is taken: Going puts you on the waitlist.
            </Text>
          )}
        </div>
        <AnswerChoices current={mine?.answer ?? null} onChoose={(choice) => void answer(choice, choice === 'going' ? plusOnes : 0)} />
        {goingNow && rsvps.maxPlusOnes > 0 && (
          <FriendsStepper
            value={Math.min(plusOnes, rsvps.maxPlusOnes)}
            max={rsvps.maxPlusOnes}
            hint={friendsHint(rsvps.maxPlusOnes)}
            onChange={(count) => void answer('going', count)}
          />
        )}
        {canHost && (
          <Group justify="space-between" gap="xs">
            <Text fz="sm" c="dimmed">
              {spotsLine(rsvps)}
            </Text>
            <Button variant="light" onClick={() => setSettingSpots(true)}>
              Spots and friends
            </Button>
          </Group>
        )}
      </Stack>
      {canHost && <CapacityDialog planId={planId} rsvps={rsvps} opened={settingSpots} onClose={() => setSettingSpots(false)} />}
    </Card>
  );
}

import { useId } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '../../../components/icons';
import { PendingMark } from '../../../components/pending-mark';
import { VoterAvatars } from '../../../components/voter-avatars';
import { formatShortDate } from '../../../lib/local-date';
import { formatPeriod } from '../../../lib/shared-periods';
import { answersLabel } from '../../../lib/voters';
import type { DateAnswer, TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { slotVotersQueryOptions } from '../queries';
import type { PendingDateVote } from '../vote-mutations';
import { IconIfNeedBe } from './answer-controls';

interface DateListProps {
  planId: string;
  slots: TimeSlot[];
  /** The visitor's own answer on each slot it voted on. */
  myAnswers: ReadonlyMap<string, DateAnswer>;
  /** The slot's vote on its way, or kept on the device until the network is back. */
  pendingVote: (slot: TimeSlot) => PendingDateVote | undefined;
  onToggle: (slot: TimeSlot) => void;
  /** Host controls (spec §2): 'Pick Date' on a day with votes, and 'Leading' on the API's leading date. */
  canPickDate: boolean;
  onPickDate: (date: string) => void;
  pickingDate: string | null;
  lockedDate: string | null | undefined;
  /** A cancelled plan (docs/decisions/0100-cancelling-a-plan.md): the votes show, "I'm free" is off. */
  frozen?: boolean;
}

/** Spec §9: voter avatars show 4 in the date list, then '+N'. */
const DATE_LIST_MAX_VOTERS = 4;

const slotLabel = (slot: Pick<TimeSlot, 'date' | 'period'>) => {
  const period = formatPeriod(slot.period);
  return period ? `${formatShortDate(slot.date)} · ${period}` : formatShortDate(slot.date);
};

function DateRow({ planId, slot, mine, busy, waiting, onToggle, canPickDate, onPickDate, picking, pickDisabled, picked, frozen }: {
  planId: string;
  slot: TimeSlot;
  mine: DateAnswer | null;
  busy: boolean;
  waiting: boolean;
  onToggle: () => void;
  canPickDate: boolean;
  onPickDate: () => void;
  picking: boolean;
  pickDisabled: boolean;
  picked: boolean;
  frozen: boolean;
}) {
  const labelId = useId();
  return (
    <Card component="li" withBorder radius="md" padding="sm" aria-labelledby={labelId}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" miw={0}>
            <Text id={labelId} fw={700} fz="sm" truncate>
              {slotLabel(slot)}
            </Text>
            {picked && (
              <Badge size="sm" color="teal.9" variant="light" style={{ flexShrink: 0 }}>
                Picked
              </Badge>
            )}
            {canPickDate && slot.leading && (
              // The host's hint: the API's ranking (most yes, then most if need be, then earliest), never the screen's own.
              <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
                Leading
              </Badge>
            )}
          </Group>
          <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {answersLabel(slot.voteCount, slot.ifNeedBeCount)}
          </Text>
        </Group>
        <Group justify="space-between" wrap="nowrap" gap="xs" mih={28}>
          {waiting ? (
            <PendingMark label={`Your vote on ${slotLabel(slot)} is waiting for connection`} />
          ) : (
            <VoterAvatars
              voters={slotVotersQueryOptions(planId, slot.id)}
              voteCount={slot.voteCount + (slot.ifNeedBeCount ?? 0)}
              max={DATE_LIST_MAX_VOTERS}
            />
          )}
          <Group gap={6} wrap="nowrap" ml="auto">
            <Button
              size="compact-sm"
              // The visitor's yes filled with a check; its "if need be" outlined with a question mark and said in words.
              variant={mine === 'yes' ? 'filled' : mine === 'ifneedbe' ? 'outline' : 'light'}
              aria-pressed={mine === 'ifneedbe' ? 'mixed' : mine === 'yes'}
              aria-describedby={labelId}
              onClick={onToggle}
              disabled={frozen}
              // The vote shows at once; a second tap waits for the first.
              aria-busy={busy || undefined}
              leftSection={mine === 'yes' ? <IconCheck size={14} /> : mine === 'ifneedbe' ? <IconIfNeedBe size={14} /> : undefined}
              style={mine === 'ifneedbe' ? { borderStyle: 'dashed' } : undefined}
            >
              {mine === 'ifneedbe' ? "I'm free if need be" : "I'm free"}
            </Button>
            {canPickDate && (
              <Button
                size="compact-sm"
                // Teal 9: white on the default teal (7) is 3.1:1, under WCAG AA.
                color="teal.9"
                aria-describedby={labelId}
                onClick={onPickDate}
                disabled={pickDisabled}
                loading={picking}
              >
                Pick Date
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The dates people are free on, with their voters (4 avatars, then '+N'). The
 * visitor can toggle their own vote here too (the only place for dates beyond
 * two weeks or for a set time), and the host picks a date with votes.
 */
export function DateList({ planId, slots, myAnswers, pendingVote, onToggle, canPickDate, onPickDate, pickingDate, lockedDate, frozen = false }: DateListProps) {
  if (slots.length === 0) {
    return (
      <Text c="dimmed" fz="sm" ta="center" py="sm">
        No votes yet. Be the first to say when you're free!
      </Text>
    );
  }
  return (
    <section aria-labelledby="date-list-title">
      <Title id="date-list-title" order={3} fz="md" mb="xs">
        When people are free
      </Title>
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {slots.map((slot) => (
          <DateRow
            key={slot.id}
            planId={planId}
            slot={slot}
            mine={myAnswers.get(slot.id) ?? null}
            busy={pendingVote(slot) !== undefined}
            waiting={pendingVote(slot)?.waiting ?? false}
            onToggle={() => onToggle(slot)}
            canPickDate={canPickDate && slot.voteCount + (slot.ifNeedBeCount ?? 0) > 0}
            onPickDate={() => onPickDate(slot.date)}
            picking={pickingDate === slot.date}
            pickDisabled={pickingDate !== null}
            picked={!slot.period && lockedDate === slot.date}
            frozen={frozen}
          />
        ))}
      </Stack>
    </section>
  );
}

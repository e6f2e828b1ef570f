import { Badge, Box, Card, Group, Loader, SimpleGrid, Text, Title, UnstyledButton } from '@mantine/core';
import { formatLongDate, parseLocalDate } from '../../../lib/local-date';
import { IconCheck } from '../../../components/icons';
import type { TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { votesLabel } from './voter-avatars';
import classes from './next-two-weeks.module.css';

interface NextTwoWeeksProps {
  days: string[];
  /** The whole-day slot of each date that has one. */
  slotsByDate: ReadonlyMap<string, TimeSlot>;
  votedSlotIds: ReadonlySet<string>;
  isPending: (date: string) => boolean;
  onToggle: (date: string) => void;
  /** The date the host locked, marked 'Picked'. */
  lockedDate?: string | null;
}

const part = (date: string, options: Intl.DateTimeFormatOptions) =>
  parseLocalDate(date)?.toLocaleDateString('en-US', options) ?? date;

/**
 * Spec §2 'Next 2 Weeks': today and the 13 days after it, two rows of seven
 * (46 px cells fit a 390 px phone). A tap votes or unvotes the whole day; the
 * cell shows the day's votes and, filled, the visitor's own vote.
 */
export function NextTwoWeeks({ days, slotsByDate, votedSlotIds, isPending, onToggle, lockedDate }: NextTwoWeeksProps) {
  const range = `${part(days[0]!, { month: 'short', day: 'numeric' })} – ${part(days.at(-1)!, { month: 'short', day: 'numeric' })}`;
  return (
    <Card withBorder radius="lg" padding="md" component="section" aria-labelledby="next-two-weeks-title">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title id="next-two-weeks-title" order={3} fz="md">
          Next 2 Weeks
        </Title>
        <Text fz="sm" c="dimmed">
          {range}
        </Text>
      </Group>
      <Text fz="sm" c="dimmed" mb="sm">
        Tap the days you're free. Tap again to undo.
      </Text>
      <SimpleGrid cols={7} spacing={4} verticalSpacing={6} component="ul" className={classes.grid} data-week-grid>
        {days.map((date) => {
          const slot = slotsByDate.get(date);
          const count = slot?.voteCount ?? 0;
          const mine = slot ? votedSlotIds.has(slot.id) : false;
          const busy = isPending(date);
          // A day with a slot shows the vote at once; a first vote on a day
          // waits for the server, which creates its slot.
          const waiting = busy && !slot;
          const picked = lockedDate === date;
          const label = `${formatLongDate(date)}: ${votesLabel(count)}${mine ? ", you're free" : ''}${picked ? ', picked by the host' : ''}`;
          return (
            <li key={date}>
              <UnstyledButton
                className={classes.day}
                data-mine={mine || undefined}
                data-picked={picked || undefined}
                aria-pressed={mine}
                aria-label={label}
                aria-busy={busy || undefined}
                disabled={waiting}
                onClick={() => onToggle(date)}
              >
                <Text component="span" fz={11} fw={600} className={classes.weekday} aria-hidden="true">
                  {part(date, { weekday: 'short' })}
                </Text>
                <Text component="span" fz="lg" fw={800} lh={1.1} aria-hidden="true">
                  {part(date, { day: 'numeric' })}
                </Text>
                <Box h={18} aria-hidden="true" className={classes.status}>
                  {waiting ? (
                    <Loader size={12} color={mine ? 'white' : 'violet'} />
                  ) : mine ? (
                    <Group gap={2} justify="center" wrap="nowrap">
                      <IconCheck size={12} />
                      <span>{count}</span>
                    </Group>
                  ) : count > 0 ? (
                    <Badge size="xs" variant="light" circle>
                      {count}
                    </Badge>
                  ) : null}
                </Box>
              </UnstyledButton>
            </li>
          );
        })}
      </SimpleGrid>
    </Card>
  );
}

import { Badge, Box, Card, Group, Loader, SimpleGrid, Text, Title, UnstyledButton } from '@mantine/core';
import { formatLongDate, parseLocalDate } from '../../../lib/local-date';
import { IconCheck, IconClock } from '../../../components/icons';
import { PendingMark } from '../../../components/pending-mark';
import { answersLabel } from '../../../lib/voters';
import type { DateAnswer, TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { busyLabel, type BusyRange } from '../busy-calendar';
import type { PendingDateVote } from '../vote-mutations';
import { AnswerSwitch, IconIfNeedBe } from './answer-controls';
import classes from './next-two-weeks.module.css';

interface NextTwoWeeksProps {
  days: string[];
  /** The whole-day slot of each date that has one. */
  slotsByDate: ReadonlyMap<string, TimeSlot>;
  /** The visitor's own answer on each slot it voted on. */
  myAnswers: ReadonlyMap<string, DateAnswer>;
  /** What a tap says now, and how the visitor changes it. */
  answer: DateAnswer;
  onAnswerChange: (answer: DateAnswer) => void;
  /** The day's vote on its way, or kept on the device until the network is back. */
  pendingVote: (date: string) => PendingDateVote | undefined;
  onToggle: (date: string) => void;
  /** Some of the visitor's date votes are kept on the device until the network is back. */
  waiting?: boolean;
  /** The date the host locked, marked 'Picked'. */
  lockedDate?: string | null;
  /** The visitor's busy hours on a day, from their imported calendar (undefined: free, or nothing imported). */
  busyOn?: (date: string) => readonly BusyRange[] | undefined;
  /** A calendar is imported: every day keeps a line for 'Busy', so the days line up. */
  showBusy?: boolean;
}

const part = (date: string, options: Intl.DateTimeFormatOptions) =>
  parseLocalDate(date)?.toLocaleDateString('en-US', options) ?? date;

/** ", you're free" after a day the visitor said yes to, ", you're free if need be" after the other answer. */
const mineLabel = (mine: DateAnswer | null) => (mine === 'yes' ? ", you're free" : mine === 'ifneedbe' ? ", you're free if need be" : '');

/**
 * Spec §2 'Next 2 Weeks': today and the 13 days after it, two rows of seven
 * (46 px cells fit a 390 px phone). A tap votes or unvotes the whole day with
 * the answer the switch above says (yes unless the visitor chose "If need
 * be"); the cell shows the day's votes and, filled, the visitor's own yes, or
 * striped with a question mark, its "if need be" (docs/decisions/0109-if-need-be-on-the-screens.md).
 */
export function NextTwoWeeks({
  days,
  slotsByDate,
  myAnswers,
  answer,
  onAnswerChange,
  pendingVote,
  onToggle,
  waiting = false,
  lockedDate,
  busyOn,
  showBusy = false,
}: NextTwoWeeksProps) {
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
      <AnswerSwitch value={answer} onChange={onAnswerChange} />
      <SimpleGrid cols={7} spacing={4} verticalSpacing={6} component="ul" className={classes.grid} data-week-grid>
        {days.map((date) => {
          const slot = slotsByDate.get(date);
          const pending = pendingVote(date);
          const busy = pending !== undefined;
          const offline = pending?.waiting ?? false;
          // A day with a slot shows the vote at once; a first vote on a day
          // waits for the server, which creates its slot, unless there is no
          // network: then the day shows it, kept until it can be sent.
          const creating = busy && !slot && !offline;
          const unsent = offline && !slot && pending?.voted !== false ? (pending?.answer ?? 'yes') : null;
          const count = slot?.voteCount ?? (unsent === 'yes' ? 1 : 0);
          const ifNeedBe = slot?.ifNeedBeCount ?? (unsent === 'ifneedbe' ? 1 : 0);
          const mine = slot ? (myAnswers.get(slot.id) ?? null) : unsent;
          const picked = lockedDate === date;
          const busyRanges = busyOn?.(date);
          // 'Friday, November 27: busy 7 PM–9 PM, 1 vote, you're free': the busy hours first, where they help decide.
          const label = `${formatLongDate(date)}: ${busyRanges ? `${busyLabel(busyRanges)}, ` : ''}${answersLabel(count, ifNeedBe)}${mineLabel(mine)}${picked ? ', picked by the host' : ''}${offline ? ', waiting for connection' : ''}`;
          return (
            <li key={date}>
              <UnstyledButton
                className={classes.day}
                data-mine={mine === 'yes' || undefined}
                data-ifneedbe={mine === 'ifneedbe' || undefined}
                data-picked={picked || undefined}
                data-busy={busyRanges ? true : undefined}
                // "mixed": the visitor's "if need be", between no and yes.
                aria-pressed={mine === 'ifneedbe' ? 'mixed' : mine === 'yes'}
                aria-label={label}
                aria-busy={busy || undefined}
                disabled={creating}
                onClick={() => onToggle(date)}
              >
                <Text component="span" fz={11} fw={600} className={classes.weekday} aria-hidden="true">
                  {part(date, { weekday: 'short' })}
                </Text>
                <Text component="span" fz="lg" fw={800} lh={1.1} aria-hidden="true">
                  {part(date, { day: 'numeric' })}
                </Text>
                <Box h={18} aria-hidden="true" className={classes.status}>
                  {creating ? (
                    <Loader size={12} color={mine === 'yes' ? 'white' : 'violet'} />
                  ) : mine || offline ? (
                    <Group gap={2} justify="center" wrap="nowrap">
                      {offline ? <IconClock size={12} /> : mine === 'ifneedbe' ? <IconIfNeedBe size={12} /> : <IconCheck size={12} />}
                      {(mine || count > 0) && <span>{count}</span>}
                      {ifNeedBe > 0 && <span className={classes.ifNeedBe}>{ifNeedBe}?</span>}
                    </Group>
                  ) : count > 0 || ifNeedBe > 0 ? (
                    <Group gap={2} justify="center" wrap="nowrap">
                      {count > 0 && (
                        <Badge size="xs" variant="light" circle>
                          {count}
                        </Badge>
                      )}
                      {ifNeedBe > 0 && <span className={classes.ifNeedBe}>{ifNeedBe}?</span>}
                    </Group>
                  ) : null}
                </Box>
                {showBusy && (
                  <Text component="span" fz={10} fw={700} lh="14px" h={14} className={classes.busy} aria-hidden="true">
                    {busyRanges ? 'Busy' : ''}
                  </Text>
                )}
              </UnstyledButton>
            </li>
          );
        })}
      </SimpleGrid>
      {waiting && (
        <Box mt="xs">
          <PendingMark label="Your date votes are waiting for connection" />
        </Box>
      )}
    </Card>
  );
}

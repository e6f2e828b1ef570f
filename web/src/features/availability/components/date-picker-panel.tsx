import '@mantine/dates/styles.css';
import { useId, useState, type CSSProperties } from 'react';
import { Button, Card, Collapse, Group, Text, UnstyledButton } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar } from '../../../components/icons';
import { formatLongDate } from '../../../lib/local-date';
import { busyLabel, type BusyRange } from '../busy-calendar';
import { votingWindow } from '../date-window';
import type { DateAnswer } from '../../../../../supabase/functions/_shared/contract/dates';
import { IconIfNeedBe } from './answer-controls';

interface DatePickerPanelProps {
  today: string;
  /** The visitor's answer on each date it marked (whole day): shown marked, never toggled off here. */
  myDates: ReadonlyMap<string, DateAnswer>;
  /** What OK says for each chosen date (the switch above the grid): yes, or "if need be". */
  answer: DateAnswer;
  /** Votes for one date with `answer`; resolves false when it failed (the toast is shown). */
  voteDate: (date: string) => Promise<boolean>;
  /** The visitor's busy hours on a day, from their imported calendar. */
  busyOn?: (date: string) => readonly BusyRange[] | undefined;
}

const CALENDAR_LABELS = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
  monthLevelControl: 'Choose a month',
  yearLevelControl: 'Choose a year',
};

/**
 * A day of the picker: its number, 'Busy' under it on a day the visitor's
 * calendar fills, and a question mark on a day it said "if need be" to.
 */
function PickerDay({ date, busy, ifNeedBe }: { date: string; busy: boolean; ifNeedBe: boolean }) {
  const day = Number(date.slice(8, 10));
  if (!busy && !ifNeedBe) return day;
  return (
    <span style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', lineHeight: 1 }}>
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        {day}
        {ifNeedBe && <IconIfNeedBe size={10} data-answer="ifneedbe" />}
      </span>
      {busy && <span style={{ fontSize: 9, fontWeight: 700, marginTop: 2 }}>Busy</span>}
    </span>
  );
}

/** The visitor's own mark on a day: underlined for yes, a dashed underline (and the question mark) for "if need be". */
const MARKS: Record<DateAnswer, { style: CSSProperties; label: string }> = {
  yes: { style: { fontWeight: 800, textDecoration: 'underline' }, label: ", you're free" },
  ifneedbe: { style: { fontWeight: 800, textDecoration: 'underline dashed' }, label: ", you're free if need be" },
};

const datesLabel = (count: number) => `${count} ${count === 1 ? 'date' : 'dates'}`;

/**
 * Spec §2: the expandable 'Date Picker', a multi-select calendar of the
 * allowed window. 'OK (n dates)' votes each chosen date in turn ('Voting...')
 * with the answer the switch above the grid says, stopping at the first
 * failure; 'Cancel' clears the selection. A date the visitor already gave
 * that answer is skipped, so OK never takes a vote away (another answer is
 * replaced by it).
 */
export function DatePickerPanel({ today, myDates, answer, voteDate, busyOn }: DatePickerPanelProps) {
  const [opened, setOpened] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [voting, setVoting] = useState(false);
  const panelId = useId();
  const { minDate, maxDate } = votingWindow(today);

  async function submit() {
    setVoting(true);
    const chosen = [...selected].sort();
    const done = new Set<string>();
    let failed = false;
    for (const date of chosen) {
      if (myDates.get(date) !== answer && !(await voteDate(date))) {
        failed = true;
        break;
      }
      done.add(date);
    }
    setVoting(false);
    // After a failure the dates not yet voted stay chosen, so OK retries only those.
    setSelected((current) => current.filter((date) => !done.has(date)));
    if (!failed) setOpened(false);
  }

  return (
    <Card withBorder radius="lg" padding="md" component="section" aria-label="Date Picker">
      <UnstyledButton
        onClick={() => setOpened((current) => !current)}
        aria-expanded={opened}
        aria-controls={panelId}
        w="100%"
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconCalendar size={18} />
            <Text component="span" fw={700}>
              Date Picker
            </Text>
          </Group>
          <Text component="span" fz="sm" c="dimmed">
            {opened ? 'Hide' : 'More dates'}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened} id={panelId}>
        <Text fz="sm" c="dimmed" mt="sm">
          Choose every date that works for you, then tap OK.
        </Text>
        {answer === 'ifneedbe' && (
          <Text fz="sm" mt={4}>
            OK marks them "if need be".
          </Text>
        )}
        <Group justify="center" mt="sm">
          <DatePicker
            type="multiple"
            value={selected}
            onChange={setSelected}
            minDate={minDate}
            maxDate={maxDate}
            defaultDate={today}
            firstDayOfWeek={0}
            locale="en"
            ariaLabels={CALENDAR_LABELS}
            getDayAriaLabel={(date) => {
              const busy = busyOn?.(date);
              const mine = myDates.get(date);
              return `${formatLongDate(date)}${busy ? `, ${busyLabel(busy)}` : ''}${mine ? MARKS[mine].label : ''}`;
            }}
            renderDay={(date) => <PickerDay date={date} busy={Boolean(busyOn?.(date))} ifNeedBe={myDates.get(date) === 'ifneedbe'} />}
            getDayProps={(date) => {
              const mine = myDates.get(date);
              return mine ? { style: MARKS[mine].style } : {};
            }}
          />
        </Group>
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={() => setSelected([])} disabled={voting || selected.length === 0}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={voting || selected.length === 0}>
            {voting ? 'Voting...' : `OK (${datesLabel(selected.length)})`}
          </Button>
        </Group>
      </Collapse>
    </Card>
  );
}

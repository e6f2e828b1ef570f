import '@mantine/dates/styles.css';
import { useId, useState } from 'react';
import { Button, Card, Collapse, Group, Text, UnstyledButton } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar } from '../../../components/icons';
import { formatLongDate } from '../../../lib/local-date';
import { busyLabel, type BusyRange } from '../busy-calendar';
import { votingWindow } from '../date-window';

interface DatePickerPanelProps {
  today: string;
  /** Dates the visitor already marked free (whole day): shown selected-looking, never toggled off here. */
  votedDates: ReadonlySet<string>;
  /** Votes for one date; resolves false when it failed (the toast is shown). */
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

/** A day of the picker: its number, and 'Busy' under it on a day the visitor's calendar fills. */
function PickerDay({ date, busy }: { date: string; busy: boolean }) {
  const day = Number(date.slice(8, 10));
  if (!busy) return day;
  return (
    <span style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', lineHeight: 1 }}>
      <span>{day}</span>
      <span style={{ fontSize: 9, fontWeight: 700, marginTop: 2 }}>Busy</span>
    </span>
  );
}

const datesLabel = (count: number) => `${count} ${count === 1 ? 'date' : 'dates'}`;

/**
 * Spec §2: the expandable 'Date Picker', a multi-select calendar of the
 * allowed window. 'OK (n dates)' votes each chosen date in turn ('Voting...'),
 * stopping at the first failure; 'Cancel' clears the selection. A date the
 * visitor already voted for is skipped, so OK never takes a vote away.
 */
export function DatePickerPanel({ today, votedDates, voteDate, busyOn }: DatePickerPanelProps) {
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
      if (!votedDates.has(date) && !(await voteDate(date))) {
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
              return `${formatLongDate(date)}${busy ? `, ${busyLabel(busy)}` : ''}${votedDates.has(date) ? ", you're free" : ''}`;
            }}
            renderDay={(date) => <PickerDay date={date} busy={Boolean(busyOn?.(date))} />}
            getDayProps={(date) => (votedDates.has(date) ? { style: { fontWeight: 800, textDecoration: 'underline' } } : {})}
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

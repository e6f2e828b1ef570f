import { useId, useRef } from 'react';
import { Button, Card, FileButton, Group, Text, Title } from '@mantine/core';
import { IconCalendar } from '../../../components/icons';
import { importSummary } from '../busy-calendar';
import { plusDays, votingWindow } from '../date-window';
import type { CalendarImportState } from '../use-calendar-import';

const importedOn = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
};

/**
 * 'Your calendar', under the Next 2 Weeks days (docs/calendars.md "Your
 * calendar in your availability"): 'Import my calendar (.ics)' opens the
 * phone's file picker; the file is read on the device and its busy days
 * marked on the days above and in the Date Picker. After an import, a summary
 * (a status) and 'Clear calendar'; a file that is no calendar gets one
 * sentence (an alert).
 */
export function CalendarImportControl({ state, today }: { state: CalendarImportState; today: string }) {
  const { calendar, reading, error, importFile, clear } = state;
  const resetRef = useRef<() => void>(null);
  const summary = calendar
    ? importSummary(calendar, { today, twoWeeksEnd: plusDays(today, 13), yearEnd: votingWindow(today).maxDate })
    : '';
  const imported = calendar ? importedOn(calendar.importedAt) : '';
  const titleId = useId();

  return (
    <Card withBorder radius="lg" padding="md" component="section" aria-labelledby={titleId}>
      <Title id={titleId} order={3} fz="md" mb={4}>
        Your calendar
      </Title>
      <Text fz="sm" role="status">
        {reading ? 'Reading your calendar…' : summary}
      </Text>
      <Text fz="xs" c="dimmed" mb="sm">
        {calendar
          ? `${imported ? `Imported ${imported}. ` : ''}The file stays on this phone: it is never uploaded.`
          : 'See your busy days on the dates. The file is read on this phone and never uploaded.'}
      </Text>
      <Group gap="xs">
        <FileButton
          onChange={(file) => void importFile(file).finally(() => resetRef.current?.())}
          accept=".ics,text/calendar"
          resetRef={resetRef}
          disabled={reading}
        >
          {(props) => (
            <Button {...props} variant="light" size="sm" leftSection={<IconCalendar size={16} />} loading={reading}>
              Import my calendar (.ics)
            </Button>
          )}
        </FileButton>
        {calendar && (
          <Button variant="default" size="sm" onClick={clear} disabled={reading}>
            Clear calendar
          </Button>
        )}
      </Group>
      {error && (
        <Text fz="sm" c="var(--mantine-color-error)" role="alert" mt="xs">
          {error}
        </Text>
      )}
    </Card>
  );
}

import { useState } from 'react';
import { Box, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconCalendar, IconCopy } from '../../../components/icons';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessToast } from '../../../lib/toast';
import { webcalUrl } from '../../../../../supabase/functions/_shared/contract/calendar-feed';
import { calendarFeedQueryOptions, useResetCalendarFeed } from '../calendar-feed';

async function copyFeedLink(url: string): Promise<void> {
  try {
    await copyText(url);
    showSuccessToast('Link copied!', 'Paste it where your calendar asks for a URL');
  } catch {
    showErrorMessage('Failed to copy', 'Please copy the link manually');
  }
}

/** Where each calendar app takes the link (docs/calendars.md "Your plans in your calendar"). */
const APPS: Array<{ name: string; how: string }> = [
  { name: 'Apple Calendar', how: 'tap Subscribe.' },
  { name: 'Google Calendar', how: 'in Settings, choose Add calendar, then From URL, and paste the link.' },
  { name: 'Outlook', how: 'choose Add calendar, then Subscribe from web, and paste the link.' },
];

/**
 * "Subscribe in your calendar" (docs/calendars.md): the member's personal feed URL
 * (asked for when the card is shown), with Copy, a webcal:// Subscribe link
 * and how each calendar app takes it; "Reset link" makes a new one and the
 * old one stops working at once, so it asks first.
 */
export function CalendarFeedCard() {
  const feed = useQuery(calendarFeedQueryOptions());
  const reset = useResetCalendarFeed();
  const [confirming, setConfirming] = useState(false);
  const url = feed.data?.url;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="calendar-feed-title">
      <Stack gap="sm">
        <Title id="calendar-feed-title" order={2} fz="h4">
          Subscribe in your calendar
        </Title>
        <Text c="dimmed" fz="sm">
          Every plan you're in appears in your calendar once its date is set, and moves or leaves with it. Anyone with
          this link can see your plans, so keep it to yourself.
        </Text>
        {url ? (
          <>
            <TextInput
              label="Your calendar link"
              value={url}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
            />
            <Group grow gap="sm">
              <Button variant="default" leftSection={<IconCopy size={18} />} onClick={() => void copyFeedLink(url)}>
                Copy link
              </Button>
              <Button component="a" href={webcalUrl(url)} color="violet" leftSection={<IconCalendar size={18} />}>
                Subscribe
              </Button>
            </Group>
            <Box component="ul" m={0} pl="md" aria-label="How to subscribe">
              {APPS.map((app) => (
                <Text component="li" fz="sm" key={app.name}>
                  <strong>{app.name}:</strong> {app.how}
                </Text>
              ))}
            </Box>
            <Button variant="subtle" color="red" onClick={() => setConfirming(true)} disabled={reset.isPending}>
              Reset link
            </Button>
          </>
        ) : feed.isError ? (
          <Group justify="space-between" gap="sm">
            <Text fz="sm">Your calendar link could not be loaded.</Text>
            <Button variant="default" onClick={() => void feed.refetch()} loading={feed.isFetching}>
              Try again
            </Button>
          </Group>
        ) : (
          <Group gap="sm" role="status">
            <Loader size="sm" color="violet" />
            <Text fz="sm">Loading your calendar link...</Text>
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Reset your calendar link?"
        message="The old link stops working at once: calendars subscribed to it stop updating until you subscribe again with the new link."
        confirmLabel="Reset link"
        pendingLabel="Resetting..."
        pending={reset.isPending}
        onConfirm={() => reset.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </Card>
  );
}

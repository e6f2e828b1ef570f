import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { HostTimeNote } from '../../../components/host-time-note';
import { IconCheck, IconShare } from '../../../components/icons';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessToast } from '../../../lib/toast';
import { useUnlockPlan } from '../../plans';
import type { Plan } from '../../plans';
import { eventDetailsText } from '../share-details';
import { confirmedTime } from './confirmed';
import { colors } from '../../../lib/colors';

/** The native share sheet where there is one, else the clipboard. */
async function shareDetails(plan: Plan) {
  const text = eventDetailsText(plan, window.location.origin);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: plan.title, text });
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return; // closed by the user
    }
  }
  try {
    await copyText(text);
    showSuccessToast('Details copied!', 'Paste them anywhere to share');
  } catch {
    showErrorMessage('Failed to copy', 'Please copy the details manually');
  }
}

/** Spec §2: the host's view of the plan tab once the time is set. */
export function FinalTimeSet({ plan }: { plan: Plan }) {
  const unlock = useUnlockPlan(plan.id);
  const time = confirmedTime(plan);
  if (!time) return null;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="final-time-set" bg={colors.success}>
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="teal" size={40} radius="xl" aria-hidden="true">
            <IconCheck size={22} />
          </ThemeIcon>
          <div>
            <Title id="final-time-set" order={2} fz="h4">
              Final Time Set
            </Title>
            <Text fw={700}>
              {time.date}
              {time.period && ` at ${time.period}`}
            </Text>
            <HostTimeNote plan={plan} />
          </div>
        </Group>
        <Text fz="sm" c="dimmed">
          All participants have been notified of the final event time.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Button variant="default" onClick={() => unlock.mutate()} loading={unlock.isPending}>
            Unlock & Revote
          </Button>
          <Button leftSection={<IconShare size={16} />} onClick={() => void shareDetails(plan)}>
            Share Details
          </Button>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

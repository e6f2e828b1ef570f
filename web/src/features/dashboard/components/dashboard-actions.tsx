import type { ReactNode } from 'react';
import { Box, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBulb, IconCalendar, IconCheck } from '../../../components/icons';

type VotingTab = 'ideas' | 'availability';

/** The two big shortcuts under the greeting: each opens its tab and scrolls to it. */
export function DashboardShortcuts({ onOpen }: { onOpen: (tab: VotingTab) => void }) {
  const shortcut = (tab: VotingTab, icon: ReactNode, label: string) => (
    <Button variant="light" size="md" h="auto" py="md" onClick={() => onOpen(tab)} styles={{ label: { whiteSpace: 'normal' } }}>
      <Box component="span" display="flex" style={{ flexDirection: 'column', alignItems: 'center', gap: 6 }}>
        {icon}
        {label}
      </Box>
    </Button>
  );
  return (
    <SimpleGrid cols={2} spacing="sm">
      {shortcut('ideas', <IconBulb size={24} />, 'Vote on Ideas')}
      {shortcut('availability', <IconCalendar size={24} />, 'Share Availability')}
    </SimpleGrid>
  );
}

function ProgressRow({ done, label, status, action, onAction }: {
  done: boolean;
  label: string;
  status: string;
  action: string;
  onAction: () => void;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <ThemeIcon variant={done ? 'filled' : 'light'} color={done ? 'green.8' : 'gray'} radius="xl" size={28} aria-hidden="true">
          {done ? <IconCheck size={16} /> : <Box w={8} h={8} bg="gray.5" style={{ borderRadius: '50%' }} />}
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={600}>{label}</Text>
          <Text fz="sm" c="dimmed">
            {status}
          </Text>
        </div>
      </Group>
      <Button variant={done ? 'default' : 'filled'} onClick={onAction} style={{ flexShrink: 0 }}>
        {action}
      </Button>
    </Group>
  );
}

interface DashboardProgressProps {
  onOpen: (tab: VotingTab) => void;
  votedOnIdeas: boolean;
  votedOnDates: boolean;
}

/** What the visitor has done so far, with 'Vote Now' and 'Pick Times' (spec §2). */
export function DashboardProgress({ onOpen, votedOnIdeas, votedOnDates }: DashboardProgressProps) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="dashboard-progress-title">
      <Title id="dashboard-progress-title" order={2} fz="h4" mb="md">
        Your part
      </Title>
      <Stack gap="md">
        <ProgressRow
          done={votedOnIdeas}
          label="Ideas"
          status={votedOnIdeas ? "You've voted" : 'Not voted yet'}
          action="Vote Now"
          onAction={() => onOpen('ideas')}
        />
        <ProgressRow
          done={votedOnDates}
          label="Availability"
          status={votedOnDates ? "You've shared your times" : 'Not shared yet'}
          action="Pick Times"
          onAction={() => onOpen('availability')}
        />
      </Stack>
    </Card>
  );
}

import { Box, Tabs } from '@mantine/core';
import { DashboardAvailabilityTab } from '../../availability';
import { DashboardIdeasTab } from '../../ideas';
import { ParticipantsList, type Plan } from '../../plans';
import type { DashboardTab } from '../dashboard-tab';

/** Mantine names a tab `${tabs id}-tab-${value}`; the dashboard focuses it after a jump. */
const DASHBOARD_TABS_ID = 'dashboard-tabs';
export const dashboardTabId = (tab: DashboardTab) => `${DASHBOARD_TABS_ID}-tab-${tab}`;

/** The dot is for the eyes; screen readers hear ', you voted' in the tab's name instead. */
const votedDot = (
  <Box component="span" display="block" w={8} h={8} bg="green.8" style={{ borderRadius: '50%' }} aria-hidden="true" />
);
const votedLabel = (label: string, voted: boolean) => (voted ? `${label}, you voted` : undefined);

interface DashboardTabsProps {
  plan: Plan;
  tab: DashboardTab;
  onTabChange: (tab: DashboardTab) => void;
  votedOnIdeas: boolean;
  votedOnDates: boolean;
  /** A guest viewer's id (the people tab reads the answers as its card does). */
  guestId?: string | null;
}

/**
 * Ideas and Availability, each with a green dot once the visitor voted there.
 * The people tab (spec: content without a visible trigger) opens by URL only
 * (?tab=people): it is a plain section, since a tab panel needs its tab.
 * Once a date is locked it shows each one's answer, going first.
 */
export function DashboardTabs({ plan, tab, onTabChange, votedOnIdeas, votedOnDates, guestId = null }: DashboardTabsProps) {
  return (
    <Tabs
      id={DASHBOARD_TABS_ID}
      value={tab}
      onChange={(value) => (value === 'ideas' || value === 'availability') && onTabChange(value)}
      keepMounted={false}
      variant="pills"
      radius="xl"
    >
      <Tabs.List grow>
        <Tabs.Tab
          value="ideas"
          rightSection={votedOnIdeas ? votedDot : null}
          aria-label={votedLabel('Ideas', votedOnIdeas)}
        >
          Ideas
        </Tabs.Tab>
        <Tabs.Tab
          value="availability"
          rightSection={votedOnDates ? votedDot : null}
          aria-label={votedLabel('Availability', votedOnDates)}
        >
          Availability
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="ideas" pt="md">
        <DashboardIdeasTab plan={plan} />
      </Tabs.Panel>
      <Tabs.Panel value="availability" pt="md">
        <DashboardAvailabilityTab plan={plan} />
      </Tabs.Panel>
      {tab === 'people' && (
        <Box pt="md">
          <ParticipantsList plan={plan} guestId={guestId} />
        </Box>
      )}
    </Tabs>
  );
}

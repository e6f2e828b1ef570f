import { Suspense, type ComponentType } from 'react';
import { Center, Loader, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';

export interface PlanTabProps {
  planId: string;
  isHost: boolean;
}

export interface PlanTabComponents {
  ideas: ComponentType<PlanTabProps>;
  availability: ComponentType<PlanTabProps>;
}

const TAB_VALUES = ['ideas', 'availability'] as const;
type TabValue = (typeof TAB_VALUES)[number];
const isTabValue = (value: string | null): value is TabValue => TAB_VALUES.includes(value as TabValue);

// Tall enough that what follows the tabs starts below a phone's fold while a
// panel loads, so the panel's arrival moves nothing the visitor can see.
function TabLoader() {
  return (
    <Center py="xl" mih="60vh" role="status" aria-label="Loading">
      <Loader size="sm" />
    </Center>
  );
}

/**
 * Ideas and Availability. The open tab is kept in `?tab=` so a link or a
 * reload opens the same one; only the open panel is mounted (and downloaded).
 */
export function PlanTabs({ planId, isHost, tabs }: PlanTabProps & { tabs: PlanTabComponents }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const active: TabValue = isTabValue(requested) ? requested : 'ideas';
  const { ideas: IdeasPanel, availability: AvailabilityPanel } = tabs;

  const select = (value: string | null) => {
    if (!isTabValue(value)) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <Tabs value={active} onChange={select} keepMounted={false} variant="pills" radius="xl">
      <Tabs.List grow>
        <Tabs.Tab value="ideas">Ideas</Tabs.Tab>
        <Tabs.Tab value="availability">Availability</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="ideas" pt="md">
        <Suspense fallback={<TabLoader />}>
          <IdeasPanel planId={planId} isHost={isHost} />
        </Suspense>
      </Tabs.Panel>
      <Tabs.Panel value="availability" pt="md">
        <Suspense fallback={<TabLoader />}>
          <AvailabilityPanel planId={planId} isHost={isHost} />
        </Suspense>
      </Tabs.Panel>
    </Tabs>
  );
}

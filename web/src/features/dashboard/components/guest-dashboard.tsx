import { Suspense, useRef } from 'react';
import { Box, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { InstallHint } from '../../../components/install-hint';
import { useHasVotedOnDates } from '../../availability';
import { useHasVotedOnIdeas } from '../../ideas';
import { NotificationsCard } from '../../notifications';
import { isPlanCancelled, PlanStatusCard } from '../../plans';
import { answersOpen, AreYouComingSkeleton, LazyAreYouComing } from '../../rsvps';
import type { LinkedPlan } from '../../plans';
import { parseDashboardTab, type DashboardTab } from '../dashboard-tab';
import type { PlanVisitor } from '../../guests';
import { DashboardProgress, DashboardShortcuts } from './dashboard-actions';
import { DashboardBanner } from './dashboard-banner';
import { dashboardTabId, DashboardTabs } from './dashboard-tabs';
import { colors } from '../../../lib/colors';

const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Spec §2 Guest dashboard, for a guest of the plan or a signed-in visitor. */
export function GuestDashboard({ plan, visitor }: { plan: LinkedPlan; visitor: PlanVisitor }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseDashboardTab(searchParams.get('tab'));
  const tabsRef = useRef<HTMLDivElement>(null);
  const votedOnIdeas = useHasVotedOnIdeas(plan.id);
  const votedOnDates = useHasVotedOnDates(plan.id);

  const selectTab = (value: DashboardTab) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', value);
        return next;
      },
      { replace: true },
    );

  /** The shortcuts: switch the tab, bring it into view and put focus on it. */
  const openTab = (value: DashboardTab) => {
    selectTab(value);
    window.requestAnimationFrame(() => {
      tabsRef.current?.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      document.getElementById(dashboardTabId(value))?.focus({ preventScroll: true });
    });
  };

  return (
    <Stack gap="lg">
      <div>
        {visitor.kind === 'guest' && (
          <Text fw={600} c={colors.accentText} style={{ overflowWrap: 'anywhere' }}>
            Welcome, {visitor.name}
          </Text>
        )}
        <Title order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
          {plan.title}
        </Title>
        {plan.description && (
          <Text c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {plan.description}
          </Text>
        )}
      </div>
      {answersOpen(plan) ? (
        // A locked date: the question now is who's coming, not the votes
        // (docs/decisions/0103-whos-coming-on-the-screens.md).
        <>
          <Suspense fallback={<AreYouComingSkeleton />}>
            <LazyAreYouComing planId={plan.id} who={visitor} />
          </Suspense>
          <PlanStatusCard plan={plan} />
        </>
      ) : (
        <>
          <DashboardShortcuts onOpen={openTab} />
          <PlanStatusCard plan={plan} />
          {/* Nothing to vote on once cancelled (docs/decisions/0100-cancelling-a-plan.md). */}
          {!isPlanCancelled(plan) && <DashboardProgress onOpen={openTab} votedOnIdeas={votedOnIdeas} votedOnDates={votedOnDates} />}
        </>
      )}
      {/* Clear of the fixed header when scrolled to. */}
      <Box ref={tabsRef} style={{ scrollMarginTop: 76 }}>
        <DashboardTabs
          plan={plan}
          tab={tab}
          onTabChange={selectTab}
          votedOnIdeas={votedOnIdeas}
          votedOnDates={votedOnDates}
          guestId={visitor.guestId}
        />
      </Box>
      <NotificationsCard identity={visitor} />
      <DashboardBanner slug={plan.slug} isGuest={visitor.kind === 'guest'} />
      <InstallHint />
    </Stack>
  );
}

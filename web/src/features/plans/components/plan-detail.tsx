import { Suspense } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { NotificationsCard } from '../../notifications';
import { answersOpen, AreYouComingSkeleton, LazyAreYouComing } from '../../rsvps';
import { isVotingOpen } from '../deadline';
import { canInvite } from '../plan-access';
import { usePlanRole } from '../use-plan-role';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { PlanStatusCard } from './plan-status-card';
import { PlanTabs, type PlanTabComponents } from './plan-tabs';
import { QuickActions } from './quick-actions';
import { SetEventTimePanel, shouldShowSetEventTime } from './set-event-time-panel';
import { WaitingOn } from './waiting-on';
import { WhosComing } from './whos-coming';

interface PlanDetailProps {
  plan: Plan;
  userId: string | undefined;
  /** The signed-in user's name (their answer is made as them). */
  userName?: string;
  tabs: PlanTabComponents;
}

export function PlanDetail({ plan, userId, userName = '', tabs }: PlanDetailProps) {
  // The host's controls are a co-host's too, but for deleting the plan (docs/decisions/0098-cohosts.md).
  const { role, isHost, runsPlan } = usePlanRole(plan, userId);
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
          {plan.title}
        </Title>
        {plan.description && <Text c="dimmed">{plan.description}</Text>}
      </div>
      {/* Once a date is locked, the first question (docs/decisions/0103-whos-coming-on-the-screens.md). */}
      {userId && answersOpen(plan) && (
        <Suspense fallback={<AreYouComingSkeleton />}>
          <LazyAreYouComing planId={plan.id} who={{ kind: 'member', userId, name: userName }} canHost={runsPlan} />
        </Suspense>
      )}
      <PlanStatusCard plan={plan} isHost={runsPlan} />
      <WhosComing plan={plan} role={role} />
      {runsPlan && (isVotingOpen(plan) || answersOpen(plan)) && <WaitingOn plan={plan} />}
      {shouldShowSetEventTime(plan, runsPlan) && <SetEventTimePanel key={plan.lockedTimeSlotDate} plan={plan} />}
      <PlanTabs planId={plan.id} isHost={runsPlan} tabs={tabs} />
      <QuickActions plan={plan} isHost={isHost} runsPlan={runsPlan} canInvite={canInvite(plan, userId)} />
      {userId && <NotificationsCard identity={{ kind: 'member', userId }} />}
    </Stack>
  );
}

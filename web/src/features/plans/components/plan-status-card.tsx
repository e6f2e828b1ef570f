import type { ReactNode } from 'react';
import { Box, Card, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconBulb, IconClock, IconHourglass, IconMapPin, IconUsers } from '../../../components/icons';
import { HostTimeNote } from '../../../components/host-time-note';
import { LinkifiedText } from '../../../components/linkified-text';
import { answersLine, answersOpen } from '../../rsvps';
import { isVotingOpen } from '../deadline';
import { formatMeetingTime } from '../plan-time';
import { planListQueryOptions } from '../queries';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { isPlanCancelled } from '../plan-access';
import { CancelledNotice } from './cancelled-notice';
import { DeadlineEditor } from './deadline-editor';
import { DeadlineStatus } from './deadline-status';
import { LocationEditor } from './location-editor';

// Valid <dl>: each row is one <div> holding a <dt> and a <dd>; the icon sits
// in the row's left gutter.
function StatusRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Box pos="relative" pl={48} mih={36}>
      <Text component="dt" fz="sm" c="dimmed">
        <ThemeIcon variant="light" size={36} radius="md" pos="absolute" left={0} top={0} aria-hidden="true">
          {icon}
        </ThemeIcon>
        {label}
      </Text>
      <Box component="dd" m={0} fw={600} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

function Undecided({ hint }: { hint?: string }) {
  return (
    <>
      TBD
      {hint && (
        <Text component="span" fz="sm" fw={400} c="dimmed">
          {' · '}
          {hint}
        </Text>
      )}
    </>
  );
}

/**
 * Every plan JSON carries the picked idea's text (docs/api.md "Plans"),
 * so guests, who have no plans list, see it too. A plan JSON without the key
 * (an older answer) falls back to the signed-in user's plans list.
 */
function PickedIdea({ plan }: { plan: Plan }) {
  if (typeof plan.lockedIdeaText === 'string') return <>{plan.lockedIdeaText}</>;
  return <PickedIdeaFromList planId={plan.id} />;
}

function PickedIdeaFromList({ planId }: { planId: string }) {
  const { data: text, isPending } = useQuery({
    ...planListQueryOptions(),
    select: (plans) => plans.find((entry) => entry.id === planId)?.lockedIdeaText ?? null,
  });
  if (isPending) return <Skeleton h={18} w={140} mt={4} />;
  return <>{text ?? 'Idea picked'}</>;
}

const peopleJoined = (count: number) => `${count} ${count === 1 ? 'person' : 'people'} joined`;

/**
 * Spec §2: What, When, Where (only when set) and Who's coming. The host edits
 * 'Where' inline once an idea is picked (`isHost`: the plan page only).
 * 'Decide by' (docs/notifications.md "At the deadline") shows while no date
 * is locked: to everyone once set, and to the host with its inline editor.
 */
export function PlanStatusCard({ plan, isHost = false }: { plan: Plan; isHost?: boolean }) {
  const when = formatMeetingTime(plan);
  const location = plan.location?.trim();
  const canEditLocation = isHost && Boolean(plan.lockedIdeaId) && !isPlanCancelled(plan);
  const showDeadline = isVotingOpen(plan) && (isHost || Boolean(plan.deadline));

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="plan-status-title">
      <Title id="plan-status-title" order={2} fz="h4" mb="md">
        Plan Status
      </Title>
      <CancelledNotice plan={plan} isHost={isHost} />
      <Stack component="dl" gap="md" m={0}>
        <StatusRow icon={<IconBulb size={18} />} label="What we're doing">
          {plan.lockedIdeaId ? <PickedIdea plan={plan} /> : <Undecided hint="Still deciding" />}
        </StatusRow>
        <StatusRow icon={<IconClock size={18} />} label="When we're meeting">
          {when ?? <Undecided />}
          {when && <HostTimeNote plan={plan} />}
        </StatusRow>
        {showDeadline && (
          <StatusRow icon={<IconHourglass size={18} />} label="Decide by">
            {isHost ? <DeadlineEditor plan={plan} /> : <DeadlineStatus plan={plan} />}
          </StatusRow>
        )}
        {canEditLocation ? (
          <StatusRow icon={<IconMapPin size={18} />} label="Where we're meeting">
            <LocationEditor plan={plan} />
          </StatusRow>
        ) : (
          location && (
            <StatusRow icon={<IconMapPin size={18} />} label="Where we're meeting">
              <LinkifiedText text={location} />
            </StatusRow>
          )
        )}
        <StatusRow icon={<IconUsers size={18} />} label="Who's coming">
          {peopleJoined(plan.participantCount)}
          {/* Once a date is locked: the answers, and the headcount when friends come (docs/decisions/0103). */}
          {plan.answers && answersOpen(plan) && (
            <Text fz="sm" fw={400} c="dimmed">
              {answersLine(plan.answers)}
            </Text>
          )}
        </StatusRow>
      </Stack>
    </Card>
  );
}

import { Text } from '@mantine/core';
import { summarizeDeadline } from '../deadline';
import { useNow } from '../use-now';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

/** Said under the deadline while the auto-lock is still to come. */
export const AUTO_LOCK_NOTE = 'The top idea and date will be locked automatically.';

/**
 * The deadline as everyone sees it: 'Sat, Nov 28, 7:00 PM · 2 days left',
 * and the auto-lock's note. Counts down by the minute; nothing without a deadline.
 */
export function DeadlineStatus({ plan }: { plan: Pick<Plan, 'deadline' | 'autoLock'> }) {
  const now = useNow();
  const summary = summarizeDeadline(plan.deadline, now);
  if (!summary) return null;
  return (
    <>
      {summary.when}
      <Text component="span" fz="sm" fw={400} c="dimmed">
        {' · '}
        {summary.left}
      </Text>
      {plan.autoLock && !summary.passed && (
        <Text fz="sm" fw={400} c="dimmed">
          {AUTO_LOCK_NOTE}
        </Text>
      )}
    </>
  );
}

import { Alert, Button, Text } from '@mantine/core';
import { useUnlockPlan } from '../host-mutations';
import { isPlanCancelled } from '../plan-access';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

/**
 * "Cancelled", with the host's message, on the plan page and the guest
 * dashboard (docs/decisions/0100-cancelling-a-plan.md); the host may reopen
 * the plan (POST unlock) to pick a new date. Nothing for a plan that is on.
 */
export function CancelledNotice({ plan, isHost = false }: { plan: Pick<Plan, 'id' | 'status' | 'cancelMessage'>; isHost?: boolean }) {
  const reopen = useUnlockPlan(plan.id);
  if (!isPlanCancelled(plan)) return null;
  const message = plan.cancelMessage?.trim();
  return (
    <Alert color="red" variant="light" title="Cancelled" role="status" mb="md">
      {message ? (
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message}
        </Text>
      ) : (
        <Text fz="sm">The host cancelled this plan.</Text>
      )}
      {isHost && (
        <Button mt="sm" size="sm" variant="light" onClick={() => reopen.mutate()} loading={reopen.isPending}>
          Reopen Plan
        </Button>
      )}
    </Alert>
  );
}

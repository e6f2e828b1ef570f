import { useState } from 'react';
import { Button, Card, Stack, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconLogOut, IconTrash, IconUserPlus } from '../../../components/icons';
import { useDeletePlan, useLeavePlan } from '../mutations';
import { isPlanCancelled } from '../plan-access';
import { CancelPlan } from './cancel-plan';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

type Dialog = 'leave' | 'delete' | null;

interface QuickActionsProps {
  plan: Plan;
  /** The host alone deletes the plan (docs/decisions/0099-what-stays-the-hosts.md). */
  isHost: boolean;
  /** The host or a co-host cancels it (docs/decisions/0098-cohosts.md). */
  runsPlan: boolean;
  canInvite: boolean;
}

export function QuickActions({ plan, isHost, runsPlan, canInvite }: QuickActionsProps) {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const goHome = () => navigate(paths.home.getHref(), { replace: true });
  const leavePlan = useLeavePlan(plan.id, { onLeft: goHome });
  const deletePlan = useDeletePlan(plan.id, { onDeleted: goHome });

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="quick-actions-title">
      <Title id="quick-actions-title" order={2} fz="h4" mb="md">
        Quick Actions
      </Title>
      <Stack gap="sm">
        {canInvite && (
          <Button
            component={Link}
            to={paths.planShare.getHref(plan.id)}
            variant="light"
            justify="flex-start"
            leftSection={<IconUserPlus size={18} />}
          >
            Add More People
          </Button>
        )}
        <Button variant="default" justify="flex-start" leftSection={<IconLogOut size={18} />} onClick={() => setDialog('leave')}>
          Leave Plan
        </Button>
        {runsPlan && !isPlanCancelled(plan) && <CancelPlan plan={plan} />}
        {isHost && (
          <Button
            variant="outline"
            color="red"
            justify="flex-start"
            leftSection={<IconTrash size={18} />}
            onClick={() => setDialog('delete')}
          >
            Delete Plan
          </Button>
        )}
      </Stack>

      <ConfirmDialog
        opened={dialog === 'leave'}
        onClose={close}
        title="Leave this plan?"
        message="If you're the last participant, the plan will be deleted. Otherwise, you'll be removed from the participant list."
        confirmLabel="Leave Plan"
        pendingLabel="Leaving..."
        pending={leavePlan.isPending}
        onConfirm={() => leavePlan.mutate(undefined, { onError: close })}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        onClose={close}
        title="Delete Plan"
        message="Deleting this plan is permanent. Are you sure?"
        cancelLabel="No"
        confirmLabel="Yes"
        pendingLabel="Deleting..."
        pending={deletePlan.isPending}
        onConfirm={() => deletePlan.mutate(undefined, { onError: close })}
      />
    </Card>
  );
}

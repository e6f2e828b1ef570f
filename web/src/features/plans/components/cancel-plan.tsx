import { useState } from 'react';
import { Button, Textarea } from '@mantine/core';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useCancelPlan } from '../host-mutations';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { CANCEL_MESSAGE_MAX } from '../../../../../supabase/functions/_shared/contract/dates-requests';

/**
 * The host's "Cancel Plan" (docs/decisions/0100-cancelling-a-plan.md): asks
 * first, with an optional message for everyone; the plan stays (votes,
 * date, place) and "Reopen Plan" brings it back for a new date.
 */
export function CancelPlan({ plan }: { plan: Pick<Plan, 'id'> }) {
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const close = () => setAsking(false);
  const cancelPlan = useCancelPlan(plan.id, () => {
    setAsking(false);
    setMessage('');
  });
  return (
    <>
      <Button variant="outline" color="red" justify="flex-start" onClick={() => setAsking(true)}>
        Cancel Plan
      </Button>
      <ConfirmDialog
        opened={asking}
        onClose={close}
        title="Cancel this plan?"
        message="Everyone will see that it is cancelled, and those with notifications on are told. You can reopen it later."
        details={
          <Textarea
            mt="md"
            label="Message to everyone (optional)"
            placeholder="Sorry, the restaurant is closed that day."
            rows={3}
            maxLength={CANCEL_MESSAGE_MAX}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            readOnly={cancelPlan.isPending}
          />
        }
        cancelLabel="Keep Plan"
        confirmLabel="Cancel Plan"
        pendingLabel="Cancelling..."
        pending={cancelPlan.isPending}
        onConfirm={() => cancelPlan.mutate(message, { onError: close })}
      />
    </>
  );
}

import { useState } from 'react';
import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { planListQueryOptions } from '../../plans';
import { useDeleteAccount } from '../mutations';
import type { PlanSummary } from '../../../../../supabase/functions/_shared/contract/plans';

/**
 * The hosted plans deleting the account deletes: no one else in them has an
 * account to host them (docs/decisions/0081-deleting-an-account.md). The
 * host is always one of a plan's members, so "no one else" is at most one
 * participant with an account. Undefined while the list is unknown.
 */
function plansThatGo(userId: string, plans: PlanSummary[] | undefined): string[] | undefined {
  return plans
    ?.filter((plan) => plan.hostId === userId && plan.participants.filter((person) => !person.isGuest).length <= 1)
    .map((plan) => plan.title);
}

/**
 * Delete account: what will happen, asked first, then the server deletes the
 * account and this device signs out to the landing page.
 */
export function DeleteAccount({ userId }: { userId: string }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  const busy = remove.isPending || remove.isSuccess;
  // The plans the question names; asked for only while the question is open.
  const plans = useQuery({ ...planListQueryOptions(), enabled: confirming && !busy });
  const going = plansThatGo(userId, plans.data);

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="delete-account-title">
      <Stack gap="sm">
        <Title id="delete-account-title" order={2} fz="h4">
          Delete account
        </Title>
        <Text c="dimmed" fz="sm">
          Deletes your account and signs you out on every device. This can't be undone.
        </Text>
        <Button variant="outline" color="red" disabled={busy} onClick={() => setConfirming(true)}>
          Delete account
        </Button>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Delete your account?"
        message={
          <>
            Your account, interests and calendar link are deleted, and every device is signed out. You leave all your plans:
            plans you host go to the next member with an account, and your ideas and comments stay, signed "Deleted
            account".{' '}
            {going === undefined && 'A plan you host where no one else has an account is deleted. '}
            This can't be undone.
          </>
        }
        details={
          going && going.length > 0 ? (
            <Stack gap={4} mt="sm">
              <Text fw={600}>No one else in these plans has an account, so they will be deleted for everyone:</Text>
              <List>
                {going.map((title, index) => (
                  <List.Item key={`${index}:${title}`} style={{ overflowWrap: 'anywhere' }}>
                    {title}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : undefined
        }
        confirmLabel="Delete account"
        pendingLabel="Deleting..."
        pending={busy}
        onConfirm={() => remove.mutate(undefined, { onError: () => setConfirming(false) })}
      />
    </Card>
  );
}

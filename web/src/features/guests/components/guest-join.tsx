import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { clearGuest, useRemovedFrom } from '../../../lib/guest-storage';
import { REMOVED_FROM_PLAN } from '../../../../../supabase/functions/_shared/contract/guest-secret';
import type { LinkedPlan } from '../../plans';
import { useCheckGuest, useCreateGuest, useRestoreGuest } from '../mutations';
import type { ExistingGuest } from '../mutations';
import { FullNameForm } from './full-name-form';
import { GuestNameForm } from './guest-name-form';
import { IsThisYouCard } from './is-this-you-card';

type Step = { name: 'name' } | { name: 'confirm'; guest: ExistingGuest } | { name: 'fullName'; takenName: string };

/**
 * Spec §2 Join, not signed in: the name, then the check. A new name creates
 * the guest; a taken one asks "Is this you?" (restore) or for a full name
 * (a new guest). Every way in ends on the plan's dashboard.
 *
 * `restoreName`: this device has a session of this plan's guest of that name
 * but no (longer a) valid secret for it (docs/auth-and-guests.md "Guests").
 * The check then runs at once for that name, so the visitor lands on "Is this
 * you?" and one tap gets the device a new secret; if the guest is gone, the
 * old session is forgotten and the name form is filled in.
 */
export function GuestJoin({ plan, restoreName }: { plan: LinkedPlan; restoreName?: string }) {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ name: 'name' });
  const [name, setName] = useState(restoreName ?? '');
  const check = useCheckGuest(plan.id);
  const create = useCreateGuest(plan);
  const restore = useRestoreGuest(plan);
  const toDashboard = () => navigate(paths.guestDashboard.getHref(plan.slug), { replace: true });
  // The host removed this device's guest from the plan (docs/decisions/0083-removal-holds.md).
  const removed = useRemovedFrom(plan.id);

  const createGuest = (guestName: string) => create.mutate(guestName, { onSuccess: toDashboard });

  const submitName = (trimmed: string) =>
    check.mutate(trimmed, {
      onSuccess: (result) => {
        if (result.exists && result.guestId) setStep({ name: 'confirm', guest: { ...result, guestId: result.guestId } });
        else createGuest(trimmed);
      },
    });

  // Once per mount (StrictMode mounts twice in development).
  const restoreAsked = useRef(false);
  const { mutate: checkName } = check;
  useEffect(() => {
    if (!restoreName || restoreAsked.current) return;
    restoreAsked.current = true;
    checkName(restoreName, {
      onSuccess: (result) => {
        if (result.exists && result.guestId) setStep({ name: 'confirm', guest: { ...result, guestId: result.guestId } });
        else clearGuest();
      },
    });
  }, [restoreName, checkName]);

  return (
    <Stack gap="md">
      {removed && (
        <Alert color="red" variant="light" role="status">
          {REMOVED_FROM_PLAN}
        </Alert>
      )}
      {step.name === 'name' && (
        <GuestNameForm
          name={name}
          onNameChange={setName}
          onSubmit={submitName}
          busyLabel={check.isPending ? 'Checking...' : create.isPending || create.isSuccess ? 'Joining...' : null}
        />
      )}
      {step.name === 'confirm' && (
        <IsThisYouCard
          guest={step.guest}
          restoring={restore.isPending || restore.isSuccess}
          note={restoreName ? "Please confirm it's you to keep going on this device." : undefined}
          onConfirm={() => restore.mutate(step.guest, { onSuccess: toDashboard })}
          onDecline={() => setStep({ name: 'fullName', takenName: step.guest.name })}
        />
      )}
      {step.name === 'fullName' && (
        <FullNameForm
          takenName={step.takenName}
          creating={create.isPending || create.isSuccess}
          onSubmit={createGuest}
          onBack={() => setStep({ name: 'name' })}
        />
      )}
      <Button component={Link} to={paths.auth.getHref(paths.join.getHref(plan.slug))} variant="default" size="md">
        Sign In Instead
      </Button>
    </Stack>
  );
}

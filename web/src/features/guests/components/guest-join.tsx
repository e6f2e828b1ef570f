import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Plan } from '../../plans/schema';
import { useCheckGuest, useCreateGuest, useRestoreGuest } from '../mutations';
import type { ExistingGuest } from '../schema';
import { FullNameForm } from './full-name-form';
import { GuestNameForm } from './guest-name-form';
import { IsThisYouCard } from './is-this-you-card';

type Step = { name: 'name' } | { name: 'confirm'; guest: ExistingGuest } | { name: 'fullName'; takenName: string };

/**
 * Spec §2 Join, not signed in: the name, then the check. A new name creates
 * the guest; a taken one asks "Is this you?" (restore) or for a full name
 * (a new guest). Every way in ends on the plan's dashboard.
 */
export function GuestJoin({ plan }: { plan: Plan }) {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ name: 'name' });
  const [name, setName] = useState('');
  const check = useCheckGuest(plan.id);
  const create = useCreateGuest(plan);
  const restore = useRestoreGuest(plan);
  const toDashboard = () => navigate(paths.guestDashboard.getHref(plan.slug), { replace: true });

  const createGuest = (guestName: string) => create.mutate(guestName, { onSuccess: toDashboard });

  const submitName = (trimmed: string) =>
    check.mutate(trimmed, {
      onSuccess: (result) => {
        if (result.exists && result.guestId) setStep({ name: 'confirm', guest: { ...result, guestId: result.guestId } });
        else createGuest(trimmed);
      },
    });

  return (
    <Stack gap="md">
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

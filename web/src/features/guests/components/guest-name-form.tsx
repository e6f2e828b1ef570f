import type { FormEvent } from 'react';
import { Button, Card, Stack, TextInput } from '@mantine/core';
import { GUEST_NAME_MAX } from '../../../../../supabase/functions/_shared/contract/guests';

interface GuestNameFormProps {
  name: string;
  onNameChange: (name: string) => void;
  onSubmit: (name: string) => void;
  /** The label while busy: 'Checking...' for the name check, 'Joining...' while the guest is created. */
  busyLabel: string | null;
}

/** Spec §2 Join: 'What's your name?' and 'Continue'; spec §5: non-blank after trimming. */
export function GuestNameForm({ name, onNameChange, onSubmit, busyLabel }: GuestNameFormProps) {
  const trimmed = name.trim();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (trimmed && !busyLabel) onSubmit(trimmed);
  };

  return (
    <Card withBorder radius="lg" padding="lg" component="form" onSubmit={handleSubmit}>
      <Stack gap="md">
        <TextInput
          label="What's your name?"
          description="Your friends will see this name next to your votes."
          placeholder="Your name"
          size="md"
          autoComplete="name"
          maxLength={GUEST_NAME_MAX}
          value={name}
          onChange={(event) => onNameChange(event.currentTarget.value)}
          readOnly={busyLabel !== null}
        />
        <Button type="submit" size="md" fullWidth disabled={!trimmed || busyLabel !== null}>
          {busyLabel ?? 'Continue'}
        </Button>
      </Stack>
    </Card>
  );
}

import { useState, type FormEvent } from 'react';
import { Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { checkEmail } from '../schema';

interface EmailStepProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSubmit: (email: string) => void;
  sending: boolean;
}

export function EmailStep({ email, onEmailChange, onSubmit, sending }: EmailStepProps) {
  const [error, setError] = useState<string>();

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const check = checkEmail(email);
    if (check.ok) onSubmit(check.email);
    else setError(check.error);
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz="h2">
            Welcome to Hangplan
          </Title>
          <Text c="dimmed" mt={4}>
            Enter your email and we'll send you a 6-digit code. New here? The same code creates your account.
          </Text>
        </div>
        <TextInput
          label="Email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          error={error}
          onChange={(event) => {
            setError(undefined);
            onEmailChange(event.currentTarget.value);
          }}
          size="md"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the sign-in page exists to type this one field
          autoFocus
        />
        <Button type="submit" size="md" fullWidth disabled={sending}>
          {sending ? 'Sending...' : 'Send Verification Code'}
        </Button>
      </Stack>
    </form>
  );
}

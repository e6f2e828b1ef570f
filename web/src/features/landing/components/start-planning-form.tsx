import { useState, type FormEvent } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useSendCode } from '../../auth';
import { checkEmail } from '../../auth';

/** E-mail call to action: sends the code, then opens step 2 of /auth. */
export function StartPlanningForm({ buttonLabel }: { buttonLabel: string }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const sendCode = useSendCode();
  const navigate = useNavigate();

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sendCode.isPending) return;
    const check = checkEmail(email);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    sendCode.mutate(check.email, {
      onSuccess: () => navigate(paths.auth.getHref(paths.home.getHref()), { state: { email: check.email } }),
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm" w="100%">
        <TextInput
          aria-label="Email address"
          type="email"
          required
          autoComplete="email"
          placeholder="Enter your email"
          size="lg"
          value={email}
          error={error}
          onChange={(event) => {
            setError(undefined);
            setEmail(event.currentTarget.value);
          }}
        />
        <Button type="submit" size="lg" fullWidth disabled={sendCode.isPending}>
          {sendCode.isPending ? 'Sending...' : buttonLabel}
        </Button>
      </Stack>
    </form>
  );
}

import type { FormEvent } from 'react';
import { Button, Group, PinInput, Stack, Text, Title } from '@mantine/core';
import { SIGN_IN_CODE_LENGTH } from '../../../../../supabase/functions/_shared/contract/auth';

interface CodeStepProps {
  email: string;
  code: string;
  onCodeChange: (code: string) => void;
  onVerify: (code: string) => void;
  verifying: boolean;
  onResend: () => void;
  resending: boolean;
  onChangeEmail: () => void;
  /** The heading level: 1 on /auth, 2 inside the profile screen (which has its own h1). */
  titleOrder?: 1 | 2;
  /** The way back to the e-mail field. */
  changeEmailLabel?: string;
}

/** The six-digit code entry of sign-in, also used to confirm a new e-mail on the profile. */
export function CodeStep(props: CodeStepProps) {
  const { email, code, onCodeChange, onVerify, verifying, onResend, resending, onChangeEmail } = props;
  const { titleOrder = 1, changeEmailLabel = 'Use a different email' } = props;
  const complete = code.length === SIGN_IN_CODE_LENGTH;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec §5: submits only when the code has all 6 digits.
    if (complete && !verifying) onVerify(code);
  };

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap="md">
        <div>
          <Title order={titleOrder} fz={titleOrder === 1 ? 'h2' : 'h4'}>
            Check your email
          </Title>
          <Text c="dimmed" mt={4}>
            We sent a 6-digit code to{' '}
            <Text span fw={600} c="var(--mantine-color-text)">
              {email}
            </Text>
          </Text>
        </div>
        <Stack gap={6}>
          <Text id="code-label" fw={500} fz="sm">
            Verification code
          </Text>
          <PinInput
            role="group"
            aria-labelledby="code-label"
            length={SIGN_IN_CODE_LENGTH}
            type="number"
            oneTimeCode
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the code step opens for this one field, right after the user asked for the code
            autoFocus
            size="md"
            gap="xs"
            value={code}
            onChange={onCodeChange}
            // Typing (or pasting) the 6th digit submits: no extra tap needed.
            onComplete={(value) => !verifying && onVerify(value)}
            disabled={verifying}
            getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of ${SIGN_IN_CODE_LENGTH}` })}
          />
        </Stack>
        <Button type="submit" size="md" fullWidth disabled={!complete || verifying}>
          {verifying ? 'Verifying...' : 'Verify & Continue'}
        </Button>
        <Group gap={4} justify="center">
          <Text fz="sm" c="dimmed">
            Didn't receive the code?
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={onResend} disabled={resending}>
            {resending ? 'Sending...' : 'Resend'}
          </Button>
        </Group>
        <Button variant="default" onClick={onChangeEmail}>
          {changeEmailLabel}
        </Button>
      </Stack>
    </form>
  );
}

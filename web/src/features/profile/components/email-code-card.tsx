import { useState } from 'react';
import { Card } from '@mantine/core';
import { CodeStep } from '../../auth';
import { useConfirmEmail, useUpdateProfile } from '../mutations';

interface EmailCodeCardProps {
  /** The new address the code went to. */
  email: string;
  /** The change is done, or the visitor keeps the current address. */
  onClose: () => void;
}

/**
 * Confirming a new e-mail (docs/auth-and-guests.md "Members"): the
 * code mailed to the new address, entered like the sign-in code. Only then
 * does the account move (and every other device is signed out).
 */
export function EmailCodeCard({ email, onClose }: EmailCodeCardProps) {
  const [code, setCode] = useState('');
  const confirm = useConfirmEmail();
  const resend = useUpdateProfile();

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-label="Confirm your new email">
      <CodeStep
        email={email}
        code={code}
        onCodeChange={setCode}
        onVerify={(value) =>
          confirm.mutate(value, {
            onSuccess: onClose,
            onError: () => setCode(''),
          })
        }
        verifying={confirm.isPending}
        onResend={() => resend.mutate({ email })}
        resending={resend.isPending}
        onChangeEmail={onClose}
        titleOrder={2}
        changeEmailLabel="Keep my current email"
      />
    </Card>
  );
}

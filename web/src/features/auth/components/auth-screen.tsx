import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { sanitizeReturnTo } from '../../../lib/return-to';
import { useSendCode, useVerifyCode } from '../mutations';
import { useCurrentUser } from '../queries';
import { LogoCardPage } from '../../../components/logo-card-page';
import { CodeStep } from './code-step';
import { EmailStep } from './email-step';

/** Spec §4: the redirect happens about 100 ms after a successful verify. */
const REDIRECT_DELAY_MS = 100;

/** Landing sends the code first and passes the e-mail in router state. */
function emailFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'email' in state && typeof state.email === 'string') {
    return state.email;
  }
  return '';
}

export function AuthScreen() {
  const [searchParams] = useSearchParams();
  const returnTo = sanitizeReturnTo(searchParams.get('returnTo'));
  const initialEmail = emailFromState(useLocation().state);
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const sendCode = useSendCode();
  const verifyCode = useVerifyCode();

  const [step, setStep] = useState<'email' | 'code'>(initialEmail ? 'code' : 'email');
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // Already signed in on arrival. After a verify the timed redirect below wins.
  if (user && verifyCode.isIdle) return <Navigate to={returnTo} replace />;

  const send = (address: string) => {
    setEmail(address);
    sendCode.mutate(address, {
      onSuccess: () => {
        setCode('');
        setStep('code');
      },
    });
  };

  const verify = (value: string) => {
    verifyCode.mutate(
      { email, code: value },
      {
        onSuccess: () => {
          redirectTimer.current = window.setTimeout(
            () => navigate(returnTo, { replace: true }),
            REDIRECT_DELAY_MS,
          );
        },
        onError: () => setCode(''),
      },
    );
  };

  return (
    <LogoCardPage>
      {step === 'email' ? (
        <EmailStep email={email} onEmailChange={setEmail} onSubmit={send} sending={sendCode.isPending} />
      ) : (
        <CodeStep
          email={email}
          code={code}
          onCodeChange={setCode}
          onVerify={verify}
          verifying={verifyCode.isPending || verifyCode.isSuccess}
          onResend={() => send(email)}
          resending={sendCode.isPending}
          onChangeEmail={() => {
            setCode('');
            setStep('email');
          }}
        />
      )}
    </LogoCardPage>
  );
}

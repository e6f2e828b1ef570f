import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { setAuthToken } from '../../lib/auth-token';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { afterSignIn } from './after-sign-in';
import { authKeys } from './queries';
import { tokenSchema } from '../../../../supabase/functions/_shared/contract/auth';

export function useSendCode() {
  return useMutation({
    mutationFn: async (email: string) => {
      await apiRequest('POST', '/api/auth/send-otp', { email });
    },
    onSuccess: () => showSuccessToast('Code sent!', 'Check your email for the verification code'),
    onError: (error) => showErrorToast(error, 'Failed to send code'),
  });
}

export function useVerifyCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { email: string; code: string }) => {
      const res = await apiRequest('POST', '/api/auth/verify-otp', input);
      return tokenSchema.parse(await res.json());
    },
    // The mutation stays pending until this resolves, so screens can tell
    // "just signed in" from "already signed in" while `me` updates.
    onSuccess: async ({ token }) => {
      setAuthToken(token);
      await queryClient.refetchQueries({ queryKey: authKeys.me() });
      const { welcomeMessage } = await afterSignIn(queryClient);
      showSuccessToast('Welcome!', welcomeMessage);
    },
    onError: (error) => showErrorToast(error, 'Please check your code and try again', 'Invalid code'),
  });
}

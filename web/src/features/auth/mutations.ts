import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { removeAuthToken, setAuthToken } from '../../lib/auth-token';
import { signInDevice } from '../../lib/sign-in-device';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { afterSignIn } from './after-sign-in';
import { authKeys } from './queries';
import { tokenSchema, undoEmailChangeResultSchema } from '../../../../supabase/functions/_shared/contract/auth';

export function useSendCode() {
  return useMutation({
    mutationFn: async (email: string) => {
      // The code is this browser's: only the same key can use it (lib/sign-in-device.ts).
      await apiRequest('POST', '/api/auth/send-otp', { email, device: signInDevice() });
    },
    onSuccess: () => showSuccessToast('Code sent!', 'Check your email for the verification code'),
    onError: (error) => showErrorToast(error, 'Failed to send code'),
  });
}

export function useVerifyCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { email: string; code: string }) => {
      const res = await apiRequest('POST', '/api/auth/verify-otp', { ...input, device: signInDevice() });
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

/**
 * The link mailed to the old address after an e-mail change: puts it back
 * (POST /api/auth/undo-email-change). Every session of the account ended, so
 * this device forgets its token and cached data too.
 */
export function useUndoEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => {
      const res = await apiRequest('POST', apiPaths.undoEmailChange(), { token });
      return undoEmailChangeResultSchema.parse(await res.json());
    },
    onSuccess: () => {
      removeAuthToken();
      queryClient.clear();
    },
  });
}

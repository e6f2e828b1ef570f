import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-error';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { calendarFeedKeys } from '../../lib/query-keys';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { authKeys } from '../auth';
import { signOutLocally } from '../auth';
import { type ProfileUpdate, profileUpdateSchema } from '../../../../supabase/functions/_shared/contract/auth';
import type { ProfileInput } from './schema';

/**
 * Save Changes: PATCH /api/auth/profile. Names change at once; a new e-mail
 * does not: the server mails a code to it and answers `pendingEmail`, which
 * the profile screen then asks for (docs/auth-and-guests.md "Members").
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    // An empty name is sent as '' and means "no name" (display falls back).
    mutationFn: async (input: Partial<ProfileInput>): Promise<ProfileUpdate> => {
      const res = await apiRequest('PATCH', apiPaths.profile(), input);
      return profileUpdateSchema.parse(await res.json());
    },
    onSuccess: async ({ pendingEmail }) => {
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
      if (pendingEmail) showSuccessToast('Code sent!', `Enter the code we sent to ${pendingEmail} to change your email`);
      else showSuccessToast('Profile updated', 'Your changes have been saved');
    },
    onError: (error) => showErrorToast(error, 'Failed to update profile'),
  });
}

/** The code from the new address: POST /api/auth/confirm-email {code}. */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => {
      await apiRequest('POST', apiPaths.confirmEmail(), { code });
    },
    onSuccess: async () => {
      // A new address ends the calendar feed's link: the card shows the new one.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: authKeys.me() }),
        queryClient.invalidateQueries({ queryKey: calendarFeedKeys.mine() }),
      ]);
      showSuccessToast('Email updated', 'Your other devices have been signed out');
    },
    // 400 "Invalid or expired code", 409 "That e-mail address is already used by another account".
    onError: (error) =>
      error instanceof ApiError && error.status === 409
        ? showErrorToast(error, 'Failed to update profile')
        : showErrorToast(error, 'Please check your code and try again', 'Invalid code'),
  });
}

/**
 * "Sign out everywhere": every session of the account ends on the server
 * (POST /api/auth/sign-out-everywhere), then this device signs out like Sign
 * Out. If the server cannot be reached nothing ended, so the visitor stays
 * signed in and is told; a 401 means this session was over already.
 */
export function useSignOutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await apiRequest('POST', apiPaths.signOutEverywhere());
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    onSuccess: () => signOutLocally(queryClient),
    onError: (error) => showErrorToast(error, 'Failed to sign out everywhere'),
  });
}

/**
 * Delete account (DELETE /api/auth/account, docs/decisions/0081-deleting-an-account.md):
 * the server deletes the account and ends every session, then this device
 * signs out like Sign Out (the token, the cache, imported calendars, the
 * service worker's saved reads, what it gave the member's notifications) and
 * opens the landing page. A failure keeps the visitor signed in and says so.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', apiPaths.account());
    },
    onSuccess: () => signOutLocally(queryClient),
    onError: (error) => showErrorToast(error, 'Failed to delete account'),
  });
}

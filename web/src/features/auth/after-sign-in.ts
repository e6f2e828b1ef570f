import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { ApiError } from '../../lib/api-error';
import { clearGuest, getGuestSession } from '../../lib/guest-storage';
import { planKeys } from '../../lib/query-keys';
import { transferResultSchema } from '../../../../supabase/functions/_shared/contract/common';

const SIGNED_IN_MESSAGE = "You're now signed in";

/**
 * Spec §8: 'Welcome! Your N previous vote(s) have been saved to your account.',
 * singular for 1 — the whole sentence, so "1 previous vote has been saved".
 */
export function transferredVotesMessage(count: number): string {
  if (count <= 0) return SIGNED_IN_MESSAGE;
  if (count === 1) return 'Welcome! Your 1 previous vote has been saved to your account.';
  return `Welcome! Your ${count} previous votes have been saved to your account.`;
}

/** "You're now signed in, but your votes were not moved: this can only be done from ..." */
export function votesNotMovedMessage(reason: string): string {
  const sentence = reason.charAt(0).toLowerCase() + reason.slice(1).replace(/\.$/, '');
  return `${SIGNED_IN_MESSAGE}, but your votes were not moved: ${sentence}.`;
}

/**
 * Runs after a successful sign-in (the token is stored and `me` refetched),
 * before the welcome toast and the redirect. Spec §4: when a guest session
 * exists, its votes move to the account (POST /api/auth/transfer-guest-votes,
 * with the guest's device secret in the X-Guest-Secret header, lib/api.ts);
 * the guest items are cleared only after that succeeds, and a failure is only
 * logged: signing in goes on either way. A refusal the server explains (403:
 * a device that continued by name may not take the guest into an account,
 * decision 0064) is said in the welcome toast, so nobody wonders where their
 * votes went. A session without a secret (stored before secrets existed)
 * cannot prove it is that guest: nothing is asked.
 */
export async function afterSignIn(queryClient: QueryClient): Promise<{ welcomeMessage: string }> {
  const guest = getGuestSession();
  if (!guest) return { welcomeMessage: SIGNED_IN_MESSAGE };
  if (!guest.secret) {
    console.warn('The guest session on this device has no secret, so its votes cannot be moved; signing in anyway.');
    return { welcomeMessage: SIGNED_IN_MESSAGE };
  }
  try {
    const res = await apiRequest('POST', '/api/auth/transfer-guest-votes', { guestId: guest.id });
    const { transferredIdeaVotes, transferredTimeVotes } = transferResultSchema.parse(await res.json());
    clearGuest();
    // The account now takes part in the guest's plan: home must list it.
    void queryClient.invalidateQueries({ queryKey: planKeys.list() });
    return { welcomeMessage: transferredVotesMessage(transferredIdeaVotes + transferredTimeVotes) };
  } catch (error) {
    console.warn('Could not move the guest votes to the account; signing in anyway.', error);
    if (error instanceof ApiError && error.status === 403 && error.serverText) {
      return { welcomeMessage: votesNotMovedMessage(error.serverText) };
    }
    return { welcomeMessage: SIGNED_IN_MESSAGE };
  }
}

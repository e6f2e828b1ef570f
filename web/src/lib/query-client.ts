import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isGuestSecretRefusal, REMOVED_FROM_PLAN } from '../../../supabase/functions/_shared/contract/guest-secret';
import { GUEST_NOT_FOUND } from '../../../supabase/functions/_shared/contract/guests';
import { ApiError } from './api-error';
import { getAuthToken } from './auth-token';
import { clearGuest, forgetGuestSecret, markGuestRemoved } from './guest-storage';

/**
 * A write refused because this device's guest secret is missing or no longer
 * valid: drop the secret, so the plan's pages send the visitor through "Is
 * this you?" (which gets a new one) instead of failing again and again. A
 * write refused because the guest is gone (it left on another device) or the
 * host removed it: forget the guest, so the pages send the visitor to the
 * join page (which says so after a removal). A signed-in visitor's refusal
 * is about the account, not the stored guest.
 */
export function onGuestSecretRefused(error: unknown): void {
  if (!(error instanceof ApiError)) return;
  if (isGuestSecretRefusal(error.status, error.serverText)) forgetGuestSecret();
  else if (error.status === 404 && error.serverText === GUEST_NOT_FOUND) clearGuest();
  else if (error.status === 403 && error.serverText === REMOVED_FROM_PLAN && !getAuthToken()) markGuestRemoved();
}

// Spec §7: never retry, never refetch on focus, never poll, never stale: the
// fetch itself changes data only when a write invalidates it. Every query names
// its own `queryFn` (apiGet in ./api), so there is no default fetch.
// Screens that show a plan are kept fresh by the plan's change feed instead
// (lib/live): a change another participant makes invalidates exactly the
// queries it touched, and those refetch (mostly a 304) within a second.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({ onError: onGuestSecretRefused }),
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
        // Asked even when the browser says it is offline: the service worker
        // may answer with what it saved (docs/offline.md "Offline"). A query
        // that failed is asked again when the browser is back online.
        networkMode: 'offlineFirst',
      },
      mutations: { retry: false },
    },
  });
}

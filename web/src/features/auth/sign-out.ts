import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { removeAuthToken } from '../../lib/auth-token';
import { forgetMemberPush, forgetMemberPushLocally } from '../../lib/device-push';
import { reloadAt } from '../../lib/browser-location';
import { forgetCalendarImports } from '../../lib/calendar-imports';
import { forgetOfflineCopies } from '../../lib/offline-reads';

/** How long signing out waits for the server before forgetting the token anyway. */
const SIGN_OUT_WAIT_MS = 5000;

/**
 * Forget the token, the cached data, the calendars imported on this device
 * (decision 0073), what the service worker keeps for offline
 * (docs/offline.md "Offline") and what this device gave the member's
 * notifications, and start afresh at / (spec §2).
 */
export async function signOutLocally(queryClient: QueryClient): Promise<void> {
  removeAuthToken();
  queryClient.clear();
  forgetCalendarImports();
  await Promise.all([forgetOfflineCopies(), forgetMemberPushLocally()]);
  reloadAt('/');
}

/**
 * Sign Out: this device's notifications for the account are turned off, and
 * the server ends this device's session first
 * (POST /api/auth/sign-out, so a copy of the token is worthless too), then the
 * device forgets it as spec §2 says. A failure to reach the server (offline,
 * or the session was already over) never keeps anyone signed in.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  // This device's notifications for the account end first, while the token works.
  await Promise.race([
    forgetMemberPush().catch((error: unknown) => console.warn('Could not turn off notifications on this device.', error)),
    new Promise((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS)),
  ]);
  try {
    await apiRequest('POST', apiPaths.signOut(), undefined, { signal: AbortSignal.timeout(SIGN_OUT_WAIT_MS) });
  } catch (error) {
    console.warn('Could not end the session on the server; signing out on this device anyway.', error);
  }
  await signOutLocally(queryClient);
}

// The app's start for the outbox of votes and comments (lib/offline-actions/),
// kept out of the entry bundle: the outbox's code loads at start only when an
// earlier visit left something in it (else the screens that vote load it).
import type { QueryClient } from '@tanstack/react-query';

/** Each stored action is the localStorage item `offlineAction:{its idempotency key}`. */
export const OFFLINE_ACTION_PREFIX = 'offlineAction:';

function anyStored(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(OFFLINE_ACTION_PREFIX)) return true;
  } catch {
    // no storage: nothing was kept
  }
  return false;
}

/** Sends what an earlier visit could not, once the page is idle; returns the cancel. */
export function startOfflineActionsIfAny(queryClient: QueryClient): () => void {
  if (!anyStored()) return () => {};
  let stopped = false;
  let stop = () => {};
  void import('./index').then(({ startOfflineActions }) => {
    if (!stopped) stop = startOfflineActions(queryClient);
  });
  return () => {
    stopped = true;
    stop();
  };
}

// Answers the service worker served from its saved copies because the network
// was gone (web/src/service-worker/offline.ts: SAVED_AT_HEADER), from the
// page's side (docs/offline.md "Offline"): which queries show saved data, and
// since when, for "You're offline: showing what you saw at 7:42 PM". They are
// fetched again as soon as the network is back: the browser's `online` event,
// or any answer that came from the network. A saved answer that comes while
// the browser says it is online (the network is back for the page a moment
// before it is for the worker's fetches, or it is flaky) is asked again after
// a while, backing off, until the network answers.
import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { env } from '../config/env';
import { apiPrefix, READS_CACHE, SAVED_AT_HEADER } from '../service-worker/offline';
import { forgetHandedActions } from '../service-worker/background-sync';
import { forgetSavedReads } from '../service-worker/saved-reads';

/** Query hash → when its saved answer was saved (ms since the epoch). */
const saved = new Map<string, number>();
const listeners = new Set<() => void>();
let oldest: number | null = null;
let client: QueryClient | null = null;

/** Waits before asking again while online and still shown saved answers (ms). */
export const RETRY_SAVED_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let retries = 0;

function changed(): void {
  oldest = saved.size ? Math.min(...saved.values()) : null;
  if (saved.size === 0) stopRetrying();
  for (const listener of listeners) listener();
}

function stopRetrying(): void {
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  retries = 0;
}

/** Online, yet shown a saved answer: ask again in a while (one timer at a time). */
function retrySavedLater(): void {
  if (retryTimer !== null || typeof navigator === 'undefined' || !navigator.onLine) return;
  const delay = RETRY_SAVED_MS[Math.min(retries, RETRY_SAVED_MS.length - 1)];
  retries++;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    refetchSaved();
  }, delay);
}

/** Fetches again every query that shows a saved answer (they are replaced when the network answers). */
function refetchSaved(): void {
  if (!client || saved.size === 0) return;
  const hashes = new Set(saved.keys());
  // Not cancelling one already on its way: a burst of answers asks once.
  void client.invalidateQueries({ predicate: (query) => hashes.has(query.queryHash) }, { cancelRefetch: false });
}

/** A query no longer in the cache shows nothing. */
function watch(queryClient: QueryClient): void {
  if (client === queryClient) return;
  client = queryClient;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'removed' && saved.delete(event.query.queryHash)) changed();
  });
}

/**
 * Notes where a query's answer came from (api.ts, for every GET): a saved
 * copy, or the network. An answer from the network while others are saved
 * means the network is back: those are fetched again.
 */
export function noteAnswer(queryClient: QueryClient, queryHash: string, res: Response): void {
  watch(queryClient);
  const savedAt = Number(res.headers.get(SAVED_AT_HEADER));
  if (savedAt > 0) {
    saved.set(queryHash, savedAt);
    changed();
    retrySavedLater();
    return;
  }
  if (saved.delete(queryHash)) changed();
  refetchSaved();
}

if (typeof window !== 'undefined') window.addEventListener('online', refetchSaved);

/** When the oldest answer on screen was saved (ms), or null when everything shown came from the network. */
export function useShowingSavedSince(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => oldest,
    // The prerendered shells (web/prerender-shells.ts) show nothing saved.
    () => null,
  );
}

/**
 * Deletes what the service worker keeps for this device's visitor (signing
 * out): the answers it saved, and the votes and comments handed to it for
 * Background Sync, with their credentials. Never fails.
 */
export async function forgetOfflineCopies(): Promise<void> {
  try {
    if (typeof caches !== 'undefined') await Promise.all([caches.delete(READS_CACHE), forgetHandedActions(caches)]);
  } catch {
    // Storage blocked: nothing was saved.
  }
}

/**
 * Deletes what the service worker saved of one plan (its person left it or
 * deleted it, docs/offline.md "Offline and updates"): its reads, its ideas'
 * and slots'. Never fails.
 */
export async function forgetSavedPlanReads(planId: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  await forgetSavedReads(caches, apiPrefix(window.location.origin, env.apiBaseUrl), { planIds: [planId] });
}

/** For tests: forget every saved answer noted. */
export function resetOfflineReads(): void {
  saved.clear();
  client = null;
  changed();
  stopRetrying();
}

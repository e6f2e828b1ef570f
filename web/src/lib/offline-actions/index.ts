// The outbox of votes and comments, as the app uses it: the tab's own outbox
// (outbox.ts, created on first use), the kinds the features define, and the
// hooks of the screens (docs/offline.md "Offline votes and comments").
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createOfflineOutbox, type OfflineOutbox } from './outbox';
import type { OfflineActionKind, OfflineActionKindHandle, PendingAction } from './types';

export { actionIdentity, credentialsFor, parseAction, tokenSubject } from './action';
export { createOfflineOutbox, type OfflineOutbox } from './outbox';
export { backoffMs } from './sending';
/** The order actions are sent in: as tapped (one rule for the page and the worker). */
export { byTapOrder } from '../../service-worker/background-sync';
export type * from './types';

let tabOutbox: OfflineOutbox | null = null;

function outbox(): OfflineOutbox {
  tabOutbox ??= createOfflineOutbox();
  return tabOutbox;
}

/**
 * A kind of action (idea vote, date vote, comment): its name and how it
 * shows. The name is the word of the screen's mutation key, verb first
 * ('vote-idea', 'vote-date', 'comment'): the mutation uses `handle.name`.
 */
export function defineOfflineActionKind<D>(name: string, handler: OfflineActionKind<D>): OfflineActionKindHandle<D> {
  const handle: OfflineActionKindHandle<D> = {
    name,
    handler,
    submit: (action) => {
      outbox().register(handle);
      return outbox().submit(name, action);
    },
  };
  return handle;
}

/** The app's start: the cache to show pending actions in, and what an earlier visit left is sent. */
export function startOfflineActions(queryClient: QueryClient): () => void {
  return outbox().start(queryClient);
}

/** Sends what waits now, without waiting for back-off timers (a live stream reconnected). */
export function sendOfflineActionsNow(): void {
  if (outbox().view().actions.length > 0) void outbox().flush({ now: true });
}

/** Whether this tab is sending a vote or comment of the plan right now (its live updates wait). */
export function isSendingOfflineAction(planId: string): boolean {
  if (!tabOutbox) return false;
  const { actions, sending } = tabOutbox.view();
  return sending !== null && actions.some((action) => action.key === sending && action.planId === planId);
}

/** Called whenever the outbox changes (what waits, what is being sent). */
export function watchOfflineActions(listener: () => void): () => void {
  return outbox().subscribe(listener);
}

/** A screen that makes or shows actions of `kind`: their answers and pending states land in this cache. */
export function useOfflineActionKind<D>(kind: OfflineActionKindHandle<D>): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    outbox().attach(queryClient);
    outbox().register(kind);
  }, [queryClient, kind]);
}

const subscribe = (listener: () => void) => outbox().subscribe(listener);
const snapshot = () => outbox().view();
// Rendered ahead of time (the static shells): no device, nothing pending.
const NOTHING_PENDING = { actions: [], sending: null };
const noSnapshot = () => NOTHING_PENDING;

/** The pending actions of a plan (all kinds), oldest first. */
export function usePendingActions(planId: string | undefined): PendingAction[] {
  const { actions, sending } = useSyncExternalStore(subscribe, snapshot, noSnapshot);
  return useMemo(
    () => actions.filter((action) => action.planId === planId).map((action) => ({ ...action, sending: action.key === sending })),
    [actions, sending, planId],
  );
}

/** Tests: a fresh outbox for the next test (what is stored is cleared with localStorage). */
export function resetOfflineActions(): void {
  tabOutbox?.reset();
}

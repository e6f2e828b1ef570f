import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveHub } from './live-context';
import { createMyPlansSync, createPlanSync, type LivePlan } from './plan-sync';

/**
 * Keeps every cached read of `plan` in step with what the others do: call it
 * once per screen that shows a plan. Undefined (still loading) listens to nothing.
 */
export function usePlanLiveUpdates(plan: LivePlan | undefined): void {
  const client = useQueryClient();
  const hub = useLiveHub();
  const id = plan?.id;
  const slug = plan?.slug;
  useEffect(() => {
    if (!id) return;
    const sync = createPlanSync(client, { id, slug });
    const unsubscribe = hub.subscribeToPlan(id, sync.handle);
    return () => {
      unsubscribe();
      sync.dispose();
    };
  }, [client, hub, id, slug]);
}

/** The home list: every plan it shows, and the list itself. Undefined (still loading) listens to nothing. */
export function useMyPlansLiveUpdates(planIds: readonly string[] | undefined): void {
  const client = useQueryClient();
  const hub = useLiveHub();
  // One sync across changes of the list (a replayed `ready` must not refetch it).
  const [sync] = useState(() => createMyPlansSync(client));
  const ids = planIds?.join('\n');
  useEffect(() => {
    if (ids === undefined) return;
    const unsubscribe = hub.subscribeToMyPlans(ids === '' ? [] : ids.split('\n'), sync.handle);
    return unsubscribe;
  }, [hub, ids, sync]);
  useEffect(() => () => sync.dispose(), [sync]);
}

/** Shown after this long down: a normal reconnect (every ~2 minutes) takes well under it. */
export const DOWN_SIGN_DELAY_MS = 3000;

/** True once a live connection has been down for `delayMs` without a break. */
export function useLiveConnectionDown(delayMs = DOWN_SIGN_DELAY_MS): boolean {
  const hub = useLiveHub();
  const down = useSyncExternalStore(hub.onDownChange, hub.isDown, () => false);
  const [longDown, setLongDown] = useState(false);
  useEffect(() => {
    if (!down) return;
    const timer = setTimeout(() => setLongDown(true), delayMs);
    return () => {
      clearTimeout(timer);
      setLongDown(false);
    };
  }, [down, delayMs]);
  return down && longDown;
}

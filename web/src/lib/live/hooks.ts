import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { sendOfflineActionsNow } from '../offline-actions';
import { getDefaultLiveHub } from './default-hub';
import type { LiveHub } from './hub';
import { useProvidedLiveHub } from './live-context';
import { createMyPlansSync, createPlanSync, type LivePlan } from './plan-sync';

/** The hub a provider gives (tests), else the tab's own. */
function useLiveHub(): LiveHub {
  return useProvidedLiveHub() ?? getDefaultLiveHub();
}

/**
 * Keeps every cached read of `plan` in step with what the others do: call it
 * once per screen that shows a plan. Undefined (still loading) listens to nothing.
 */
export function usePlanLiveUpdates(plan: LivePlan | undefined): void {
  const client = useQueryClient();
  const hub = useLiveHub();
  const id = plan?.id;
  const slug = plan?.slug ?? undefined;
  useEffect(() => {
    if (!id) return;
    const sync = createPlanSync(client, { id, slug });
    const unsubscribe = hub.subscribeToPlan(id, (event) => {
      sync.handle(event);
      // The stream (re)connected: the network is back, send what waits on this device.
      if (event.type === 'ready' && !event.replayed) sendOfflineActionsNow();
    });
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

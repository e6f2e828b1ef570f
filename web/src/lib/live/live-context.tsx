import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { LiveHub } from './hub';

// Which hub the screens subscribe through, and whether a connection is down.
// Kept tiny and free of the transports: it is in the entry bundle (the
// providers and the sign use it); the rest of lib/live loads with the first
// screen that shows a plan.

const LiveHubContext = createContext<LiveHub | null>(null);

/** A component test's hub (no network); null: the tab's own, created by the first live screen. */
export function LiveHubProvider({ hub, children }: { hub: LiveHub | null; children: ReactNode }) {
  return <LiveHubContext.Provider value={hub}>{children}</LiveHubContext.Provider>;
}

let tabHub: LiveHub | null = null;
const tabHubWatchers = new Set<() => void>();
const watchTabHub = (callback: () => void) => {
  tabHubWatchers.add(callback);
  return () => void tabHubWatchers.delete(callback);
};

/** Called once, when the tab's hub is created (during a render: the news goes out after it). */
export function announceTabHub(hub: LiveHub): void {
  tabHub = hub;
  queueMicrotask(() => tabHubWatchers.forEach((callback) => callback()));
}

/** The hub given by a provider, else the tab's once some screen created it, else null. */
export function useProvidedLiveHub(): LiveHub | null {
  return useContext(LiveHubContext);
}

function useActiveLiveHub(): LiveHub | null {
  const provided = useContext(LiveHubContext);
  const tab = useSyncExternalStore(watchTabHub, () => tabHub, () => null);
  return provided ?? tab;
}

/** Shown after this long down: a normal reconnect (every ~2 minutes) takes well under it. */
export const DOWN_SIGN_DELAY_MS = 3000;

/** True once a live connection has been down for `delayMs` without a break. */
export function useLiveConnectionDown(delayMs = DOWN_SIGN_DELAY_MS): boolean {
  const hub = useActiveLiveHub();
  const subscribe = useCallback((callback: () => void) => (hub ? hub.onDownChange(callback) : () => {}), [hub]);
  const down = useSyncExternalStore(subscribe, () => hub?.isDown() ?? false, () => false);
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

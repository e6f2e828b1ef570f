import { createContext, useContext, type ReactNode } from 'react';
import { getDefaultLiveHub } from './default-hub';
import type { LiveHub } from './hub';

// Which hub the screens subscribe through: the tab's own by default, a fake
// one in component tests (no network, events sent by the test).
const LiveHubContext = createContext<LiveHub | null>(null);

export function LiveHubProvider({ hub, children }: { hub: LiveHub; children: ReactNode }) {
  return <LiveHubContext.Provider value={hub}>{children}</LiveHubContext.Provider>;
}

export function useLiveHub(): LiveHub {
  return useContext(LiveHubContext) ?? getDefaultLiveHub();
}

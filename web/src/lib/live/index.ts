// Live updates, client side (docs/decisions.md "Live updates"): the transport
// (SSE by default, Supabase Realtime when configured) hides behind the hub.
export { getDefaultLiveHub, subscribeToMyPlans, subscribeToPlan } from './default-hub';
export { createLiveHub, type LiveHub } from './hub';
export { DOWN_SIGN_DELAY_MS, useLiveConnectionDown, useMyPlansLiveUpdates, usePlanLiveUpdates } from './hooks';
export { LiveHubProvider, useLiveHub } from './live-context';
export type { LiveStatus, LiveTransport, MyPlansLiveEvent, PlanChange, PlanLiveEvent } from './types';

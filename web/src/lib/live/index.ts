// Live updates, client side (docs/decisions.md "Live updates"): the transport
// (SSE by default, Supabase Realtime when configured) hides behind the hub.
export { getDefaultLiveHub, subscribeToMyPlans, subscribeToPlan } from './default-hub';
export { createLiveHub, type LiveHub } from './hub';
export { useLiveHub, useMyPlansLiveUpdates, usePlanLiveUpdates } from './hooks';
// The entry bundle imports './live-context' directly (it alone stays small).
export { DOWN_SIGN_DELAY_MS, LiveHubProvider, useLiveConnectionDown } from './live-context';
export type { LiveStatus, LiveTransport, MyPlansLiveEvent, PlanChange, PlanLiveEvent } from './types';

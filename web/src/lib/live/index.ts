// Live updates, client side (docs/live-updates.md): the transport
// (SSE by default, Supabase Realtime when configured) hides behind the hub.
// The entry bundle imports './live-context' and './hub' directly (they alone stay small).
export { createLiveHub } from './hub';
export { useMyPlansLiveUpdates, usePlanLiveUpdates } from './hooks';
export type { LiveTransport, MyPlansLiveEvent, PlanChange, PlanLiveEvent } from './types';

import { env } from '../../config/env';
import { createLiveHub, type LiveHub } from './hub';
import { announceTabHub } from './live-context';
import { createRealtimeTransport, supabaseRealtimeLoader } from './realtime-transport';
import { createSseTransport } from './sse-transport';
import type { LiveTransport } from './types';
import { whenIdle } from '../when-idle';

/**
 * An event stream's first connection waits until the page is idle (1 s at
 * most): a screen subscribes as it first renders, and starting a fetch took
 * 5–25 ms of the main thread on a slow phone, in the same task as the first
 * render's effects. Nothing is missed meanwhile: the stream's `ready` names
 * the plan's version, and reads older than it refetch (plan-sync.ts).
 */
const startStreamsWhenIdle = (connect: () => void) => whenIdle(connect, { timeoutMs: 1000, fallbackMs: 0 });

/** Supabase Realtime when the build names a project, else the API's event streams. */
function defaultTransport(): LiveTransport {
  return env.supabase
    ? createRealtimeTransport(supabaseRealtimeLoader(env.supabase.url, env.supabase.anonKey))
    : createSseTransport({ startWhen: startStreamsWhenIdle });
}

let hub: LiveHub | undefined;

/** The tab's hub, created on first use. */
export function getDefaultLiveHub(): LiveHub {
  if (!hub) {
    hub = createLiveHub(defaultTransport());
    announceTabHub(hub); // the "Reconnecting…" sign starts watching it
  }
  return hub;
}

// The default transport: Server-Sent Events from the API (GET
// /api/plans/{id}/events?since=N and GET /api/plans/events), read with fetch.
import { apiUrl } from '../api';
import { apiPaths } from '../api-paths';
import type { SseMessage } from './sse-parser';
import { openSseStream } from './sse-stream';
import { parseChange, type LiveTransport, type MyPlansConnection, type PlanChange } from './types';

function json(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch {
    return null;
  }
}

/** The version a `ready` names: its data, else its `id:` line. */
function readyVersion(message: SseMessage): number | undefined {
  const data = json(message) as { version?: unknown } | null;
  if (typeof data?.version === 'number') return data.version;
  const id = Number(message.id);
  return message.id !== '' && Number.isFinite(id) ? id : undefined;
}

interface SseTransportOptions {
  fetch?: typeof globalThis.fetch;
  /** When each stream makes its first connection (openSseStream's `startWhen`); at once by default. */
  startWhen?: (connect: () => void) => () => void;
}

export function createSseTransport({ fetch, startWhen }: SseTransportOptions = {}): LiveTransport {
  return {
    openPlan(planId, emit) {
      let since: number | undefined;
      const seen = (version: number) => {
        since = since === undefined ? version : Math.max(since, version);
      };
      return openSseStream({
        fetch,
        startWhen,
        // Resume from the last version seen: the server answers with `ready`,
        // or a change with every part when we are behind.
        url: () => apiUrl(apiPaths.planEvents(planId, since)),
        onMessage: (message) => {
          if (message.event === 'ready') {
            const version = readyVersion(message);
            if (version === undefined) return;
            seen(version);
            emit({ type: 'ready', version });
          } else if (message.event === 'change') {
            const change = parseChange(message.data);
            if (!change || change.planId !== planId) return;
            seen(change.version);
            emit({ type: 'change', change });
            // The server closes after this; there is nothing to come back to.
            if (change.parts.includes('deleted')) return 'stop';
          }
        },
        onStatus: (status) => emit({ type: 'status', status }),
        onRefused: (status) => {
          // The plan is gone (or never was): the page shows "Plan not found".
          if (status === 404) emit({ type: 'change', change: { planId, version: since ?? 0, parts: ['deleted'] } });
        },
      });
    },

    openMyPlans(initialIds, emit): MyPlansConnection {
      let watched = new Set(initialIds);
      /** The plans the server covers (its `ready`), and those we showed when we connected. */
      let covered: Set<string> | null = null;
      let askedFor = new Set(watched);
      const missing = () => covered !== null && [...watched].some((id) => !covered!.has(id) && !askedFor.has(id));
      const stream = openSseStream({
        fetch,
        startWhen,
        url: () => {
          askedFor = new Set(watched);
          covered = null;
          return apiUrl(apiPaths.myPlanEvents());
        },
        onMessage: (message) => {
          if (message.event === 'ready') {
            const ids = (json(message) as { planIds?: unknown } | null)?.planIds;
            const planIds = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
            covered = new Set(planIds);
            emit({ type: 'ready', planIds });
            if (missing()) queueMicrotask(() => stream.restart());
          } else if (message.event === 'change') {
            const change: PlanChange | null = parseChange(message.data);
            if (change) emit({ type: 'change', change });
          }
        },
        onStatus: (status) => emit({ type: 'status', status }),
      });
      return {
        close: () => stream.close(),
        watch(planIds) {
          watched = new Set(planIds);
          // The server fixed its set when the stream opened: a plan new to both
          // (just created or joined) needs a new stream. A plan the server left
          // out although we had it does not (no reconnect loop).
          if (missing()) stream.restart();
        },
      };
    },
  };
}

// One long-lived event stream read with fetch (EventSource cannot send the
// Authorization header), reconnecting by itself: at once after a normal close
// (the server ends every stream after ~120 s), with back-off 1 s, 2 s, 4 s...
// up to 30 s after failures, and at once when the device comes back online or
// the tab becomes visible again. A refusal before the stream opens (401, 404)
// stops it for good; a 429 (too many open streams) waits at least as long as
// its Retry-After says.
import { buildHeaders } from '../api';
import { createSseParser, type SseMessage } from './sse-parser';
import type { LiveStatus } from './types';

const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** The server pings every 20 s: two missed pings mean a dead connection nobody closed. */
export const HEARTBEAT_TIMEOUT_MS = 45_000;
/** A connection closed sooner than this counts as a failure (no hot reconnect loop). */
const MIN_HEALTHY_MS = 1000;
/** Answers that retrying cannot fix. */
const REFUSALS = new Set([401, 403, 404, 410]);

interface SseStreamOptions {
  /** The URL of the next connection (a plan's carries `?since=`). */
  url: () => string;
  /** Return 'stop' to end the stream for good (after a `deleted` change). */
  onMessage: (message: SseMessage) => 'stop' | void;
  onStatus: (status: LiveStatus) => void;
  /** The server refused before the stream opened; the stream has stopped. */
  onRefused?: (status: number) => void;
  fetch?: typeof fetch;
  /**
   * When to make the first connection: calls `connect` then (or never, if the
   * stream is closed first) and returns a function that cancels it. At once
   * by default.
   */
  startWhen?: (connect: () => void) => () => void;
}

export interface SseStream {
  close(): void;
  /** Drop the current connection (if any) and open a new one now. */
  restart(): void;
}

type State = 'connecting' | 'open' | 'waiting' | 'stopped' | 'closed';

/** A 429's or 503's Retry-After (whole seconds), in ms; 0 without one. */
function retryAfterMs(res: Response): number {
  if (res.status !== 429 && res.status !== 503) return 0;
  const seconds = Number(res.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 600) * 1000 : 0;
}

export function openSseStream(options: SseStreamOptions): SseStream {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let state: State = 'connecting';
  let failures = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  let status: LiveStatus | null = null;
  /** Cancels the first connection's schedule (startWhen) while it has not come. */
  let cancelStart: (() => void) | null = null;

  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus(next);
  };

  const clearTimers = () => {
    clearTimeout(retryTimer);
    clearTimeout(heartbeatTimer);
  };

  const fail = (atLeastMs = 0) => {
    // Once per broken connection (an abort also ends its read with an error).
    if (state === 'closed' || state === 'stopped' || state === 'waiting') return;
    controller = null;
    state = 'waiting';
    setStatus('reconnecting');
    const delay = Math.max(Math.min(BACKOFF_START_MS * 2 ** failures, BACKOFF_MAX_MS), atLeastMs);
    failures++;
    retryTimer = setTimeout(() => void connect(), delay);
  };

  const stop = () => {
    state = 'stopped';
    clearTimers();
    controller?.abort();
    removeListeners();
    setStatus('stopped');
  };

  async function connect(): Promise<void> {
    // Any connection (a restart, coming back online) takes the scheduled first one's place.
    cancelStart?.();
    cancelStart = null;
    clearTimers();
    state = 'connecting';
    const attempt = new AbortController();
    controller = attempt;
    const current = () => controller === attempt && state !== 'closed' && state !== 'stopped';
    const armHeartbeat = () => {
      clearTimeout(heartbeatTimer);
      heartbeatTimer = setTimeout(() => {
        if (!current()) return;
        fail();
        attempt.abort();
      }, HEARTBEAT_TIMEOUT_MS);
    };

    let res: Response;
    try {
      const headers = buildHeaders(false);
      headers.set('Accept', 'text/event-stream');
      res = await doFetch(options.url(), { headers, credentials: 'include', cache: 'no-store', signal: attempt.signal });
    } catch {
      if (current()) fail();
      return;
    }
    if (!current()) return;
    if (!res.ok || !res.body) void res.body?.cancel().catch(() => {});
    if (REFUSALS.has(res.status)) {
      stop();
      options.onRefused?.(res.status);
      return;
    }
    if (!res.ok || !res.body) {
      fail(retryAfterMs(res));
      return;
    }

    state = 'open';
    const openedAt = Date.now();
    let heard = false;
    let stopped = false;
    const parser = createSseParser((message) => {
      if (stopped || !current()) return;
      heard = true;
      failures = 0;
      setStatus('live');
      if (options.onMessage(message) === 'stop') stopped = true;
    });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    armHeartbeat();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (!current()) return;
        if (done) break;
        armHeartbeat();
        parser.push(decoder.decode(value, { stream: true }));
        if (stopped) {
          stop();
          return;
        }
      }
    } catch {
      if (current()) fail();
      return;
    } finally {
      if (controller === attempt) clearTimeout(heartbeatTimer);
    }
    parser.end();
    // The server's normal close: back at once, from where we were.
    if (heard && Date.now() - openedAt >= MIN_HEALTHY_MS) {
      setStatus('reconnecting');
      void connect();
    } else {
      fail();
    }
  }

  const wake = () => {
    if (state !== 'waiting') return;
    failures = 0;
    void connect();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') wake();
  };
  const onOffline = () => {
    // Say so now rather than after the heartbeat; 'online' brings it back.
    if (state !== 'open' && state !== 'connecting') return;
    const dropped = controller;
    fail();
    dropped?.abort();
  };
  function removeListeners() {
    window.removeEventListener('online', wake);
    window.removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisibility);
  }
  window.addEventListener('online', wake);
  window.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisibility);

  if (options.startWhen) {
    let due = true;
    const cancel = options.startWhen(() => {
      if (!due || state !== 'connecting') return;
      due = false;
      cancelStart = null;
      void connect();
    });
    if (due) {
      cancelStart = () => {
        due = false;
        cancel();
      };
    }
  } else {
    void connect();
  }

  return {
    close() {
      state = 'closed';
      cancelStart?.();
      cancelStart = null;
      clearTimers();
      controller?.abort();
      controller = null;
      removeListeners();
    },
    restart() {
      if (state === 'closed' || state === 'stopped') return;
      controller?.abort();
      controller = null;
      void connect();
    },
  };
}

// A Server-Sent Events reader for the API tests: opens a stream with fetch,
// parses it as the browser would, and lets a test wait for the next event.
import { inject } from 'vitest';
import { readEventStream } from '../../scripts/lib/sse-reader.ts';
import '../setup/context.ts';

export interface SseEvent {
  event: string;
  id?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body of a refused request (no stream). */
  text: string;
  events: SseEvent[];
  /** Comment lines (`: ping`) seen so far. */
  comments: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded: () => boolean;
  /** The first event (after those already taken) that matches, within timeoutMs. */
  next: (match?: (e: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
  close: () => void;
}

export async function openSse(
  path: string,
  opts: { token?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<SseStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const abort = new AbortController();
  const res = await fetch(`${opts.baseUrl ?? inject('apiUrl')}${path}`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let taken = 0;
  let done = false;

  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      events,
      comments,
      ended: Promise.resolve(),
      isEnded: () => true,
      next: () => Promise.reject(new Error(`no stream: ${res.status} ${text}`)),
      close: () => {},
    };
  }

  const ended = (async () => {
    try {
      await readEventStream(res.body as unknown as AsyncIterable<Uint8Array>, (block) => {
        comments.push(...block.comments);
        if (block.data !== undefined) {
          events.push({ event: block.event, id: block.id, data: JSON.parse(block.data), at: performance.now() });
        }
        for (const wake of [...waiters]) wake();
      });
    } catch {
      /* aborted */
    } finally {
      done = true;
      for (const wake of [...waiters]) wake();
    }
  })();

  const next = (match: (e: SseEvent) => boolean = () => true, timeoutMs = 3000) =>
    new Promise<SseEvent>((resolve, reject) => {
      const check = () => {
        for (let i = taken; i < events.length; i++) {
          if (match(events[i])) {
            taken = i + 1;
            cleanup();
            resolve(events[i]);
            return true;
          }
        }
        if (done) {
          cleanup();
          reject(new Error(`stream ended before the event came; got ${JSON.stringify(events.slice(taken))}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.slice(taken))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = () => void check();
      if (!check()) waiters.add(wake);
    });

  return {
    status: res.status,
    headers: res.headers,
    text: '',
    events,
    comments,
    ended,
    isEnded: () => done,
    next,
    close: () => abort.abort(),
  };
}

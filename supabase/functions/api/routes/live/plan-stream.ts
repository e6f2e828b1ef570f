// One Server-Sent Events stream of plan changes (docs/live-updates.md). The
// caller has already checked who asks; this module only needs a way to read
// the versions of the plans the caller may see, under the caller's claims, so
// that a resume or a resync is answered truthfully.
//
//   retry: 1000
//   event: ready            (or a full `change` when the client is behind)
//   id: 12
//   data: {"planId":"…","version":12}
//
//   event: change
//   id: 13
//   data: {"planId":"…","version":13,"parts":["ideas"],"ideaIds":["…"]}
//
//   : ping                  (every heartbeatMs)
//
// The stream ends itself after lifetimeMs (clients reconnect with ?since=),
// after a `deleted` event of a single-plan stream, or when a resync fails.
import { fullChange, type PlanChange } from '../../../_shared/contract/live.ts';
import { type FeedEvent, type PlanFeed } from './plan-feed.ts';

interface PlanStreamOptions {
  feed: PlanFeed;
  planIds: string[];
  /** The versions of the plans the caller may read now (absent: unknown, deleted or hidden). */
  readVersions: () => Promise<Map<string, number>>;
  /** The version the client already has (single-plan streams only). */
  since?: number | null;
  /** The data of the first event when nothing needs refetching. */
  ready: (versions: Map<string, number>) => Record<string, unknown>;
  /** Called when the caller may not read the plan(s) at all: throw the 404. */
  onUnreadable: () => never;
  lifetimeMs: number;
  heartbeatMs: number;
  /** Called once when the stream ends, or when it never opens (an error, a 404). */
  onClose?: () => void;
}

const encoder = new TextEncoder();

function frame(event: string, data: unknown, id?: number): string {
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Nginx-style proxies would otherwise buffer the stream.
  'x-accel-buffering': 'no',
} as const;

export async function openPlanStream(opts: PlanStreamOptions): Promise<Response> {
  try {
    return await openStream(opts);
  } catch (error) {
    opts.onClose?.();
    throw error;
  }
}

async function openStream(opts: PlanStreamOptions): Promise<Response> {
  const single = opts.planIds.length === 1;
  // Subscribe BEFORE reading the versions: a change committed in between is
  // buffered and then sent (or skipped when the read already includes it).
  const early: FeedEvent[] = [];
  let deliver: ((event: FeedEvent) => void) | null = null;
  const unsubscribe = await opts.feed.subscribe(opts.planIds, (event) => (deliver ? deliver(event) : early.push(event)));

  let versions: Map<string, number>;
  try {
    versions = await opts.readVersions();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  if (single && versions.size === 0) {
    unsubscribe();
    opts.onUnreadable();
  }

  const sent = new Map(versions);
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const timers: Array<ReturnType<typeof setTimeout>> = [];

  function write(text: string): void {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  }

  function close(): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    opts.onClose?.();
    for (const t of timers) clearTimeout(t);
    try {
      controller.close();
    } catch {
      /* already closed by the client */
    }
  }

  function sendChange(change: PlanChange): void {
    if (change.parts.includes('deleted')) {
      // Always forwarded: the plan is gone whatever version the client has.
      write(frame('change', change, single ? change.version : undefined));
      sent.delete(change.planId);
      if (single) close();
      return;
    }
    const last = sent.get(change.planId);
    if (last === undefined || change.version <= last) return;
    sent.set(change.planId, change.version);
    write(frame('change', change, single ? change.version : undefined));
  }

  async function resync(): Promise<void> {
    try {
      const now = await opts.readVersions();
      for (const [planId, last] of [...sent]) {
        const version = now.get(planId);
        if (version === undefined) sendChange({ planId, version: last + 1, parts: ['deleted'] });
        else if (version !== last) {
          sent.set(planId, version);
          write(frame('change', fullChange(planId, version), single ? version : undefined));
        }
      }
    } catch (error) {
      // Cannot tell what changed: end the stream, the client reconnects and resumes.
      console.error('Live stream: resync failed:', error);
      close();
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      write('retry: 1000\n\n');
      const [planId, version] = single ? [...versions][0] : [undefined, undefined];
      if (single && opts.since != null && opts.since !== version) {
        // The client is behind (or ahead of a restored database): refetch everything once.
        write(frame('change', fullChange(planId!, version!), version));
      } else {
        write(frame('ready', opts.ready(versions), version));
      }
      deliver = (event) => (event.kind === 'resync' ? void resync() : sendChange(event.change));
      for (const event of early.splice(0)) deliver(event);
      const heartbeat = setInterval(() => write(': ping\n\n'), opts.heartbeatMs);
      timers.push(heartbeat as unknown as ReturnType<typeof setTimeout>, setTimeout(close, opts.lifetimeMs));
    },
    cancel() {
      close();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

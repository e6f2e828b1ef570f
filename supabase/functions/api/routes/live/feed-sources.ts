// The two sources of the live feed (see plan-feed.ts) and the instance's one
// feed. `listen`: a dedicated connection LISTENs on the channel the change
// feed notifies; a heartbeat NOTIFY every 30 s proves the whole path still
// works (postgres.js re-listens after a dropped connection, but gives up
// silently if the database is still away at that moment), and a beat that
// never arrives reconnects and tells every stream to resync. `poll`: behind a
// transaction pooler, read the watched plans' versions every few seconds.
import postgres from 'postgres';
import { fullChange, parseChange } from '../../../_shared/contract/live.ts';
import { withRequest } from '../../../_shared/db/client.ts';
import { databasePoolMode, databaseUrl, liveStreamTiming } from '../../../_shared/config/env.ts';
import { type FeedEvent, type FeedSource, PlanFeed } from './plan-feed.ts';

const CHANGE_CHANNEL = 'hangplan_plan_changes';
const HEARTBEAT_CHANNEL = 'hangplan_feed_heartbeat';
const HEARTBEAT_MS = 30_000;

function listenSource(heartbeatMs = HEARTBEAT_MS): FeedSource {
  let client: postgres.Sql | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let pendingBeat: string | null = null;
  let emit: (event: FeedEvent) => void = () => {};

  async function connect(): Promise<void> {
    const next = postgres(databaseUrl(), {
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'hangplan-live' },
    });
    try {
      let listening = false;
      await next.listen(
        CHANGE_CHANNEL,
        (payload) => {
          const change = parseChange(payload);
          if (change) emit({ kind: 'change', change });
        },
        // Called again after postgres.js re-listens on a new connection:
        // whatever was notified in between is lost, so streams must resync.
        () => {
          if (listening) emit({ kind: 'resync' });
          listening = true;
        },
      );
      await next.listen(HEARTBEAT_CHANNEL, (beat) => {
        if (beat === pendingBeat) pendingBeat = null;
      });
    } catch (error) {
      await next.end({ timeout: 0 }).catch(() => {});
      throw error;
    }
    client = next;
  }

  async function beat(): Promise<void> {
    if (pendingBeat !== null || client === null) {
      // The last beat never came back: the LISTEN connection is dead.
      pendingBeat = null;
      const old = client;
      client = null;
      await old?.end({ timeout: 0 }).catch(() => {});
      try {
        await connect();
        emit({ kind: 'resync' });
      } catch (error) {
        console.error('Live feed: cannot LISTEN, will retry:', error);
        return;
      }
    }
    const token = crypto.randomUUID();
    pendingBeat = token;
    // Through the pool as anon (never as the owner); pg_notify is public.
    await withRequest({}, (tx) => tx`select pg_notify(${HEARTBEAT_CHANNEL}, ${token})`).catch(() => {});
  }

  return {
    async start(onEvent) {
      emit = onEvent;
      await connect();
      timer = setInterval(() => void beat(), heartbeatMs);
    },
    async stop() {
      clearInterval(timer);
      const old = client;
      client = null;
      await old?.end({ timeout: 0 });
    },
  };
}

/**
 * Poll the versions of the watched plans. A plan seen for the first time is
 * announced as a full change at its version (a stream that already has that
 * version ignores it; one that fell behind in between refetches); a plan that
 * is gone is announced as deleted.
 */
function pollSource(
  readVersions: (planIds: string[]) => Promise<Map<string, number>>,
  intervalMs: number,
): FeedSource {
  let watched: string[] = [];
  const known = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let running = false;
  let emit: (event: FeedEvent) => void = () => {};

  async function tick(): Promise<void> {
    if (running || watched.length === 0) return;
    running = true;
    try {
      const ids = watched;
      const versions = await readVersions(ids);
      for (const planId of ids) {
        const version = versions.get(planId);
        const before = known.get(planId);
        if (version === undefined) {
          known.delete(planId);
          emit({ kind: 'change', change: { planId, version: (before ?? 0) + 1, parts: ['deleted'] } });
        } else if (before === undefined || version > before) {
          known.set(planId, version);
          emit({ kind: 'change', change: fullChange(planId, version) });
        }
      }
    } catch (error) {
      console.error('Live feed: polling failed:', error);
    } finally {
      running = false;
    }
  }

  return {
    start(onEvent) {
      emit = onEvent;
      timer = setInterval(() => void tick(), intervalMs);
      return Promise.resolve();
    },
    stop() {
      clearInterval(timer);
      return Promise.resolve();
    },
    watch(planIds) {
      watched = [...planIds];
      for (const id of known.keys()) if (!planIds.has(id)) known.delete(id);
    },
  };
}

/** Versions of plans by id, as anon: a plan id is the capability to read it. */
async function readPlanVersions(planIds: string[]): Promise<Map<string, number>> {
  const rows = await withRequest({}, (tx) =>
    tx<{ planId: string; version: string }[]>`
      select plan_id as "planId", version::text from private.plan_versions(${planIds}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.planId, Number(r.version)]));
}

let feed: PlanFeed | undefined;

/** This instance's feed: LISTEN on a direct connection, polling behind a transaction pooler. */
export function planFeed(): PlanFeed {
  feed ??= new PlanFeed(
    databasePoolMode() === 'transaction' ? pollSource(readPlanVersions, liveStreamTiming().pollMs) : listenSource(),
  );
  return feed;
}

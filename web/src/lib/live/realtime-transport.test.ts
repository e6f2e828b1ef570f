import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { apiGet, queryVersion } from '../api';
import { planKeys } from '../query-keys';
import { createLiveHub } from './hub';
import { createPlanSync } from './plan-sync';
import { createRealtimeTransport, type RealtimeChannelLike, type RealtimeClientLike } from './realtime-transport';
import { fullChange, type MyPlansLiveEvent, type PlanLiveEvent } from './types';

/** A fake Supabase client: channels the test drives (status changes, broadcasts). */
function fakeRealtime() {
  interface FakeChannel {
    name: string;
    removed: boolean;
    filter?: { event: string };
    broadcast: (payload: unknown) => void;
    status: (status: string) => void;
  }
  const channels: FakeChannel[] = [];
  const byObject = new Map<RealtimeChannelLike, FakeChannel>();
  const client: RealtimeClientLike = {
    channel(name) {
      const entry: FakeChannel = { name, removed: false, broadcast: () => {}, status: () => {} };
      const channel: RealtimeChannelLike = {
        on(_type, filter, callback) {
          entry.filter = filter;
          entry.broadcast = (payload) => callback({ payload });
          return channel;
        },
        subscribe(callback) {
          entry.status = (status) => callback(status);
          return channel;
        },
      };
      channels.push(entry);
      byObject.set(channel, entry);
      return channel;
    },
    removeChannel(channel) {
      byObject.get(channel)!.removed = true;
    },
  };
  return { client, channels, named: (name: string) => channels.find((c) => c.name === name && !c.removed)! };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
let realtime: ReturnType<typeof fakeRealtime>;
let load: ReturnType<typeof vi.fn<() => Promise<RealtimeClientLike>>>;

beforeEach(() => {
  vi.useFakeTimers();
  realtime = fakeRealtime();
  load = vi.fn(async () => realtime.client);
});
afterEach(() => vi.useRealTimers());

describe('Realtime transport', () => {
  it("listens to the plan's public topic and forwards its change broadcasts", async () => {
    const events: PlanLiveEvent[] = [];
    const connection = createRealtimeTransport(load).openPlan('p1', (e) => events.push(e));
    await settle();
    const channel = realtime.named('plan:p1');
    expect(channel.filter).toEqual({ event: 'change' });
    channel.status('SUBSCRIBED');
    channel.broadcast({ planId: 'p1', version: 4, parts: ['dates'], slotIds: ['s1'] });
    channel.broadcast({ planId: 'p1', version: 'x', parts: [] }); // not a change: dropped
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', version: null },
      { type: 'change', change: { planId: 'p1', version: 4, parts: ['dates'], slotIds: ['s1'] } },
    ]);
    connection.close();
    expect(channel.removed).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('after a drop, says reconnecting, then refetches everything once it is back', async () => {
    const events: PlanLiveEvent[] = [];
    createRealtimeTransport(load).openPlan('p1', (e) => events.push(e));
    await settle();
    const channel = realtime.named('plan:p1');
    channel.status('SUBSCRIBED');
    events.length = 0;
    channel.status('CHANNEL_ERROR');
    channel.status('SUBSCRIBED');
    expect(events).toEqual([
      { type: 'status', status: 'reconnecting' },
      { type: 'status', status: 'live' },
      {
        type: 'change',
        change: { planId: 'p1', version: Infinity, parts: ['plan', 'participants', 'ideas', 'comments', 'dates', 'rsvps'], ideaIds: null, slotIds: null },
      },
    ]);
  });

  it('passes "deleted" on as a hint and keeps listening (anyone can broadcast it; the API decides)', async () => {
    const events: PlanLiveEvent[] = [];
    createRealtimeTransport(load).openPlan('p1', (e) => events.push(e));
    await settle();
    const channel = realtime.named('plan:p1');
    channel.status('SUBSCRIBED');
    channel.broadcast({ planId: 'p1', version: 9, parts: ['deleted'] });
    channel.broadcast({ planId: 'p1', version: 10, parts: ['plan'] });
    expect(events.slice(2)).toEqual([
      { type: 'change', change: { planId: 'p1', version: 9, parts: ['deleted'] } },
      { type: 'change', change: { planId: 'p1', version: 10, parts: ['plan'] } },
    ]);
    expect(channel.removed).toBe(false);
  });

  it('retries a failed load of supabase-js', async () => {
    load.mockRejectedValueOnce(new Error('offline'));
    const events: PlanLiveEvent[] = [];
    createRealtimeTransport(load).openPlan('p1', (e) => events.push(e));
    await settle();
    expect(events).toEqual([{ type: 'status', status: 'reconnecting' }]);
    await vi.advanceTimersByTimeAsync(5000);
    realtime.named('plan:p1').status('SUBSCRIBED');
    expect(events.at(-1)).toEqual({ type: 'ready', version: null });
  });

  it('home list: one channel per plan, ready once all are subscribed, follows the list', async () => {
    const events: MyPlansLiveEvent[] = [];
    const connection = createRealtimeTransport(load).openMyPlans(['p1', 'p2'], (e) => events.push(e));
    await settle();
    realtime.named('plan:p1').status('SUBSCRIBED');
    expect(events).toEqual([]);
    realtime.named('plan:p2').status('SUBSCRIBED');
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', planIds: ['p1', 'p2'] },
    ]);
    realtime.named('plan:p2').broadcast({ planId: 'p2', version: 3, parts: ['plan'] });
    expect(events.at(-1)).toEqual({ type: 'change', change: { planId: 'p2', version: 3, parts: ['plan'] } });

    connection.watch(['p2', 'p3']);
    await settle();
    expect(realtime.channels.find((c) => c.name === 'plan:p1')!.removed).toBe(true);
    expect(realtime.named('plan:p3')).toBeDefined();
    connection.close();
    expect(realtime.channels.every((c) => c.removed)).toBe(true);
  });

  it('home list without plans is ready at once', async () => {
    const events: MyPlansLiveEvent[] = [];
    createRealtimeTransport(load).openMyPlans([], (e) => events.push(e));
    await settle();
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', planIds: [] },
    ]);
  });
});

// The topic `plan:{id}` is public and the anon key is in the bundle: anyone
// can broadcast on it (decision 0089). Here the whole client path runs (the
// transport, the hub, the plan's sync, the query cache, its ETags) against a
// fake API that answers the plan's real version, and a stranger's broadcasts
// arrive between the real ones.
describe('forged broadcasts are only hints', () => {
  it('a forged version 1e9 and a forged "deleted" stop nothing: the next real change still shows', async () => {
    vi.useRealTimers();
    const server = { version: 12, title: 'Board games' };
    const requests: Array<string | null> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        const etag = `W/"v${server.version}"`;
        const asked = new Headers(init?.headers).get('If-None-Match');
        requests.push(asked);
        if (asked === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
        return Response.json({ id: 'p1', title: server.title }, { headers: { ETag: etag } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const detail = new QueryObserver(client, { queryKey: planKeys.detail('p1'), queryFn: apiGet('/api/plans/p1', (body) => body) });
    const shown = () => detail.getCurrentResult();
    const stopShowing = detail.subscribe(() => {});
    await vi.waitFor(() => expect(shown().data).toEqual({ id: 'p1', title: 'Board games' }));
    const hash = client.getQueryCache().find({ queryKey: planKeys.detail('p1') })!.queryHash;

    const hub = createLiveHub(createRealtimeTransport(load), { graceMs: 0 });
    const sync = createPlanSync(client, { id: 'p1' });
    const heard: PlanLiveEvent[] = [];
    const unsubscribe = hub.subscribeToPlan('p1', (event) => {
      heard.push(event);
      sync.handle(event);
    });
    await vi.waitFor(() => expect(realtime.channels).toHaveLength(1));
    const channel = realtime.named('plan:p1');
    channel.status('SUBSCRIBED');

    // The stranger's "version 1e9, everything changed": a refetch, answered 304 at the real version.
    requests.length = 0;
    channel.broadcast(fullChange('p1', 1e9));
    await vi.waitFor(() => expect(requests).toEqual(['W/"v12"']));
    await vi.waitFor(() => expect(shown().isFetching).toBe(false));
    expect(queryVersion(client, hash)).toBe(12);
    // A late subscriber is not told the forged version either.
    const late: PlanLiveEvent[] = [];
    const unsubscribeLate = hub.subscribeToPlan('p1', (event) => late.push(event));
    await vi.waitFor(() => expect(late).toContainEqual({ type: 'ready', version: null, replayed: true }));
    unsubscribeLate();

    // The stranger's "deleted": the API still answers the plan, so it stays on screen and the channel open.
    channel.broadcast({ planId: 'p1', version: 1e9, parts: ['deleted'] });
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    await vi.waitFor(() => expect(shown().isFetching).toBe(false));
    expect(shown()).toMatchObject({ status: 'success', data: { id: 'p1', title: 'Board games' } });
    expect(channel.removed).toBe(false);
    expect(heard).not.toContainEqual({ type: 'status', status: 'stopped' });

    // The host renames the plan: the real broadcast (version 13) is heard and shown.
    server.version = 13;
    server.title = 'Board games at Mia’s';
    channel.broadcast({ planId: 'p1', version: 13, parts: ['plan'] });
    await vi.waitFor(() => expect(shown().data).toEqual({ id: 'p1', title: 'Board games at Mia’s' }));
    expect(queryVersion(client, hash)).toBe(13);
    // And the one after it.
    server.version = 14;
    server.title = 'Board games, Friday';
    channel.broadcast({ planId: 'p1', version: 14, parts: ['plan'] });
    await vi.waitFor(() => expect(shown().data).toEqual({ id: 'p1', title: 'Board games, Friday' }));

    unsubscribe();
    sync.dispose();
    stopShowing();
    client.clear();
    vi.unstubAllGlobals();
  });
});

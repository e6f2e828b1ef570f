import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeTransport, type RealtimeChannelLike, type RealtimeClientLike } from './realtime-transport';
import type { MyPlansLiveEvent, PlanLiveEvent } from './types';

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
        change: { planId: 'p1', version: Infinity, parts: ['plan', 'participants', 'ideas', 'comments', 'dates'], ideaIds: null, slotIds: null },
      },
    ]);
  });

  it('stops after the plan is deleted', async () => {
    const events: PlanLiveEvent[] = [];
    createRealtimeTransport(load).openPlan('p1', (e) => events.push(e));
    await settle();
    const channel = realtime.named('plan:p1');
    channel.status('SUBSCRIBED');
    channel.broadcast({ planId: 'p1', version: 9, parts: ['deleted'] });
    expect(events.slice(-2)).toEqual([
      { type: 'change', change: { planId: 'p1', version: 9, parts: ['deleted'] } },
      { type: 'status', status: 'stopped' },
    ]);
    expect(channel.removed).toBe(true);
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

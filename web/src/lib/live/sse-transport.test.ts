import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSseServer } from '../../test/fake-sse';
import { createLiveHub } from './hub';
import { HEARTBEAT_TIMEOUT_MS } from './sse-stream';
import { createSseTransport } from './sse-transport';
import type { MyPlansLiveEvent, PlanLiveEvent } from './types';

/** Lets fetches, stream reads and timers due now run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

let server: ReturnType<typeof fakeSseServer>;
const connections: Array<{ close(): void }> = [];

function openPlan(planId = 'p1') {
  const events: PlanLiveEvent[] = [];
  const connection = createSseTransport({ fetch: server.fetch }).openPlan(planId, (event) => events.push(event));
  connections.push(connection);
  return { events, connection, types: () => events.map((e) => (e.type === 'status' ? e.status : e.type)) };
}

const change = (version: number, parts: string[] = ['ideas'], planId = 'p1') => ({ planId, version, parts });

beforeEach(() => {
  vi.useFakeTimers();
  server = fakeSseServer();
});

afterEach(() => {
  connections.splice(0).forEach((connection) => connection.close());
  vi.useRealTimers();
});

describe('SSE transport, one plan', () => {
  it('opens the plan stream with the token and hears ready and changes', async () => {
    localStorage.setItem('authToken', 'tok-1');
    const { events } = openPlan();
    await settle();
    const stream = server.latest();
    expect(stream.url).toBe('/api/plans/p1/events');
    expect(stream.headers.get('Accept')).toBe('text/event-stream');
    expect(stream.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(server.fetchMock.mock.calls[0]![1]?.credentials).toBe('include');

    stream.event('ready', { planId: 'p1', version: 5 }, 5);
    stream.write(': ping\n\n');
    stream.event('change', { ...change(6), ideaIds: ['i1'] }, 6);
    stream.event('change', change(7, ['plan'], 'other'), 7); // not this plan's: ignored
    await settle();
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', version: 5 },
      { type: 'change', change: { ...change(6), ideaIds: ['i1'] } },
    ]);
  });

  it('reconnects at once after the server closes, resuming from the last version seen', async () => {
    const { types } = openPlan();
    await settle();
    server.latest().event('ready', { planId: 'p1', version: 5 }, 5);
    server.latest().event('change', change(9), 9);
    for (let second = 0; second < 120; second += 20) {
      await vi.advanceTimersByTimeAsync(20_000);
      server.latest().write(': ping\n\n');
    }
    server.latest().end();
    await settle();
    expect(server.urls()).toEqual(['/api/plans/p1/events', '/api/plans/p1/events?since=9']);
    server.latest().event('ready', { planId: 'p1', version: 9 }, 9);
    await settle();
    expect(types()).toEqual(['live', 'ready', 'change', 'reconnecting', 'live', 'ready']);
  });

  it('backs off 1 s, 2 s, 4 s... up to 30 s while the server cannot be reached, then starts over', async () => {
    server.script(...Array<'network-error'>(7).fill('network-error'));
    const { events } = openPlan();
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ type: 'status', status: 'reconnecting' }]);
    const delays = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000];
    for (const [index, delay] of delays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(server.fetchMock).toHaveBeenCalledTimes(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.fetchMock).toHaveBeenCalledTimes(index + 2);
    }
    // The 8th attempt got a stream: a healthy connection resets the back-off.
    server.latest().event('ready', { planId: 'p1', version: 1 }, 1);
    await settle();
    server.latest().fail();
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.fetchMock).toHaveBeenCalledTimes(9);
  });

  it('treats a 5xx like a failure and retries', async () => {
    server.script(503);
    openPlan();
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.urls()).toEqual(['/api/plans/p1/events', '/api/plans/p1/events']);
  });

  it('backs off at least as long as a 429 (too many open streams) asks, then connects', async () => {
    server.script(429);
    openPlan();
    await settle();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
  });

  it('reports a 404 as the plan deleted, and stops', async () => {
    server.script(404);
    const { events } = openPlan();
    await settle();
    expect(events).toEqual([
      { type: 'status', status: 'stopped' },
      { type: 'change', change: { planId: 'p1', version: 0, parts: ['deleted'] } },
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops on 401 without saying the plan is gone', async () => {
    server.script(401);
    const { events } = openPlan();
    await settle();
    expect(events).toEqual([{ type: 'status', status: 'stopped' }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops after a deleted change instead of reconnecting', async () => {
    const { types } = openPlan();
    await settle();
    server.latest().event('change', change(4, ['deleted']), 4);
    await settle();
    server.latest().end();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    expect(types()).toEqual(['live', 'change', 'stopped']);
  });

  it('reconnects at once when the device is back online or the tab visible again', async () => {
    server.script('network-error', 'network-error', 'network-error');
    openPlan();
    await settle();
    await vi.advanceTimersByTimeAsync(1000); // 2nd attempt fails: next in 2 s
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(3); // fails too: waiting again

    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(4);
    // A stream that is up is left alone.
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(4);
  });

  it('drops a connection that went silent (no ping) and opens a new one', async () => {
    openPlan();
    await settle();
    server.latest().event('ready', { planId: 'p1', version: 3 }, 3);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_TIMEOUT_MS);
    expect(server.streams[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.urls()).toEqual(['/api/plans/p1/events', '/api/plans/p1/events?since=3']);
    // Silent again, before any event: the back-off goes 1 s, then 2 s (counted once per drop).
    await vi.advanceTimersByTimeAsync(HEARTBEAT_TIMEOUT_MS + 1999);
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.fetchMock).toHaveBeenCalledTimes(3);
  });

  it('says reconnecting at once when the device goes offline, and is back when online', async () => {
    const { types } = openPlan();
    await settle();
    server.latest().event('ready', { planId: 'p1', version: 3 }, 3);
    await settle();
    window.dispatchEvent(new Event('offline'));
    await settle();
    expect(server.latest().aborted).toBe(true);
    expect(types()).toEqual(['live', 'ready', 'reconnecting']);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.urls()).toEqual(['/api/plans/p1/events', '/api/plans/p1/events?since=3']);
  });

  it('closes the request when closed', async () => {
    const { connection } = openPlan();
    await settle();
    connection.close();
    expect(server.latest().aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('SSE transport, the first connection when the page is ready for it (startWhen)', () => {
  function deferred() {
    const starts: Array<() => void> = [];
    let cancelled = 0;
    const startWhen = (connect: () => void) => {
      starts.push(connect);
      return () => void cancelled++;
    };
    const events: PlanLiveEvent[] = [];
    const connection = createSseTransport({ fetch: server.fetch, startWhen }).openPlan('p1', (event) => events.push(event));
    connections.push(connection);
    return { starts, cancelled: () => cancelled, events, connection };
  }

  it('asks for nothing until it is time, then connects once and hears the plan', async () => {
    const { starts, events } = deferred();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.fetchMock).not.toHaveBeenCalled();
    expect(events).toEqual([]);
    expect(starts).toHaveLength(1);
    starts[0]!();
    starts[0]!();
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    expect(server.latest().url).toBe('/api/plans/p1/events');
    server.latest().event('ready', { version: 4 });
    await settle();
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', version: 4 },
    ]);
  });

  it('connects at once with a start that calls back at once', async () => {
    const connection = createSseTransport({ fetch: server.fetch, startWhen: (connect) => (connect(), () => {}) }).openPlan('p1', () => {});
    connections.push(connection);
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never connects when closed before its time', async () => {
    const { starts, cancelled, connection } = deferred();
    connection.close();
    expect(cancelled()).toBe(1);
    starts[0]!();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.fetchMock).not.toHaveBeenCalled();
  });

  it('going offline before its time takes the usual back-off, and its time adds no second connection', async () => {
    const { starts, cancelled, events } = deferred();
    window.dispatchEvent(new Event('offline'));
    expect(events).toEqual([{ type: 'status', status: 'reconnecting' }]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    expect(cancelled()).toBe(1);
    starts[0]!();
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('SSE transport through the hub', () => {
  it('opens at most one stream per plan and closes it a moment after the last subscriber left', async () => {
    const hub = createLiveHub(createSseTransport({ fetch: server.fetch }), { graceMs: 1000 });
    const first: PlanLiveEvent[] = [];
    const second: PlanLiveEvent[] = [];
    const stopFirst = hub.subscribeToPlan('p1', (e) => first.push(e));
    await settle();
    server.latest().event('ready', { planId: 'p1', version: 5 }, 5);
    await settle();
    const stopSecond = hub.subscribeToPlan('p1', (e) => second.push(e));
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    // The late subscriber hears where the stream stands.
    expect(second).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', version: 5, replayed: true },
    ]);
    server.latest().event('change', change(6), 6);
    await settle();
    expect(first.at(-1)).toEqual({ type: 'change', change: change(6) });
    expect(second.at(-1)).toEqual({ type: 'change', change: change(6) });

    stopFirst();
    stopSecond();
    await vi.advanceTimersByTimeAsync(500);
    // Back within the grace delay (another page of the same plan): the same stream.
    const stopThird = hub.subscribeToPlan('p1', () => {});
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.latest().aborted).toBe(false);
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    stopThird();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.latest().aborted).toBe(true);

    // A later subscriber opens a new one.
    hub.subscribeToPlan('p1', () => {})();
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
  });

  it('says when a subscribed connection is down', async () => {
    const hub = createLiveHub(createSseTransport({ fetch: server.fetch }), { graceMs: 0 });
    server.script('network-error');
    const stop = hub.subscribeToPlan('p1', () => {});
    await settle();
    expect(hub.isDown()).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    server.latest().event('ready', { planId: 'p1', version: 1 }, 1);
    await settle();
    expect(hub.isDown()).toBe(false);
    stop();
    await vi.advanceTimersByTimeAsync(0);
  });
});

describe('SSE transport, the home list', () => {
  function openMine(planIds: string[]) {
    const events: MyPlansLiveEvent[] = [];
    const connection = createSseTransport({ fetch: server.fetch }).openMyPlans(planIds, (event) => events.push(event));
    connections.push(connection);
    return { events, connection };
  }

  it("hears every plan's changes on one stream", async () => {
    localStorage.setItem('authToken', 'tok-2');
    const { events } = openMine(['p1', 'p2']);
    await settle();
    expect(server.latest().url).toBe('/api/plans/events');
    expect(server.latest().headers.get('Authorization')).toBe('Bearer tok-2');
    server.latest().event('ready', { planIds: ['p1', 'p2'] });
    server.latest().event('change', change(3, ['plan'], 'p2'), 3);
    await settle();
    expect(events).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', planIds: ['p1', 'p2'] },
      { type: 'change', change: change(3, ['plan'], 'p2') },
    ]);
  });

  it('opens a new stream when the list shows a plan the server did not cover, once', async () => {
    const { connection } = openMine(['p1']);
    await settle();
    server.latest().event('ready', { planIds: ['p1'] });
    await settle();
    connection.watch(['p1']);
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(1);

    connection.watch(['p1', 'p3']); // just created
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
    expect(server.streams[0]!.aborted).toBe(true);
    // The server still leaves it out (say, a plan it does not count): no loop.
    server.latest().event('ready', { planIds: ['p1'] });
    await settle();
    connection.watch(['p1', 'p3']);
    await settle();
    expect(server.fetchMock).toHaveBeenCalledTimes(2);
  });
});

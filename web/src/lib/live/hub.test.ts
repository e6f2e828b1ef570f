import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLiveTransport } from '../../test/fake-live';
import { createLiveHub } from './hub';
import type { MyPlansLiveEvent, PlanLiveEvent } from './types';

let live: ReturnType<typeof fakeLiveTransport>;
beforeEach(() => {
  vi.useFakeTimers();
  live = fakeLiveTransport();
});
afterEach(() => vi.useRealTimers());

describe('createLiveHub', () => {
  it('fans one connection out to every subscriber of the plan, and to nobody else', () => {
    const hub = createLiveHub(live.transport);
    const a: PlanLiveEvent[] = [];
    const b: PlanLiveEvent[] = [];
    const other: PlanLiveEvent[] = [];
    hub.subscribeToPlan('p1', (e) => a.push(e));
    hub.subscribeToPlan('p1', (e) => b.push(e));
    hub.subscribeToPlan('p2', (e) => other.push(e));
    expect(live.opened).toEqual(['p1', 'p2']);
    live.change({ planId: 'p1', version: 2, parts: ['plan'] });
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(other).toHaveLength(0);
  });

  it('replays where the connection stands to a late subscriber, at the newest version seen', async () => {
    const hub = createLiveHub(live.transport);
    hub.subscribeToPlan('p1', () => {});
    live.send('p1', { type: 'status', status: 'live' });
    live.send('p1', { type: 'ready', version: 4 });
    live.change({ planId: 'p1', version: 7, parts: ['ideas'] });
    const late: PlanLiveEvent[] = [];
    hub.subscribeToPlan('p1', (e) => late.push(e));
    await vi.advanceTimersByTimeAsync(0);
    expect(late).toEqual([
      { type: 'status', status: 'live' },
      { type: 'ready', version: 7, replayed: true },
    ]);
  });

  it('closes a connection after the grace delay, unless someone comes back', () => {
    const hub = createLiveHub(live.transport, { graceMs: 1000 });
    const stop = hub.subscribeToPlan('p1', () => {});
    stop();
    stop(); // twice is harmless
    vi.advanceTimersByTime(999);
    expect(live.isOpen('p1')).toBe(true);
    const again = hub.subscribeToPlan('p1', () => {});
    vi.advanceTimersByTime(5000);
    expect(live.isOpen('p1')).toBe(true);
    again();
    vi.advanceTimersByTime(1000);
    expect(live.isOpen('p1')).toBe(false);
    hub.subscribeToPlan('p1', () => {});
    expect(live.opened).toEqual(['p1', 'p1']);
  });

  it('says when a connection someone listens to is down', () => {
    const hub = createLiveHub(live.transport, { graceMs: 1000 });
    const changes = vi.fn();
    hub.onDownChange(changes);
    const stop = hub.subscribeToPlan('p1', () => {});
    expect(hub.isDown()).toBe(false);
    live.send('p1', { type: 'status', status: 'reconnecting' });
    expect(hub.isDown()).toBe(true);
    live.send('p1', { type: 'status', status: 'live' });
    expect(hub.isDown()).toBe(false);
    live.send('p1', { type: 'status', status: 'reconnecting' });
    stop(); // nobody looks at it any more
    expect(hub.isDown()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(4);
    live.send('p1', { type: 'status', status: 'stopped' });
    expect(hub.isDown()).toBe(false);
  });

  it('keeps one home-list connection for every subscriber and watches all their plans', async () => {
    const hub = createLiveHub(live.transport, { graceMs: 1000 });
    const a: MyPlansLiveEvent[] = [];
    const stopA = hub.subscribeToMyPlans(['p1'], (e) => a.push(e));
    live.sendMyPlans({ type: 'ready', planIds: ['p1'] });
    const b: MyPlansLiveEvent[] = [];
    hub.subscribeToMyPlans(['p1', 'p2'], (e) => b.push(e));
    expect(live.myPlans()!.watched).toEqual(['p1', 'p2']);
    await vi.advanceTimersByTimeAsync(0);
    expect(b).toEqual([{ type: 'ready', planIds: ['p1'], replayed: true }]);
    live.sendMyPlans({ type: 'change', change: { planId: 'p2', version: 1, parts: ['plan'] } });
    expect(a.at(-1)).toEqual(b.at(-1));
    stopA();
    vi.advanceTimersByTime(1000);
    expect(live.myPlans()).not.toBeNull();
  });
});

// One connection per plan per tab, however many components listen: the hub
// counts subscribers, fans events out, and closes a connection a moment after
// its last subscriber left (so moving between a plan's pages keeps it open).
// It also knows whether any connection is down, for the "Reconnecting…" sign.
import type { LiveConnection, LiveTransport, MyPlansConnection, MyPlansLiveEvent, PlanLiveEvent } from './types';

const GRACE_MS = 1000;

export type PlanListener = (event: PlanLiveEvent) => void;
export type MyPlansListener = (event: MyPlansLiveEvent) => void;

export interface LiveHub {
  /** Hear a plan's changes; returns the unsubscribe function. */
  subscribeToPlan(planId: string, listener: PlanListener): () => void;
  /** Hear the changes of every plan of the signed-in user (the home list shows `planIds`). */
  subscribeToMyPlans(planIds: readonly string[], listener: MyPlansListener): () => void;
  /** True while some connection is down and being retried. */
  isDown(): boolean;
  /** Called whenever `isDown()` may have changed. */
  onDownChange(callback: () => void): () => void;
}

type AnyEvent = PlanLiveEvent | MyPlansLiveEvent;

interface Entry<E extends AnyEvent, C extends LiveConnection = LiveConnection> {
  listeners: Set<(event: E) => void>;
  connection: C;
  down: boolean;
  closeTimer?: ReturnType<typeof setTimeout>;
  /** The last `ready` (or the version of the last change): replayed to late subscribers. */
  ready?: Extract<E, { type: 'ready' }>;
  live: boolean;
}

type MyPlansEntry = Entry<MyPlansLiveEvent, MyPlansConnection> & { ids: Map<MyPlansListener, readonly string[]> };

export function createLiveHub(transport: LiveTransport, { graceMs = GRACE_MS }: { graceMs?: number } = {}): LiveHub {
  const plans = new Map<string, Entry<PlanLiveEvent>>();
  let myPlans: MyPlansEntry | null = null;
  const downWatchers = new Set<() => void>();
  const notifyDown = () => downWatchers.forEach((callback) => callback());

  function track<E extends AnyEvent>(entry: Entry<E>, event: E) {
    if (event.type === 'status') {
      const down = event.status === 'reconnecting';
      entry.live = event.status === 'live';
      if (down !== entry.down) {
        entry.down = down;
        notifyDown();
      }
    } else if (event.type === 'ready') {
      entry.ready = event as Extract<E, { type: 'ready' }>;
    } else if (event.type === 'change' && entry.ready && 'version' in entry.ready) {
      // Late subscribers hear the newest version the connection has seen, on a
      // transport whose versions come from the API (SSE). Realtime's `ready`
      // names none: a broadcast, which anyone can send, never raises it (0089).
      const version = entry.ready.version;
      if (version !== null && Number.isFinite(event.change.version) && event.change.version > version) {
        entry.ready = { ...entry.ready, version: event.change.version };
      }
    }
    for (const listener of [...entry.listeners]) listener(event);
  }

  /** A subscriber joining an open connection hears where it stands. */
  function replay<E extends AnyEvent>(entry: Entry<E>, listener: (event: E) => void) {
    queueMicrotask(() => {
      if (!entry.listeners.has(listener)) return;
      if (entry.down) listener({ type: 'status', status: 'reconnecting' } as E);
      else if (entry.live) listener({ type: 'status', status: 'live' } as E);
      if (entry.ready) listener({ ...entry.ready, replayed: true } as E);
    });
  }

  function release<E extends AnyEvent>(entry: Entry<E>, listener: (event: E) => void, remove: () => void) {
    if (!entry.listeners.delete(listener) || entry.listeners.size > 0) return;
    // Nobody looks at it any more: no sign for it, even before it closes.
    if (entry.down) notifyDown();
    entry.closeTimer = setTimeout(() => {
      entry.connection.close();
      remove();
    }, graceMs);
  }

  return {
    subscribeToPlan(planId, listener) {
      let entry = plans.get(planId);
      if (entry) {
        clearTimeout(entry.closeTimer);
        entry.listeners.add(listener);
        if (entry.down && entry.listeners.size === 1) notifyDown();
        replay(entry, listener);
      } else {
        const created: Entry<PlanLiveEvent> = {
          listeners: new Set([listener]),
          down: false,
          live: false,
          connection: { close: () => {} },
        };
        plans.set(planId, created);
        entry = created;
        created.connection = transport.openPlan(planId, (event) => {
          if (plans.get(planId) === created) track(created, event);
        });
      }
      const subscribed = entry;
      return () =>
        release(subscribed, listener, () => {
          if (plans.get(planId) === subscribed) plans.delete(planId);
        });
    },

    subscribeToMyPlans(planIds, listener) {
      if (myPlans) {
        clearTimeout(myPlans.closeTimer);
        myPlans.listeners.add(listener);
        myPlans.ids.set(listener, planIds);
        myPlans.connection.watch(union(myPlans.ids));
        replay(myPlans, listener);
      } else {
        const created: MyPlansEntry = {
          listeners: new Set([listener]),
          ids: new Map([[listener, planIds]]),
          down: false,
          live: false,
          connection: { close: () => {}, watch: () => {} },
        };
        myPlans = created;
        created.connection = transport.openMyPlans(planIds, (event) => {
          if (myPlans === created) track(created, event);
        });
      }
      const subscribed = myPlans;
      return () => {
        subscribed.ids.delete(listener);
        release(subscribed, listener, () => {
          if (myPlans === subscribed) myPlans = null;
        });
      };
    },

    isDown() {
      if (myPlans?.down && myPlans.listeners.size > 0) return true;
      for (const entry of plans.values()) if (entry.down && entry.listeners.size > 0) return true;
      return false;
    },

    onDownChange(callback) {
      downWatchers.add(callback);
      return () => downWatchers.delete(callback);
    },
  };
}

function union(ids: Map<unknown, readonly string[]>): string[] {
  const all = new Set<string>();
  for (const list of ids.values()) list.forEach((id) => all.add(id));
  return [...all];
}

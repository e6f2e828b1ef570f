// The live feed inside one function instance: the database announces every
// committed change of a plan (migration 20261126090015_live.sql, channel
// 'hangplan_plan_changes'), and this module hands each announcement to the
// streams of this instance that watch that plan. ONE source per instance,
// however many streams: a dedicated LISTEN connection where the database URL
// allows it, else (behind a transaction pooler) one poll of the watched plans'
// versions every 2 s on the pooled client.
//
// Pure apart from the source, so the fan-out is unit-tested with a fake one.
import type { PlanChange } from '../../../_shared/contract/live.ts';

/**
 * What a stream hears: a change, or `resync` when the source may have missed
 * changes (its database connection dropped and came back): the stream then
 * compares the plan's version with the last one it sent.
 */
export type FeedEvent = { kind: 'change'; change: PlanChange } | { kind: 'resync' };
type FeedListener = (event: FeedEvent) => void;

/** Where announcements come from. `watch` tells a polling source what to read. */
export interface FeedSource {
  start(emit: (event: FeedEvent) => void): Promise<void>;
  stop(): Promise<void>;
  watch?(planIds: ReadonlySet<string>): void;
}

export class PlanFeed {
  private readonly listeners = new Map<string, Set<FeedListener>>();
  private started: Promise<void> | null = null;

  /** The source starts with the first subscription and then stays up (streams reconnect every few minutes). */
  constructor(private readonly source: FeedSource) {}

  /** Number of open subscriptions (one per stream and plan). */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /**
   * Listen to the plans' changes. Resolves once the source is up, so that a
   * stream that reads the plan's version afterwards cannot miss a change.
   */
  async subscribe(planIds: readonly string[], listener: FeedListener): Promise<() => void> {
    for (const id of planIds) {
      let set = this.listeners.get(id);
      if (!set) this.listeners.set(id, (set = new Set()));
      set.add(listener);
    }
    this.source.watch?.(new Set(this.listeners.keys()));
    const unsubscribe = () => this.unsubscribe(planIds, listener);
    try {
      this.started ??= this.source.start((event) => this.dispatch(event)).catch((error) => {
        this.started = null;
        throw error;
      });
      await this.started;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  private unsubscribe(planIds: readonly string[], listener: FeedListener): void {
    for (const id of planIds) {
      const set = this.listeners.get(id);
      set?.delete(listener);
      if (set?.size === 0) this.listeners.delete(id);
    }
    this.source.watch?.(new Set(this.listeners.keys()));
  }

  private dispatch(event: FeedEvent): void {
    if (event.kind === 'resync') {
      const all = new Set<FeedListener>();
      for (const set of this.listeners.values()) for (const l of set) all.add(l);
      for (const listener of all) listener(event);
      return;
    }
    for (const listener of [...(this.listeners.get(event.change.planId) ?? [])]) listener(event);
  }

  /** Stop the source (tests). */
  async stop(): Promise<void> {
    const started = this.started;
    this.started = null;
    if (started) await started.then(() => this.source.stop(), () => {});
  }
}

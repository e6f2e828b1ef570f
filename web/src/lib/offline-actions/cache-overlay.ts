// Showing pending actions in the query cache. Each cached read carries the
// keys of the actions already applied to it (`state.marks`), so an action is
// applied once to each answer: a 304 answers the same object, and a write
// derived from a read (setQueryData) keeps its marks.
import { partialMatchKey, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { planKeys } from '../query-keys';
import { read } from './queue';
import type { OutboxState } from './state';
import type { OfflineAction, OfflineActionKind, OfflineActionKindHandle } from './types';

export const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const ofPlan = (key: QueryKey, planId: string) => partialMatchKey(key, planKeys.plan(planId));

function showPending(state: OutboxState, queryClient: QueryClient, query: Query): void {
  const original = query.state.data;
  if (!isObject(original)) return;
  const { kinds, marks } = state;
  const pending = read(state).filter((action) => kinds.get(action.kind)?.show && ofPlan(query.queryKey, action.planId));
  if (pending.length === 0) return;
  const applied = new Set(marks.get(original));
  let data: unknown = original;
  for (const action of pending) {
    if (applied.has(action.key)) continue;
    const next = kinds.get(action.kind)!.show!(query.queryKey, data, action, queryClient);
    if (next === undefined || next === data) continue;
    data = next;
    applied.add(action.key);
  }
  if (data === original) return;
  put(state, queryClient, query.queryKey, data, applied);
}

/** Writes a read with the actions it shows (the cache may keep another object: structural sharing). */
function put(state: OutboxState, queryClient: QueryClient, key: QueryKey, data: unknown, shown: ReadonlySet<string>): void {
  queryClient.setQueryData(key, data);
  const stored = queryClient.getQueryData(key);
  if (isObject(stored)) state.marks.set(stored, shown);
}

/** Shows the pending actions on every cached read of their plans. */
export function sweep(state: OutboxState): void {
  const { client } = state;
  if (!client) return;
  const planIds = new Set(read(state).map((action) => action.planId));
  if (planIds.size === 0) return;
  for (const query of client.getQueryCache().getAll()) {
    if ([...planIds].some((planId) => ofPlan(query.queryKey, planId))) showPending(state, client, query);
  }
}

/** Takes back what `action` showed, where it showed it; a read it cannot take back is read again. */
export function unshow(state: OutboxState, action: OfflineAction): void {
  const { client, marks } = state;
  if (!client) return;
  const kind = state.kinds.get(action.kind);
  for (const query of client.getQueryCache().getAll()) {
    const data = query.state.data;
    if (!isObject(data) || !ofPlan(query.queryKey, action.planId) || !marks.get(data)?.has(action.key)) continue;
    const next = kind?.unshow?.(query.queryKey, data, action, client);
    if (next === undefined || !isObject(next)) {
      void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
      continue;
    }
    const rest = new Set(marks.get(data));
    rest.delete(action.key);
    put(state, client, query.queryKey, next, rest);
  }
}

/** The reads of this cache that show `key`'s action are read again (another tab settled it). */
export function rereadShowing(state: OutboxState, key: string): void {
  const { client } = state;
  if (!client) return;
  for (const query of client.getQueryCache().getAll()) {
    const data = query.state.data;
    if (isObject(data) && state.marks.get(data)?.has(key)) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  }
}

/**
 * Shows pending actions in `queryClient` from now on: on what it holds, and
 * on every fresh answer it gets. False when it was attached already.
 */
export function attachCache(state: OutboxState, queryClient: QueryClient): boolean {
  if (state.client === queryClient) return false;
  state.stopWatching?.();
  state.client = queryClient;
  // What each read holds now: the next write to it is told from a fresh answer by this.
  state.lastData = new Map(queryClient.getQueryCache().getAll().map((query) => [query.queryHash, query.state.data]));
  state.stopWatching = queryClient.getQueryCache().subscribe((event) => {
    const { query } = event;
    const { lastData, marks } = state;
    if (event.type === 'removed') {
      lastData.delete(query.queryHash);
      return;
    }
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const data = query.state.data;
    const previous = lastData.get(query.queryHash);
    lastData.set(query.queryHash, data);
    if (!isObject(data) || data === previous) return;
    if (event.action.manual) {
      // Derived from what was shown: it shows the same pending actions.
      const inherited = isObject(previous) ? marks.get(previous) : undefined;
      if (inherited && !marks.has(data)) marks.set(data, inherited);
      return;
    }
    showPending(state, queryClient, query);
  });
  return true;
}

/** Stops showing in the cache (tests: reset). */
export function detachCache(state: OutboxState): void {
  state.stopWatching?.();
  state.stopWatching = null;
  state.client = null;
  state.lastData = new Map();
}

/** A feature's kind of action: how its actions show (shown at once on what is cached). */
export function register<D>(state: OutboxState, handle: OfflineActionKindHandle<D>): void {
  if (state.kinds.get(handle.name) === handle.handler) return;
  state.kinds.set(handle.name, handle.handler as OfflineActionKind<unknown>);
  sweep(state);
}

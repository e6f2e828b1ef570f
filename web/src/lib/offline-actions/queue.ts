// The stored queue: one localStorage item per action, so two tabs never
// overwrite each other's (no read-modify-write of a shared list).
import { byTapOrder } from '../../service-worker/background-sync';
import { parseAction } from './action';
import { OFFLINE_ACTION_PREFIX as PREFIX } from './start';
import type { OutboxState } from './state';
import type { ActionOutcome, OfflineAction, OutboxView } from './types';

/** What is stored, oldest first; an item that is not one of ours any more is removed. */
export function read(state: OutboxState): readonly OfflineAction[] {
  if (state.actions) return state.actions;
  const { storage } = state.deps;
  const names: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const name = storage.key(i);
    if (name?.startsWith(PREFIX)) names.push(name);
  }
  const found: OfflineAction[] = [];
  for (const name of names) {
    const action = parseAction(storage.getItem(name));
    if (action && name === PREFIX + action.key) found.push(action);
    else storage.removeItem(name); // not one of ours any more
  }
  state.actions = found.sort(byTapOrder);
  return state.actions;
}

/** The stored queue changed (here or in another tab): read it again, tell the screens. */
export function changed(state: OutboxState): void {
  state.actions = null;
  state.view = null;
  for (const listener of [...state.listeners]) listener();
}

export function write(state: OutboxState, action: OfflineAction): void {
  state.deps.storage.setItem(PREFIX + action.key, JSON.stringify(action));
  changed(state);
}

export function remove(state: OutboxState, action: OfflineAction): void {
  state.deps.storage.removeItem(PREFIX + action.key);
  changed(state);
}

export function setSending(state: OutboxState, key: string | null): void {
  state.sendingKey = key;
  state.view = null;
  for (const listener of [...state.listeners]) listener();
}

/** The screens' snapshot: every pending action, oldest first, and the one this tab is sending. */
export function viewOf(state: OutboxState): OutboxView {
  state.view ??= { actions: read(state), sending: state.sendingKey };
  return state.view;
}

/** Tells the tap that made `key` how it ended. */
export function settle(state: OutboxState, key: string, outcome: ActionOutcome): void {
  const resolve = state.waiters.get(key);
  state.waiters.delete(key);
  resolve?.(outcome);
}

/** Taps still waiting on this tab's first attempt: they are pending now, not sending. */
export function settleQueued(state: OutboxState): void {
  const stored = new Set(read(state).map((action) => action.key));
  for (const key of [...state.waiters.keys()]) if (stored.has(key)) settle(state, key, 'queued');
}

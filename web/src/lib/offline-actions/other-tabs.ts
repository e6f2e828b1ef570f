// Other tabs: their writes arrive as `storage` events. And the window's
// `online` event, which sends what waits.
import { rereadShowing, sweep } from './cache-overlay';
import { OFFLINE_ACTION_PREFIX as PREFIX } from './start';
import { changed, read, settle } from './queue';
import type { OutboxState } from './state';

function onStorage(state: OutboxState, event: StorageEvent): void {
  if (event.key !== null && !event.key.startsWith(PREFIX)) return;
  const before = read(state);
  changed(state);
  const now = new Set(read(state).map((action) => action.key));
  for (const action of before) {
    if (now.has(action.key)) continue;
    // Sent (or refused) by another tab, which applied the answer to its own
    // caches: this tab reads again what it showed, and the tap is done here.
    rereadShowing(state, action.key);
    settle(state, action.key, 'queued');
  }
  sweep(state); // another tab's new taps show here too
}

/** Listens to the other tabs, and to the network coming back (`flushNow`). */
export function listen(state: OutboxState, flushNow: () => void): void {
  if (state.listening || typeof window === 'undefined') return;
  state.listening = { online: flushNow, storage: (event) => onStorage(state, event) };
  window.addEventListener('online', state.listening.online);
  window.addEventListener('storage', state.listening.storage);
}

export function stopListening(state: OutboxState): void {
  if (state.listening && typeof window !== 'undefined') {
    window.removeEventListener('online', state.listening.online);
    window.removeEventListener('storage', state.listening.storage);
  }
  state.listening = null;
}

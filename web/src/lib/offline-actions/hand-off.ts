// Background Sync, the page's side: what waits is handed to the service worker
// too (service-worker/background-sync.ts), so it goes out once the network is
// back even if every tab is closed; what it sent is answered here from its
// kept answer, not sent again.
import { apiUrl } from '../api';
import { bodyOf, credentialsFor, methodOf } from './action';
import { read, remove } from './queue';
import type { OutboxState } from './state';
import type { OfflineAction } from './types';

/** Hands every waiting action to the worker, as its maker. Never fails: the page still sends them. */
export async function handOverWaiting(state: OutboxState): Promise<void> {
  const { handOff } = state.deps;
  if (!handOff) return;
  const { handed } = state;
  for (const action of read(state)) {
    if (handed.has(action.key)) continue;
    const headers = credentialsFor(action);
    if (!headers) continue; // dropped when its turn comes, never sent as someone else
    handed.add(action.key);
    const { key, at, seq } = action;
    try {
      await handOff.handOver({
        key,
        url: apiUrl(action.path),
        method: methodOf(action),
        headers: [...headers.entries()],
        body: bodyOf(action),
        at,
        seq,
      });
    } catch {
      handed.delete(key);
    }
  }
}

/** The worker's answer to `action`, if it sent it. */
export async function answerFromWorker(state: OutboxState, action: OfflineAction): Promise<Response | null> {
  try {
    return (await state.deps.handOff?.answerOf(action.key)) ?? null;
  } catch {
    return null;
  }
}

/** Leaves the outbox: the worker's copy first (under the sender lock, so it cannot send it meanwhile). */
export async function removeDone(state: OutboxState, action: OfflineAction): Promise<void> {
  state.handed.delete(action.key);
  try {
    await state.deps.handOff?.withdraw(action.key);
  } catch {
    // Its copy stays: sent again, the key makes it a repeat.
  }
  remove(state, action);
}

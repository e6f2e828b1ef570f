// The outbox's surroundings in the browser (tests pass their own OutboxDeps).
import { handOver, keptAnswer, SYNC_TAG, withdraw } from '../../service-worker/background-sync';
import type { OutboxDeps, OutboxHandOff } from './types';

function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (a phone on the LAN in development).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Background Sync where the browser has it and a service worker runs the app (not the dev server's bare page). */
function browserHandOff(): OutboxHandOff | null {
  if (typeof window === 'undefined' || !('SyncManager' in window) || typeof caches === 'undefined' || !navigator.serviceWorker) return null;
  return {
    async handOver(action) {
      if (!navigator.serviceWorker.controller) return;
      await handOver(caches, action);
      const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
      await registration.sync?.register(SYNC_TAG);
    },
    answerOf: (key) => keptAnswer(caches, key),
    withdraw: (key) => withdraw(caches, key),
  };
}

export function browserDeps(): OutboxDeps {
  return {
    storage: localStorage,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    online: () => navigator.onLine !== false,
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null,
    randomKey,
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    handOff: browserHandOff(),
  };
}

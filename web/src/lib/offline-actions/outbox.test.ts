import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../supabase/functions/_shared/contract/idempotency';
import { GUEST_SECRET_HEADER } from '../../../../supabase/functions/_shared/contract/guest-secret';
import { QueryClient } from '@tanstack/react-query';
import { handOver, keptAnswer, OUTBOX_CACHE, sendHandedActions, withdraw } from '../../service-worker/background-sync';
import { MemoryCaches } from '../../test/memory-caches';
import { setGuestSession } from '../guest-storage';
import {
  backoffMs,
  byTapOrder,
  createOfflineOutbox,
  credentialsFor,
  parseAction,
  tokenSubject,
  type ActionIdentity,
  type NewOfflineAction,
  type OfflineAction,
  type OfflineOutbox,
  type OutboxDeps,
} from '.';

// The outbox's own logic, with its surroundings replaced: a fetch that
// records every attempt, a clock and timers the test moves, the browser's
// online flag, and (for two tabs) a lock manager. The stored queue is this
// window's localStorage, as in the app.

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A session token as the API signs it: only its `sub` matters here. */
const tokenOf = (userId: string) => `${base64url({ alg: 'HS256' })}.${base64url({ sub: userId, sid: 's1' })}.signature`;

const ada: ActionIdentity = { kind: 'member', userId: 'u-ada', name: 'Ada' };
const hal: ActionIdentity = { kind: 'guest', guestId: 'g-hal', name: 'Hal', secret: 'hal-secret' };

interface Attempt {
  url: string;
  method: string;
  key: string | null;
  headers: Headers;
  body: unknown;
}

/** Two tabs' worth of surroundings sharing one network, one clock and one lock. */
function world() {
  let now = 1_000_000;
  let online = true;
  const timers: Array<{ at: number; run: () => void; id: number }> = [];
  let nextTimer = 0;
  const attempts: Attempt[] = [];
  let answer: (attempt: Attempt) => Response | Promise<Response> = () => Response.json({ voted: true, voteCount: 1 });
  let counter = 0;
  let chain = Promise.resolve();
  const locks = {
    request: (_name: string, callback: () => Promise<void>) => {
      const run = chain.then(callback);
      chain = run.catch(() => {});
      return run;
    },
  } as unknown as OutboxDeps['locks'];

  // The service worker's side of Background Sync: its Cache Storage, the
  // syncs registered, and a sync run on the same network (no tab needed).
  const caches = new MemoryCaches();
  let syncs = 0;
  const handOff: OutboxDeps['handOff'] = {
    handOver: async (action) => {
      await handOver(caches, action);
      syncs += 1;
    },
    answerOf: (key) => keptAnswer(caches, key),
    withdraw: (key) => withdraw(caches, key),
  };
  const workerFetch = async (url: string, init: RequestInit) => {
    if (!online) throw new TypeError('Failed to fetch');
    return record(url, init);
  };
  const record = async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    const attempt = { url, method: init.method ?? 'GET', key: headers.get(IDEMPOTENCY_KEY_HEADER), headers, body: init.body ? JSON.parse(String(init.body)) : undefined };
    attempts.push(attempt);
    return answer(attempt);
  };

  const deps = (withLocks: boolean, backgroundSync = false): OutboxDeps => ({
    storage: localStorage,
    fetch: record,
    now: () => now,
    online: () => online,
    locks: withLocks ? locks : null,
    randomKey: () => `key-${(++counter).toString().padStart(4, '0')}-0000-0000`,
    setTimer: (run, ms) => {
      const id = ++nextTimer;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimer: (id) => {
      const index = timers.findIndex((timer) => timer.id === id);
      if (index >= 0) timers.splice(index, 1);
    },
    handOff: backgroundSync ? handOff : null,
  });

  return {
    deps,
    attempts,
    caches,
    syncs: () => syncs,
    /** The browser fires the sync: the worker sends what was handed to it. */
    sync: () => sendHandedActions(caches, workerFetch, () => now),
    /** What the worker holds: handed actions and kept answers, by kind of entry. */
    handed: async () => {
      const entries = [...(caches.stores.get(OUTBOX_CACHE)?.keys() ?? [])].map((url) => new URL(url).pathname);
      return { handed: entries.filter((path) => path.includes('/handed/')).length, answered: entries.filter((path) => path.includes('/answered/')).length };
    },
    answer: (next: typeof answer) => void (answer = next),
    goOffline: () => void (online = false),
    goOnline: () => void (online = true),
    /** Moves the clock, running the timers that come due. */
    advance: async (ms: number) => {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
      await settled();
    },
  };
}

/** Lets every promise chain of the outbox run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const vote = (ideaId: string, as: ActionIdentity = ada): NewOfflineAction<{ ideaId: string }> => ({
  planId: 'p1',
  target: `idea:${ideaId}`,
  path: `/api/ideas/${ideaId}/vote`,
  body: as.kind === 'guest' ? { guestId: as.guestId } : undefined,
  as,
  data: { ideaId },
  noun: 'vote',
  failure: 'Failed to vote on idea',
});

const stored = () =>
  Object.keys(localStorage)
    .filter((name) => name.startsWith('offlineAction:'))
    .map((name) => parseAction(localStorage.getItem(name))!)
    .sort(byTapOrder);

let tabs: OfflineOutbox[] = [];
const tab = (deps: OutboxDeps) => {
  const outbox = createOfflineOutbox(deps);
  tabs.push(outbox);
  return outbox;
};

beforeEach(() => localStorage.setItem('authToken', tokenOf('u-ada')));
afterEach(() => {
  tabs.forEach((outbox) => outbox.reset());
  tabs = [];
});

describe('the pure rules', () => {
  it('backs off 1, 2, 4 … seconds, at most a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('keeps the tap order, and reads back only whole actions', () => {
    const action = (key: string, at: number, seq: number) =>
      ({ ...vote('i1'), kind: 'vote-idea', key, at, seq, attempts: 0, waiting: false, retryAt: 0 }) as OfflineAction;
    const list = [action('c', 2, 1), action('b', 1, 9), action('a', 2, 1), action('d', 1, 2)];
    expect([...list].sort(byTapOrder).map((a) => a.key)).toEqual(['d', 'b', 'a', 'c']);
    expect(parseAction(JSON.stringify(list[0]))).toEqual(list[0]);
    expect(parseAction('{not json')).toBeNull();
    expect(parseAction(JSON.stringify({ ...list[0], as: { kind: 'guest', guestId: 'g', name: 'G' } }))).toBeNull();
    expect(parseAction(JSON.stringify({ ...list[0], attempts: '1' }))).toBeNull();
    // Stored by a build before the kinds were named verb first: read as the kind it is now.
    expect(parseAction(JSON.stringify({ ...list[0], kind: 'idea-vote' }))).toEqual(list[0]);
    expect(parseAction(JSON.stringify({ ...list[0], kind: 'date-vote' }))).toEqual({ ...list[0], kind: 'vote-date' });
    expect(parseAction(JSON.stringify({ ...list[0], kind: 'comment' }))?.kind).toBe('comment');
  });

  it("reads the user a token names; an unreadable token names nobody", () => {
    expect(tokenSubject(tokenOf('U-Ada'))).toBe('u-ada');
    expect(tokenSubject('test-token')).toBeUndefined();
  });

  it('sends a member with the token, only while the token is that member', () => {
    const action = { ...vote('i1'), kind: 'vote-idea', key: 'key-1-aaaa', at: 1, seq: 1, attempts: 0, waiting: false, retryAt: 0 };
    const headers = credentialsFor(action)!;
    expect(headers.get('Authorization')).toBe(`Bearer ${tokenOf('u-ada')}`);
    expect(headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('key-1-aaaa');
    expect(headers.get('Content-Type')).toBeNull(); // a member's vote has no body
    localStorage.setItem('authToken', tokenOf('u-ben'));
    expect(credentialsFor(action)).toBeNull();
    localStorage.removeItem('authToken');
    expect(credentialsFor(action)).toBeNull();
  });

  it("sends a guest with its secret and never a token, only while this device is that guest", () => {
    const action = { ...vote('i1', hal), kind: 'vote-idea', key: 'key-1-aaaa', at: 1, seq: 1, attempts: 0, waiting: false, retryAt: 0 };
    expect(credentialsFor(action)).toBeNull(); // no guest session here
    setGuestSession({ id: 'g-hal', name: 'Hal', planId: 'p1', secret: 'hal-secret' });
    const headers = credentialsFor(action)!;
    expect(headers.get(GUEST_SECRET_HEADER)).toBe('hal-secret');
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Content-Type')).toBe('application/json');
    // Confirmed by name again since: the device's new secret.
    setGuestSession({ id: 'g-hal', name: 'Hal', planId: 'p1', secret: 'new-secret' });
    expect(credentialsFor(action)!.get(GUEST_SECRET_HEADER)).toBe('new-secret');
    setGuestSession({ id: 'g-other', name: 'Hal', planId: 'p1', secret: 'x' });
    expect(credentialsFor(action)).toBeNull();
  });
});

describe('the outbox', () => {
  it('sends a tap at once with its idempotency key, and forgets it once answered', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    const outcome = outbox.submit('vote-idea', vote('i1'));
    expect(stored()).toHaveLength(1); // kept before the first attempt
    expect(await outcome).toBe('sent');
    expect(w.attempts).toHaveLength(1);
    expect(w.attempts[0]!.url).toBe('/api/ideas/i1/vote');
    expect(w.attempts[0]!.key).toBe('key-0002-0000-0000');
    expect(stored()).toEqual([]);
  });

  it('with no network keeps the taps, waiting, and sends them in order when it is back', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.goOffline();
    expect(await outbox.submit('vote-idea', vote('i1'))).toBe('queued');
    expect(await outbox.submit('vote-idea', vote('i2'))).toBe('queued');
    expect(w.attempts).toEqual([]);
    expect(stored().map((a) => [a.target, a.waiting])).toEqual([
      ['idea:i1', true],
      ['idea:i2', true],
    ]);
    w.goOnline();
    await outbox.flush({ now: true });
    await settled();
    expect(w.attempts.map((a) => a.url)).toEqual(['/api/ideas/i1/vote', '/api/ideas/i2/vote']);
    expect(stored()).toEqual([]);
  });

  it('keeps a tap whose answer never came and sends it again, with the same key, after a back-off', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.answer(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await outbox.submit('vote-idea', vote('i1'))).toBe('queued');
    const [waiting] = stored();
    expect(waiting).toMatchObject({ attempts: 1, waiting: true });
    w.answer(() => Response.json({ voted: true, voteCount: 1 }));
    await w.advance(999);
    expect(w.attempts).toHaveLength(1);
    await w.advance(1);
    expect(w.attempts.map((a) => a.key)).toEqual([waiting!.key, waiting!.key]);
    expect(stored()).toEqual([]);
  });

  it('sends a tap again after a gateway error (503), but takes a 500 or a 4xx as the answer', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.answer(() => new Response('Service Unavailable', { status: 503 }));
    expect(await outbox.submit('vote-idea', vote('i1'))).toBe('queued');
    expect(stored()).toHaveLength(1);
    w.answer(() => new Response('Voting is closed', { status: 409 }));
    await w.advance(1000);
    expect(stored()).toEqual([]);
    w.answer(() => new Response(null, { status: 500 }));
    expect(await outbox.submit('vote-idea', vote('i2'))).toBe('refused');
    expect(stored()).toEqual([]);
    expect(w.attempts).toHaveLength(3);
  });

  it('keeps what is waiting across a reload, and sends it from the new page', async () => {
    const w = world();
    w.goOffline();
    const before = tab(w.deps(true));
    await before.submit('vote-idea', vote('i1'));
    const key = stored()[0]!.key;
    before.reset(); // the page is gone; localStorage is not

    w.goOnline();
    const after = tab(w.deps(true));
    expect(after.view().actions.map((a) => a.key)).toEqual([key]);
    await after.flush({ now: true });
    await settled();
    expect(w.attempts.map((a) => a.key)).toEqual([key]);
    expect(after.view().actions).toEqual([]);
  });

  it('drops a tap whose maker is no longer signed in on this device, without sending it', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.goOffline();
    await outbox.submit('vote-idea', vote('i1'));
    localStorage.removeItem('authToken'); // signed out
    w.goOnline();
    await outbox.flush({ now: true });
    await settled();
    expect(w.attempts).toEqual([]);
    expect(stored()).toEqual([]);
  });

  it('sends each action once when two tabs flush at the same time (Web Locks)', async () => {
    const w = world();
    const one = tab(w.deps(true));
    const two = tab(w.deps(true));
    w.goOffline();
    await one.submit('vote-idea', vote('i1'));
    await two.submit('vote-idea', vote('i2'));
    await one.submit('vote-idea', vote('i3'));
    w.goOnline();
    await Promise.all([one.flush({ now: true }), two.flush({ now: true }), one.flush({ now: true })]);
    await settled();
    expect(w.attempts.map((a) => a.url)).toEqual(['/api/ideas/i1/vote', '/api/ideas/i2/vote', '/api/ideas/i3/vote']);
  });

  it('without Web Locks, a tab waits while another holds the lease', async () => {
    const w = world();
    const one = tab(w.deps(false));
    const two = tab(w.deps(false));
    w.goOffline();
    await one.submit('vote-idea', vote('i1'));
    w.goOnline();
    let release!: () => void;
    w.answer(() => new Promise((resolve) => (release = () => resolve(Response.json({ voted: true, voteCount: 1 })))));
    const first = one.flush({ now: true });
    await settled();
    expect(w.attempts).toHaveLength(1);
    await two.flush({ now: true }); // the lease is one's: two sends nothing
    expect(w.attempts).toHaveLength(1);
    release();
    await first;
    await settled();
    expect(stored()).toEqual([]);
    expect(localStorage.getItem('offlineActionsLease')).toBeNull();
    await two.flush({ now: true });
    expect(w.attempts).toHaveLength(1);
  });

  it('counts a request without an answer after 15 s as lost', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.answer(() => new Promise<Response>(() => {}));
    const outcome = outbox.submit('vote-idea', vote('i1'));
    await settled();
    await w.advance(15_000);
    expect(await outcome).toBe('queued');
    expect(stored()[0]).toMatchObject({ attempts: 1, waiting: true });
  });

  it('sends at once when the browser says it is back online', async () => {
    const w = world();
    const outbox = tab(w.deps(true));
    w.goOffline();
    await outbox.submit('vote-idea', vote('i1'));
    w.goOnline();
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(w.attempts).toHaveLength(1));
    await vi.waitFor(() => expect(stored()).toEqual([]));
  });
});

describe('Background Sync', () => {
  const sentAnswers: unknown[] = [];
  /** A page with the app's cache, where a sent vote's answer is applied. */
  const page = (deps: OutboxDeps) => {
    const outbox = tab(deps);
    outbox.attach(new QueryClient());
    outbox.register({ name: 'vote-idea', handler: { sent: (_client, _action, answer) => void sentAnswers.push(answer) }, submit: () => Promise.resolve('sent') });
    return outbox;
  };
  beforeEach(() => void (sentAnswers.length = 0));

  it('hands what waits to the service worker, which sends it with no tab open; the next page takes its answer and sends nothing', async () => {
    const w = world();
    const before = page(w.deps(true, true));
    w.goOffline();
    expect(await before.submit('vote-idea', vote('i1'))).toBe('queued');
    expect(await before.submit('vote-idea', vote('i2'))).toBe('queued');
    // Each handed over as its maker would send it, and a sync registered.
    expect(await w.handed()).toEqual({ handed: 2, answered: 0 });
    expect(w.syncs()).toBeGreaterThanOrEqual(1);
    before.reset(); // every tab closed

    // The network is back: the browser wakes the worker, which sends both, in tap order.
    w.goOnline();
    w.answer((attempt) => Response.json({ voted: true, voteCount: attempt.url.includes('i1') ? 3 : 1 }));
    await w.sync();
    expect(w.attempts.map((a) => [a.url, a.key, a.headers.get('Authorization')])).toEqual([
      ['/api/ideas/i1/vote', stored()[0]!.key, `Bearer ${tokenOf('u-ada')}`],
      ['/api/ideas/i2/vote', stored()[1]!.key, `Bearer ${tokenOf('u-ada')}`],
    ]);
    expect(await w.handed()).toEqual({ handed: 0, answered: 2 });

    // The phone opens Hangplan again: the answers are applied, nothing is sent twice.
    const after = page(w.deps(true, true));
    await after.flush({ now: true });
    expect(w.attempts).toHaveLength(2);
    expect(sentAnswers).toEqual([{ voted: true, voteCount: 3 }, { voted: true, voteCount: 1 }]);
    expect(stored()).toEqual([]);
    expect(await w.handed()).toEqual({ handed: 0, answered: 0 });
  });

  it('sends an action made to PUT (an answer) as a PUT, from the page and from the worker; one stored without a method is a POST', async () => {
    const w = world();
    const answer: NewOfflineAction<{ answer: string }> = {
      planId: 'p1',
      target: 'rsvp',
      path: '/api/plans/p1/rsvp',
      body: { answer: 'going', plusOnes: 1 },
      method: 'PUT',
      as: ada,
      data: { answer: 'going' },
      noun: 'answer',
      failure: 'Failed to answer',
    };
    const first = page(w.deps(true, true));
    expect(await first.submit('answer-rsvp', answer)).toBe('sent');
    w.goOffline();
    expect(await first.submit('answer-rsvp', { ...answer, body: { answer: 'maybe' } })).toBe('queued');
    expect(stored()[0]!.method).toBe('PUT');
    first.reset();
    w.goOnline();
    await w.sync();
    expect(w.attempts.map((a) => [a.method, a.url, a.body])).toEqual([
      ['PUT', '/api/plans/p1/rsvp', { answer: 'going', plusOnes: 1 }],
      ['PUT', '/api/plans/p1/rsvp', { answer: 'maybe' }],
    ]);
    await page(w.deps(true, true)).flush({ now: true });
    expect(w.attempts).toHaveLength(2);
    const { method: _put, ...older } = { ...answer, kind: 'vote-idea', key: 'k', at: 1, seq: 1, attempts: 0, waiting: false, retryAt: 0 };
    expect(parseAction(JSON.stringify(older))?.method).toBeUndefined();
    expect(parseAction(JSON.stringify({ ...older, method: 'DELETE' }))).toBeNull();
  });

  it("takes a refusal the worker kept as the server's word: put back, with its sentence", async () => {
    const w = world();
    const before = page(w.deps(true, true));
    w.goOffline();
    await before.submit('vote-idea', vote('i1'));
    before.reset();
    w.goOnline();
    w.answer(() => new Response('Voting is closed: the host locked the plan', { status: 409, headers: { 'Content-Type': 'text/plain' } }));
    await w.sync();
    const after = page(w.deps(true, true));
    const outcome = after.submit('vote-idea', vote('i2')); // a new tap: the old one goes first
    expect(await outcome).toBe('refused');
    expect(w.attempts.map((a) => a.url)).toEqual(['/api/ideas/i1/vote', '/api/ideas/i2/vote']);
    expect(sentAnswers).toEqual([]);
    expect(stored()).toEqual([]);
  });

  it('keeps the order and the rest when the worker finds no network or a gateway error: the browser syncs again later', async () => {
    const w = world();
    const outbox = page(w.deps(true, true));
    w.goOffline();
    await outbox.submit('vote-idea', vote('i1'));
    await outbox.submit('vote-idea', vote('i2'));
    await expect(w.sync()).rejects.toThrow('Failed to fetch');
    w.goOnline();
    w.answer(() => new Response('', { status: 503 }));
    await expect(w.sync()).rejects.toThrow('503');
    expect(w.attempts.map((a) => a.url)).toEqual(['/api/ideas/i1/vote']); // i2 waits behind i1
    expect(await w.handed()).toEqual({ handed: 2, answered: 0 });
  });

  it('sent by the page, an action is withdrawn from the worker, which then sends nothing', async () => {
    const w = world();
    const outbox = page(w.deps(true, true));
    w.goOffline();
    await outbox.submit('vote-idea', vote('i1'));
    w.goOnline();
    await outbox.flush({ now: true });
    expect(w.attempts).toHaveLength(1);
    expect(await w.handed()).toEqual({ handed: 0, answered: 0 });
    await w.sync();
    expect(w.attempts).toHaveLength(1);
  });

  it('never hands over an action this device can no longer send as its maker', async () => {
    const w = world();
    const outbox = page(w.deps(true, true));
    localStorage.setItem('authToken', tokenOf('u-ben')); // another account signed in meanwhile
    w.goOffline();
    await outbox.submit('vote-idea', vote('i1'));
    expect(await w.handed()).toEqual({ handed: 0, answered: 0 });
  });
});

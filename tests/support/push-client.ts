// The stand-in Web Push service (tests/support/push-service.ts) driven over its
// /control/ HTTP surface, for test files that run in vitest workers while the
// stand-in runs in the api project's globalSetup (main process). Only types
// come from push-service.ts: importing this file starts no server.
//
// The stand-in is shared by every test file at once, so everything here is by
// endpoint: subscribe fresh endpoints in each test and ask only about them.
// (There is deliberately no clear(): on a shared stand-in it would wipe the
// other files' messages. Use a stand-in of your own if you need one.)
//
// Plain Node (fetch), no vitest import.
import type { PushSubscriptionJson, ReceivedPush, RefusedPush } from './push-service.ts';

export type { PushSubscriptionJson, ReceivedPush, RefusedPush };

export interface PushServiceClient {
  /** The stand-in's origin, as given. */
  origin: string;
  /** A new subscription (fresh keys), as a browser's PushSubscription.toJSON(). */
  subscribe(): Promise<PushSubscriptionJson>;
  /** The accepted, decrypted messages to this endpoint, oldest first. */
  receivedBy(endpoint: string): Promise<ReceivedPush[]>;
  /**
   * The first message to this endpoint (received already or yet to come) that
   * matches (default: any), polling every ~50 ms; rejects after timeoutMs
   * (default 10000) saying what the endpoint did receive and which of its
   * requests were refused. A predicate that throws rejects with that error.
   */
  waitFor(endpoint: string, predicate?: (m: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  /**
   * Polls until at least n messages reached this endpoint; all of them, oldest
   * first (possibly more than n: assert the length if it matters). Rejects
   * after timeoutMs (default 10000) like waitFor.
   */
  waitForCount(endpoint: string, n: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  /** The next n (default 1) requests to this endpoint answer `status` and are not recorded as received. */
  failNext(endpoint: string, status: number, n?: number): Promise<void>;
  /** This endpoint answers 410 Gone from now on. */
  expire(endpoint: string): Promise<void>;
  /**
   * How many push requests (accepted or refused) reached this endpoint; without
   * one, the whole service's count, which on a shared stand-in includes the
   * other test files' pushes.
   */
  requests(endpoint?: string): Promise<number>;
  /**
   * The refused push requests to this endpoint, oldest first; without one,
   * every refusal of the service (the other test files' too, on a shared stand-in).
   */
  refusals(endpoint?: string): Promise<RefusedPush[]>;
  /**
   * Waits ms (default 500) and throws as soon as any push request, accepted or
   * refused, reaches this endpoint (or already had): for "nobody else was told".
   */
  expectNothing(endpoint: string, ms?: number): Promise<void>;
}

const POLL_MS = 50;

export function pushServiceClient(origin: string): PushServiceClient {
  const base = origin.replace(/\/+$/, '');

  async function call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const url = `${base}/control/${route}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(`push service control: ${method} ${url} failed: ${String(error)}`, { cause: error });
    }
    const text = await res.text();
    if (!res.ok) {
      let reason = text;
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        if (typeof parsed.error === 'string') reason = parsed.error;
      } catch {
        // not JSON: the text as it is
      }
      throw new Error(`push service control: ${method} /control/${route} answered ${res.status}: ${reason}`);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  const query = (endpoint: string | undefined) => (endpoint === undefined ? '' : `?endpoint=${encodeURIComponent(endpoint)}`);

  const receivedBy = (endpoint: string) => call<ReceivedPush[]>('GET', `received${query(endpoint)}`);
  const refusals = (endpoint?: string) => call<RefusedPush[]>('GET', `refusals${query(endpoint)}`);
  const requests = async (endpoint?: string) => (await call<{ requests: number }>('GET', `requests${query(endpoint)}`)).requests;

  /** What this endpoint got: its request count, the accepted messages and the refusals. */
  async function describe(endpoint: string, messages?: ReceivedPush[]): Promise<string> {
    const [got, refused, count] = await Promise.all([messages ?? receivedBy(endpoint), refusals(endpoint), requests(endpoint)]);
    const lines = got.map((m) => `  ${m.text.slice(0, 200)}`);
    const refusedLines = refused.slice(-10).map((r) => `  ${r.status}: ${r.reason}`);
    return (
      `${count} push request(s) reached ${endpoint}; ${got.length} accepted` +
      (lines.length ? `:\n${lines.join('\n')}` : '') +
      (refusedLines.length ? `\nrefused (latest ${refusedLines.length} of ${refused.length}):\n${refusedLines.join('\n')}` : '')
    );
  }

  /** Polls receivedBy until done() picks a result or timeoutMs passes (one last look at the deadline). */
  async function poll<T>(endpoint: string, timeoutMs: number, done: (messages: ReceivedPush[]) => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const messages = await receivedBy(endpoint);
      const result = done(messages);
      if (result !== undefined) return result;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`push client: ${what} within ${timeoutMs} ms. ${await describe(endpoint, messages)}`);
      await sleep(Math.min(POLL_MS, left));
    }
  }

  return {
    origin: base,

    subscribe: () => call<PushSubscriptionJson>('POST', 'subscriptions'),
    receivedBy,

    waitFor(endpoint, predicate = () => true, timeoutMs = 10_000) {
      return poll(endpoint, timeoutMs, (messages) => messages.find(predicate), 'no push matched');
    },

    waitForCount(endpoint, n, timeoutMs = 10_000) {
      return poll(endpoint, timeoutMs, (messages) => (messages.length >= n ? messages : undefined), `fewer than ${n} push(es) arrived`);
    },

    async failNext(endpoint, status, n = 1) {
      await call<void>('POST', 'fail-next', { status, n, endpoint });
    },

    async expire(endpoint) {
      await call<void>('POST', 'expire', { endpoint });
    },

    requests,
    refusals,

    async expectNothing(endpoint, ms = 500) {
      const deadline = Date.now() + ms;
      for (;;) {
        if ((await requests(endpoint)) > 0) {
          throw new Error(`push client: expected nothing to reach ${endpoint}, but ${await describe(endpoint)}`);
        }
        const left = deadline - Date.now();
        if (left <= 0) return;
        await sleep(Math.min(POLL_MS, left));
      }
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

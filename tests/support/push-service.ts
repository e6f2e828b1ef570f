// A stand-in Web Push service (RFC 8030) for the tests: it hands out
// subscriptions as a browser would, and checks what the server under test
// sends to them as a strict real push service would, so that a wrong VAPID
// signature (RFC 8292) or a message the browser could not decrypt
// (RFC 8291 + RFC 8188, aes128gcm) fails the test instead of passing silently.
//
// The decryption is written here from the RFCs with node:crypto, not taken from
// web-push: the server under test encrypts with web-push, so decrypting with
// the same library would only check the library against itself.
//
// Plain Node (node:http, node:crypto), no vitest import: usable from any test.
//
// Two ways to drive it:
// - In process: startPushService() returns the PushService below, for a test
//   file that starts a stand-in of its own.
// - Over HTTP, under /control/ on the same origin (push requests are only ever
//   /push/<id>, so the two never meet): for test files running in vitest
//   workers against the one stand-in the api project's globalSetup started in
//   the main process. tests/support/push-client.ts wraps it (pushServiceClient).
//   JSON in and out; a bad request is 400 `{"error": "..."}`.
//     POST /control/subscriptions                  -> 201 PushSubscriptionJson
//     GET  /control/received[?endpoint=<endpoint>] -> 200 ReceivedPush[]
//     GET  /control/refusals[?endpoint=<endpoint>] -> 200 RefusedPush[]
//     GET  /control/requests[?endpoint=<endpoint>] -> 200 {"requests": n}
//     POST /control/fail-next {status, n?, endpoint?} -> 204
//     POST /control/expire    {endpoint}          -> 204 (400: not an endpoint it handed out)
//     POST /control/clear                          -> 204
//   (<endpoint> URL-encoded; an endpoint it never handed out is 400.)
//   Control requests are neither counted in requests() nor listed in refusals().
//
// A SHARED stand-in serves many test files at once, so:
// - each test subscribes fresh endpoints and asks only about them (received,
//   refusals and requests by endpoint), never about the whole service;
// - failNext ALWAYS names an endpoint: without one it fails the next requests
//   to every endpoint, i.e. another file's pushes;
// - clear() / POST /control/clear is only for a stand-in of your own: it wipes
//   every file's messages, refusals, counts and pending failNext rules.
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface VapidClaims {
  sub: string;
  aud: string;
  exp: number;
  /** The `k` of the Authorization header: the application server's public key (base64url). */
  publicKey: string;
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The subscription's endpoint (as `subscribe()` returned it). */
  endpoint: string;
  /** JSON.parse of `text`; undefined when the text is not JSON (a push service does not care). */
  payload: unknown;
  /** The decrypted message, padding removed. */
  text: string;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string>;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapid: VapidClaims;
}

/** A push request the service answered with anything but 201, and why. */
export interface RefusedPush {
  /** The id in the path (known or not). */
  subscriptionId: string;
  status: number;
  reason: string;
}

export interface PushService {
  /** 'http://127.0.0.1:PORT', the VAPID audience the service expects. */
  origin: string;
  /** A new subscription: a fresh P-256 key pair and 16-byte auth secret, endpoint `${origin}/push/${id}`. */
  subscribe(): PushSubscriptionJson;
  /** Every accepted, decrypted message so far, oldest first. */
  received(): ReceivedPush[];
  /** The accepted messages to this endpoint, oldest first. */
  receivedBy(endpoint: string): ReceivedPush[];
  /**
   * Every refused push request so far (including those failNext/expire made
   * fail), oldest first; with an endpoint, only that subscription's.
   * Throws for an endpoint it never handed out.
   */
  refusals(endpoint?: string): RefusedPush[];
  /**
   * The first accepted message (received already or yet to come) that matches;
   * rejects after timeoutMs (default 5000) with what did arrive.
   */
  waitFor(predicate: (m: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  /**
   * The next n (default 1) requests to this endpoint (or to every endpoint when
   * omitted) answer `status` (e.g. 500, 429, 410, 404) and are NOT recorded as
   * received. Rules are used up in the order they were given.
   * On a stand-in shared by several test files, always pass the endpoint.
   */
  failNext(status: number, n?: number, endpoint?: string): void;
  /** This endpoint answers 410 Gone from now on (the subscription expired). */
  expire(endpoint: string): void;
  /**
   * How many requests arrived on /push/… (accepted or not); with an endpoint,
   * only those to it. Throws for an endpoint it never handed out.
   */
  requests(endpoint?: string): number;
  /**
   * Forgets the messages, refusals, request counts and pending failNext rules;
   * subscriptions (expired or not) stay. Only for a stand-in of your own: on a
   * shared one it wipes what the other test files are waiting for.
   */
  clear(): void;
  close(): Promise<void>;
}

interface Subscription {
  id: string;
  endpoint: string;
  ecdh: ECDH;
  /** Our public key, uncompressed (65 bytes): ua_public in RFC 8291. */
  publicKey: Buffer;
  authSecret: Buffer;
  expired: boolean;
}

interface FailureRule {
  status: number;
  remaining: number;
  /** Undefined: every endpoint. */
  subscriptionId?: string;
}

interface Waiter {
  predicate: (m: ReceivedPush) => boolean;
  resolve: (m: ReceivedPush) => void;
  reject: (e: Error) => void;
}

/**
 * A mistake of the caller (an endpoint it never handed out, a bad status...):
 * thrown by the in-process API, answered 400 by the control surface.
 */
class UsageError extends Error {}

/** An answer other than 201, with the text the body says. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// RFC 8030 §7.2 lets a push service refuse bodies over 4096 octets (413), and
// the real ones do; web-push only needs more when the payload does not fit one
// record, which RFC 8291 §4 forbids anyway.
const MAX_BODY = 4096;
// RFC 8292 §2: the JWT's exp is at most 24 hours ahead.
const MAX_EXP_AHEAD_S = 24 * 60 * 60;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const TAG_LENGTH = 16;
const CONTROL_PREFIX = '/control/';
const MAX_CONTROL_BODY = 64 * 1024;

export async function startPushService(options: { vapidPublicKey?: string } = {}): Promise<PushService> {
  const subscriptions = new Map<string, Subscription>();
  let received: ReceivedPush[] = [];
  let refused: RefusedPush[] = [];
  let failures: FailureRule[] = [];
  let waiters: Waiter[] = [];
  let requestCount = 0;
  /** Requests per subscription id (in the path; known or not). */
  let requestsById = new Map<string, number>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug here, not in the request: say so loudly rather than hang the client.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`push service error: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path.startsWith(CONTROL_PREFIX)) return control(req, res, url);
    const match = /^\/push\/([^/]+)$/.exec(path);
    if (!match) {
      // Not a push request: neither counted nor listed among the refusals.
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    requestCount += 1;
    const id = match[1];
    requestsById.set(id, (requestsById.get(id) ?? 0) + 1);
    if (req.method !== 'POST') return answer(res, id, 405, 'a push message is a POST', { allow: 'POST' });
    const subscription = subscriptions.get(id);
    if (!subscription) return answer(res, id, 404, 'no such subscription');
    if (subscription.expired) return answer(res, id, 410, 'subscription expired');
    const rule = failures.find((r) => r.remaining > 0 && (r.subscriptionId === undefined || r.subscriptionId === id));
    if (rule) {
      rule.remaining -= 1;
      failures = failures.filter((r) => r.remaining > 0);
      return answer(res, id, rule.status, `failNext(${rule.status})`);
    }

    try {
      const body = await readBody(req);
      const message = accept(subscription, req, body);
      received.push(message);
      for (const waiter of waiters.filter((w) => matches(w, message))) {
        waiters = waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
      // RFC 8030 §5: the push message resource, which real services name in Location.
      res.writeHead(201, { location: `${origin}/message/${randomUUID()}` });
      res.end();
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      answer(res, id, error.status, error.message);
    }
  }

  /** The control surface (see the top of the file); a UsageError is a 400. */
  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = url.pathname.slice(CONTROL_PREFIX.length);
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    try {
      switch (route) {
        case 'subscriptions':
          if (!allowed(req, res, 'POST')) return;
          return sendJson(res, 201, service.subscribe());
        case 'received':
          if (!allowed(req, res, 'GET')) return;
          if (endpoint === undefined) return sendJson(res, 200, service.received());
          subscriptionAt(endpoint);
          return sendJson(res, 200, service.receivedBy(endpoint));
        case 'refusals':
          if (!allowed(req, res, 'GET')) return;
          return sendJson(res, 200, service.refusals(endpoint));
        case 'requests':
          if (!allowed(req, res, 'GET')) return;
          return sendJson(res, 200, { requests: service.requests(endpoint) });
        case 'fail-next': {
          if (!allowed(req, res, 'POST')) return;
          const body = await readJsonBody(req);
          const { status, n, endpoint: only } = body;
          if (typeof status !== 'number') throw new UsageError('push service: fail-next needs a numeric status');
          if (n !== undefined && typeof n !== 'number') throw new UsageError('push service: fail-next n must be a number');
          if (only !== undefined && typeof only !== 'string') throw new UsageError('push service: fail-next endpoint must be a string');
          service.failNext(status, n, only);
          return noContent(res);
        }
        case 'expire': {
          if (!allowed(req, res, 'POST')) return;
          const { endpoint: which } = await readJsonBody(req);
          if (typeof which !== 'string') throw new UsageError('push service: expire needs {"endpoint": "..."}');
          service.expire(which);
          return noContent(res);
        }
        case 'clear':
          if (!allowed(req, res, 'POST')) return;
          service.clear();
          return noContent(res);
        default:
          return sendJson(res, 404, { error: `push service: no control route ${url.pathname}` });
      }
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      sendJson(res, 400, { error: error.message });
    }
  }

  function answer(res: ServerResponse, id: string, status: number, reason: string, headers: Record<string, string> = {}): void {
    refused.push({ subscriptionId: id, status, reason });
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(reason);
  }

  /** A waiter whose predicate throws is rejected with that error, not left hanging. */
  function matches(waiter: Waiter, message: ReceivedPush): boolean {
    try {
      return waiter.predicate(message);
    } catch (error) {
      waiters = waiters.filter((w) => w !== waiter);
      waiter.reject(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  /** The checks of a strict push service, in the order one would make them; throws a Refusal. */
  function accept(subscription: Subscription, req: IncomingMessage, body: Buffer): ReceivedPush {
    const headers = flatHeaders(req);

    const encoding = headers['content-encoding'];
    if (encoding !== 'aes128gcm') throw new Refusal(400, `Content-Encoding must be aes128gcm, got ${encoding ?? 'none'}`);
    const ttlHeader = headers['ttl'];
    if (ttlHeader === undefined || !/^\d+$/.test(ttlHeader)) throw new Refusal(400, `TTL must be a number of seconds, got ${ttlHeader ?? 'none'}`);
    const urgency = headers['urgency'] ?? null;
    if (urgency !== null && !URGENCIES.has(urgency)) throw new Refusal(400, `unknown Urgency ${urgency}`);
    const topic = headers['topic'] ?? null;
    // RFC 8030 §5.4: at most 32 characters of the base64url alphabet.
    if (topic !== null && (topic.length > 32 || !BASE64URL.test(topic))) throw new Refusal(400, `invalid Topic ${topic}`);

    const vapid = verifyVapid(headers['authorization']);
    const text = decrypt(subscription, body);

    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      payload = undefined;
    }
    return {
      subscriptionId: subscription.id,
      endpoint: subscription.endpoint,
      payload,
      text,
      headers,
      ttl: Number(ttlHeader),
      urgency,
      topic,
      vapid,
    };
  }

  /**
   * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. A missing or
   * unreadable header is 401, one that does not hold up is 403 (§4.2).
   */
  function verifyVapid(authorization: string | undefined): VapidClaims {
    if (!authorization) throw new Refusal(401, 'no Authorization header');
    const scheme = /^vapid\s+(.*)$/i.exec(authorization);
    if (!scheme) throw new Refusal(401, 'Authorization must use the vapid scheme');
    const params = new Map<string, string>();
    for (const part of scheme[1].split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
    const token = params.get('t');
    const k = params.get('k');
    if (!token || !k) throw new Refusal(401, 'vapid Authorization needs t= and k=');

    if (options.vapidPublicKey !== undefined && k !== options.vapidPublicKey) {
      throw new Refusal(403, 'k is not the application server key this service expects');
    }
    const point = fromBase64url(k);
    // An uncompressed P-256 point: 0x04 | x(32) | y(32).
    if (point.length !== 65 || point[0] !== 0x04) throw new Refusal(403, 'k is not an uncompressed P-256 public key');

    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) throw new Refusal(403, 'the JWT is not three base64url parts');
    const [headerPart, claimsPart, signaturePart] = parts;
    const header = parseJson(fromBase64url(headerPart).toString('utf8'));
    if (!isRecord(header) || header.alg !== 'ES256') throw new Refusal(403, 'the JWT must be signed with ES256');

    let key;
    try {
      key = createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: toBase64url(point.subarray(1, 33)), y: toBase64url(point.subarray(33, 65)) },
        format: 'jwk',
      });
    } catch {
      throw new Refusal(403, 'k is not a point on P-256');
    }
    // JWS (RFC 7515) signs the ASCII of "header.claims"; ES256 signatures are r|s (64 bytes), not DER.
    const signature = fromBase64url(signaturePart);
    const signed = Buffer.from(`${headerPart}.${claimsPart}`, 'ascii');
    if (signature.length !== 64 || !verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature)) {
      throw new Refusal(403, 'the JWT signature does not verify with k');
    }

    const claims = parseJson(fromBase64url(claimsPart).toString('utf8'));
    if (!isRecord(claims)) throw new Refusal(403, 'the JWT claims are not a JSON object');
    const { aud, exp, sub } = claims;
    if (aud !== origin) throw new Refusal(403, `aud must be ${origin}, got ${String(aud)}`);
    const now = Math.floor(Date.now() / 1000);
    if (typeof exp !== 'number' || !Number.isInteger(exp)) throw new Refusal(403, 'exp must be a number of seconds');
    if (exp <= now) throw new Refusal(403, 'the JWT has expired');
    if (exp > now + MAX_EXP_AHEAD_S) throw new Refusal(403, 'exp is more than 24 hours ahead');
    if (typeof sub !== 'string' || !isContactUrl(sub)) throw new Refusal(403, `sub must be a mailto: or https: URL, got ${String(sub)}`);
    return { sub, aud, exp, publicKey: k };
  }

  /** RFC 8291 §3.4 (keys) and RFC 8188 §2 (aes128gcm), for the single record RFC 8291 §4 requires. */
  function decrypt(subscription: Subscription, body: Buffer): string {
    // RFC 8188 §2.1 header: salt(16) | rs(uint32 BE) | idlen(1) | keyid(idlen).
    if (body.length < 21) throw new Refusal(400, 'the body is shorter than an aes128gcm header');
    const salt = body.subarray(0, 16);
    const rs = body.readUInt32BE(16);
    const idlen = body[20];
    // RFC 8291 §4: keyid is the application server's ephemeral public key (as_public).
    if (idlen !== 65) throw new Refusal(400, `keyid must be a 65-byte P-256 public key, idlen is ${idlen}`);
    const asPublic = body.subarray(21, 21 + idlen);
    const record = body.subarray(21 + idlen);
    if (asPublic.length !== 65 || asPublic[0] !== 0x04) throw new Refusal(400, 'keyid is not an uncompressed P-256 public key');
    // RFC 8188 §2: rs >= 18; a record is at most rs octets and holds the tag and the delimiter.
    if (rs < 18) throw new Refusal(400, `record size ${rs} is below 18`);
    if (record.length > rs) throw new Refusal(400, 'the message spans more than one record');
    if (record.length < TAG_LENGTH + 1) throw new Refusal(400, 'the record is too short');

    let ecdhSecret: Buffer;
    try {
      ecdhSecret = subscription.ecdh.computeSecret(asPublic);
    } catch {
      throw new Refusal(400, 'keyid is not a point on P-256');
    }
    // hkdfSync is HKDF-Extract then HKDF-Expand (RFC 5869), which is each step below.
    // PRK_key = Extract(auth_secret, ecdh_secret); IKM = Expand(PRK_key, key_info, 32).
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'ascii'), subscription.publicKey, asPublic]);
    const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, subscription.authSecret, keyInfo, 32));
    // PRK = Extract(salt, IKM); CEK = Expand(PRK, cek_info, 16); NONCE = Expand(PRK, nonce_info, 12).
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0', 'ascii'), 16));
    // The nonce of record i is NONCE XOR i; the only record is record 0.
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0', 'ascii'), 12));

    let plaintext: Buffer;
    try {
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
      plaintext = Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_LENGTH)), decipher.final()]);
    } catch {
      throw new Refusal(400, 'decryption failed (wrong keys or altered ciphertext)');
    }

    // RFC 8188 §2: content | delimiter | zero padding; the last record's delimiter is 0x02.
    let end = plaintext.length - 1;
    while (end >= 0 && plaintext[end] === 0) end -= 1;
    if (end < 0) throw new Refusal(400, 'the record has no padding delimiter');
    if (plaintext[end] !== 0x02) throw new Refusal(400, `the only record must end with delimiter 0x02, got 0x${plaintext[end].toString(16)}`);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(plaintext.subarray(0, end));
    } catch {
      throw new Refusal(400, 'the message is not UTF-8');
    }
  }

  function subscriptionAt(endpoint: string): Subscription {
    const subscription = [...subscriptions.values()].find((s) => s.endpoint === endpoint);
    if (!subscription) throw new UsageError(`push service: no subscription has the endpoint ${endpoint}`);
    return subscription;
  }

  function describeArrivals(): string {
    const messages = received.map((m) => `${m.subscriptionId}: ${m.text.slice(0, 200)}`);
    const refusals = refused.slice(-10).map((r) => `${r.status} ${r.subscriptionId}: ${r.reason}`);
    return (
      `${requestCount} push request(s) arrived; ${received.length} accepted` +
      (messages.length ? `:\n  ${messages.join('\n  ')}` : '') +
      (refusals.length ? `\nrefused (latest ${refusals.length}):\n  ${refusals.join('\n  ')}` : '')
    );
  }

  const service: PushService = {
    origin,

    subscribe() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const endpoint = `${origin}/push/${id}`;
      subscriptions.set(id, { id, endpoint, ecdh, publicKey, authSecret, expired: false });
      return { endpoint, keys: { p256dh: toBase64url(publicKey), auth: toBase64url(authSecret) } };
    },

    received: () => [...received],
    receivedBy: (endpoint) => received.filter((m) => m.endpoint === endpoint),
    refusals(endpoint) {
      if (endpoint === undefined) return [...refused];
      const { id } = subscriptionAt(endpoint);
      return refused.filter((r) => r.subscriptionId === id);
    },

    waitFor(predicate, timeoutMs = 5000) {
      const already = received.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise<ReceivedPush>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(new Error(`push service: no push matched within ${timeoutMs} ms. ${describeArrivals()}`));
        }, timeoutMs);
        const waiter: Waiter = {
          predicate,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        waiters.push(waiter);
      });
    },

    failNext(status, n = 1, endpoint) {
      if (!Number.isInteger(status) || status < 100 || status > 599) throw new UsageError(`push service: ${status} is not an HTTP status`);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`push service: failNext needs n >= 1, got ${n}`);
      failures.push({ status, remaining: n, subscriptionId: endpoint === undefined ? undefined : subscriptionAt(endpoint).id });
    },

    expire(endpoint) {
      subscriptionAt(endpoint).expired = true;
    },

    requests(endpoint) {
      if (endpoint === undefined) return requestCount;
      return requestsById.get(subscriptionAt(endpoint).id) ?? 0;
    },

    clear() {
      received = [];
      refused = [];
      failures = [];
      requestCount = 0;
      requestsById = new Map();
    },

    async close() {
      for (const waiter of waiters) waiter.reject(new Error('push service closed'));
      waiters = [];
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // fetch keeps connections alive; without this close() waits for them to idle out.
        server.closeAllConnections();
      });
    },
  };
  return service;
}

/** Answers 405 (and false) unless the request uses `method`. */
function allowed(req: IncomingMessage, res: ServerResponse, method: 'GET' | 'POST'): boolean {
  if (req.method === method) return true;
  sendJson(res, 405, { error: `push service: ${req.url ?? ''} takes ${method}` }, { allow: method });
  return false;
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function noContent(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
}

/** A control request's JSON object body; an empty body is {}. */
async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    // Read to the end all the same, as readBody does, so that the client sees the 400.
    if (length <= MAX_CONTROL_BODY) chunks.push(chunk);
  }
  if (length > MAX_CONTROL_BODY) throw new UsageError(`push service: control body over ${MAX_CONTROL_BODY} bytes`);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('push service: the control body is not JSON');
  }
  if (!isRecord(value)) throw new UsageError('push service: the control body must be a JSON object');
  return value;
}

/**
 * The body, refusing (413) past MAX_BODY. It is read to the end all the same:
 * answering mid-upload would reset the connection under the client, which
 * would then see a network error instead of the 413.
 */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length <= MAX_BODY) chunks.push(chunk);
  }
  if (length > MAX_BODY) throw new Refusal(413, `the body (${length} bytes) exceeds ${MAX_BODY} bytes`);
  return Buffer.concat(chunks);
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function isContactUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'mailto:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refusal(403, 'the JWT is not JSON');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toBase64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

function fromBase64url(text: string): Buffer {
  return Buffer.from(text, 'base64url');
}

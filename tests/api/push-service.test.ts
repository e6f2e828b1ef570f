// The stand-in Web Push service (tests/support/push-service.ts), checked
// against what the server under test will send: web-push's
// generateRequestDetails, posted with fetch; and its /control/ surface through
// tests/support/push-client.ts, as the api test files use it. It sits in the
// api project for its runner only; it needs nothing from the stack.
import { createPrivateKey, sign } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import webpush, { type RequestOptions } from 'web-push';
import { pushServiceClient, type PushServiceClient } from '../support/push-client.ts';
import { startPushService, type PushService, type PushSubscriptionJson } from '../support/push-service.ts';

const SUBJECT = 'mailto:push-test@example.com';
const appKeys = webpush.generateVAPIDKeys();
const otherKeys = webpush.generateVAPIDKeys();

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
});
afterEach(() => push.clear());
afterAll(() => push.close());

function options(keys = appKeys, extra: Omit<RequestOptions, 'vapidDetails'> = {}): RequestOptions {
  return { vapidDetails: { subject: SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey }, TTL: 60, urgency: 'high', ...extra };
}

interface Sendable {
  endpoint: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** What the server will send: web-push's request, headers as strings (fetch takes no numbers). */
function details(subscription: PushSubscriptionJson, payload: string, opts: RequestOptions = options()): Sendable {
  const d = webpush.generateRequestDetails(subscription, payload, opts);
  const headers = Object.fromEntries(Object.entries(d.headers as Record<string, string | number>).map(([k, v]) => [k, String(v)]));
  return { endpoint: d.endpoint, headers, body: d.body };
}

async function post(to: string, sendable: Omit<Sendable, 'endpoint'>): Promise<{ status: number; text: string; location: string | null }> {
  const res = await fetch(to, { method: 'POST', headers: sendable.headers, body: sendable.body ? new Uint8Array(sendable.body) : null });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

async function send(subscription: PushSubscriptionJson, payload: unknown, opts?: RequestOptions) {
  const d = details(subscription, JSON.stringify(payload), opts);
  return post(d.endpoint, d);
}

/** A VAPID JWT signed by hand, for claims web-push refuses to produce. */
function vapidAuthorization(claims: Record<string, unknown>, keys = appKeys): string {
  const pub = Buffer.from(keys.publicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: keys.privateKey,
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `vapid t=${signed}.${signature}, k=${keys.publicKey}`;
}

const nowS = () => Math.floor(Date.now() / 1000);

describe('an accepted push', () => {
  it('is decrypted to the exact JSON, with its TTL, urgency, topic and VAPID claims, and answered 201 + Location', async () => {
    const sub = push.subscribe();
    expect(sub.endpoint).toMatch(new RegExp(`^${push.origin}/push/[\\w-]+$`));
    expect(Buffer.from(sub.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(sub.keys.auth, 'base64url')).toHaveLength(16);

    const payload = { kind: 'event-time', planId: 'p1', title: 'Bowling — Friday 19:30 ✓', n: [1, 2, 3] };
    const res = await send(sub, payload, options(appKeys, { TTL: 3600, urgency: 'low', topic: 'plan-p1' }));
    expect(res.status, res.text).toBe(201);
    expect(res.location).toMatch(new RegExp(`^${push.origin}/message/`));

    const [message] = push.received();
    expect(message.payload).toEqual(payload);
    expect(message.text).toBe(JSON.stringify(payload));
    expect(message.subscriptionId).toBe(sub.endpoint.split('/').pop());
    expect(message.endpoint).toBe(sub.endpoint);
    expect(message.ttl).toBe(3600);
    expect(message.urgency).toBe('low');
    expect(message.topic).toBe('plan-p1');
    expect(message.headers['content-encoding']).toBe('aes128gcm');
    expect(message.vapid).toEqual({ sub: SUBJECT, aud: push.origin, exp: expect.any(Number), publicKey: appKeys.publicKey });
    expect(message.vapid.exp).toBeGreaterThan(nowS());
    expect(message.vapid.exp).toBeLessThanOrEqual(nowS() + 24 * 3600);
    expect(push.requests()).toBe(1);
  });

  it('keeps each subscription apart, and a payload near the limit still fits', async () => {
    const a = push.subscribe();
    const b = push.subscribe();
    const big = 'x'.repeat(3900);
    expect((await send(a, { to: 'a' })).status).toBe(201);
    expect((await send(b, { to: 'b', big })).status).toBe(201);
    expect((await send(a, { to: 'a', again: true })).status).toBe(201);
    expect(push.receivedBy(a.endpoint).map((m) => m.payload)).toEqual([{ to: 'a' }, { to: 'a', again: true }]);
    expect(push.receivedBy(b.endpoint).map((m) => m.payload)).toEqual([{ to: 'b', big }]);
    expect(push.received()).toHaveLength(3);
  });

  it('records a payload that is not JSON with payload undefined and its text', async () => {
    const sub = push.subscribe();
    const d = details(sub, 'plain text');
    expect((await post(d.endpoint, d)).status).toBe(201);
    expect(push.received()[0]).toMatchObject({ text: 'plain text', payload: undefined });
  });
});

describe('a refused push is answered and not recorded', () => {
  it('refuses a JWT signed by another key than k (403)', async () => {
    const sub = push.subscribe();
    const d = details(sub, '{}', options(otherKeys));
    d.headers.Authorization = d.headers.Authorization.replace(/k=.*$/, `k=${appKeys.publicKey}`);
    const res = await post(d.endpoint, d);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/signature/);
    expect(push.received()).toEqual([]);
    expect(push.refusals()).toEqual([{ subscriptionId: sub.endpoint.split('/').pop(), status: 403, reason: res.text }]);
  });

  it('refuses another application server key than the one it was told to expect (403), and takes the right one', async () => {
    const strict = await startPushService({ vapidPublicKey: appKeys.publicKey });
    try {
      const sub = strict.subscribe();
      const wrong = await send(sub, { n: 1 }, options(otherKeys));
      expect(wrong.status).toBe(403);
      expect(wrong.text).toMatch(/application server key/);
      expect(strict.received()).toEqual([]);
      expect((await send(sub, { n: 2 }, options(appKeys))).status).toBe(201);
      expect(strict.received().map((m) => m.payload)).toEqual([{ n: 2 }]);
    } finally {
      await strict.close();
    }
  });

  it('refuses a JWT whose aud is another push service (403)', async () => {
    const sub = push.subscribe();
    const elsewhere = { ...sub, endpoint: `http://127.0.0.1:1/push/${sub.endpoint.split('/').pop()}` };
    const d = details(elsewhere, '{}');
    const res = await post(sub.endpoint, d);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/aud must be/);
    expect(push.received()).toEqual([]);
  });

  it.each([
    ['an expired JWT', () => ({ aud: push.origin, exp: nowS() - 5, sub: SUBJECT }), /expired/],
    ['exp more than 24 h ahead', () => ({ aud: push.origin, exp: nowS() + 25 * 3600, sub: SUBJECT }), /24 hours/],
    ['a sub that is not mailto: or https:', () => ({ aud: push.origin, exp: nowS() + 600, sub: 'http://example.com' }), /sub must be/],
  ])('refuses %s (403)', async (_, claims, reason) => {
    const sub = push.subscribe();
    const d = details(sub, '{}');
    d.headers.Authorization = vapidAuthorization(claims());
    const res = await post(d.endpoint, d);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(reason);
    expect(push.received()).toEqual([]);
  });

  it('takes a hand-signed JWT with good claims (the checks above are not the signing helper)', async () => {
    const sub = push.subscribe();
    const d = details(sub, '{"ok":true}');
    d.headers.Authorization = vapidAuthorization({ aud: push.origin, exp: nowS() + 600, sub: 'https://hangplan.example' });
    expect((await post(d.endpoint, d)).status).toBe(201);
    expect(push.received()[0].vapid.sub).toBe('https://hangplan.example');
  });

  it('refuses a push without VAPID (401)', async () => {
    const sub = push.subscribe();
    const d = details(sub, '{}');
    delete d.headers.Authorization;
    const res = await post(d.endpoint, d);
    expect(res.status).toBe(401);
    expect(push.received()).toEqual([]);
  });

  it('refuses tampered ciphertext (400)', async () => {
    const sub = push.subscribe();
    const d = details(sub, '{"a":1}');
    const body = Buffer.from(d.body!);
    body[body.length - 20] ^= 0x01;
    const res = await post(d.endpoint, { ...d, body });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/decryption failed/);
    expect(push.received()).toEqual([]);
  });

  it('refuses a message encrypted for another subscription (400)', async () => {
    const a = push.subscribe();
    const b = push.subscribe();
    const d = details(a, '{"for":"a"}');
    const res = await post(b.endpoint, d);
    expect(res.status).toBe(400);
    expect(push.received()).toEqual([]);
  });

  it('refuses the old aesgcm encoding and a missing TTL (400)', async () => {
    const sub = push.subscribe();
    const old = details(sub, '{}', { ...options(), contentEncoding: 'aesgcm' });
    expect((await post(old.endpoint, old)).status).toBe(400);
    const noTtl = details(sub, '{}');
    delete noTtl.headers.TTL;
    const res = await post(noTtl.endpoint, noTtl);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/TTL/);
    expect(push.received()).toEqual([]);
    expect(push.requests()).toBe(2);
  });

  it('refuses a body over 4096 bytes (413): web-push splits such a payload into records', async () => {
    const sub = push.subscribe();
    const res = await send(sub, { big: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(push.received()).toEqual([]);
  });

  it('answers 404 to an unknown subscription id', async () => {
    const sub = push.subscribe();
    const d = details(sub, '{}');
    const res = await post(`${push.origin}/push/no-such-subscription`, d);
    expect(res.status).toBe(404);
    expect(push.requests()).toBe(1);
    expect(push.received()).toEqual([]);
  });
});

describe('failNext and expire', () => {
  it('failNext(500, 2) answers 500 twice, then accepts', async () => {
    const sub = push.subscribe();
    push.failNext(500, 2);
    expect((await send(sub, { try: 1 })).status).toBe(500);
    expect((await send(sub, { try: 2 })).status).toBe(500);
    expect((await send(sub, { try: 3 })).status).toBe(201);
    expect(push.received().map((m) => m.payload)).toEqual([{ try: 3 }]);
    expect(push.requests()).toBe(3);
  });

  it('failNext with an endpoint fails only that endpoint', async () => {
    const a = push.subscribe();
    const b = push.subscribe();
    push.failNext(429, 1, a.endpoint);
    expect((await send(b, { to: 'b' })).status).toBe(201);
    expect((await send(a, { to: 'a' })).status).toBe(429);
    expect((await send(a, { to: 'a' })).status).toBe(201);
    expect(push.received().map((m) => m.payload)).toEqual([{ to: 'b' }, { to: 'a' }]);
  });

  it('expire answers 410 Gone from then on, for that endpoint only', async () => {
    const a = push.subscribe();
    const b = push.subscribe();
    expect((await send(a, { n: 1 })).status).toBe(201);
    push.expire(a.endpoint);
    expect((await send(a, { n: 2 })).status).toBe(410);
    expect((await send(a, { n: 3 })).status).toBe(410);
    expect((await send(b, { n: 4 })).status).toBe(201);
    expect(push.received().map((m) => m.payload)).toEqual([{ n: 1 }, { n: 4 }]);
  });

  it('rejects an endpoint it never handed out', () => {
    expect(() => push.expire(`${push.origin}/push/nope`)).toThrow(/no subscription/);
    expect(() => push.failNext(500, 1, 'http://127.0.0.1:1/push/x')).toThrow(/no subscription/);
  });
});

describe('waitFor', () => {
  it('resolves with a message already received, and with one that arrives later', async () => {
    const sub = push.subscribe();
    await send(sub, { n: 1 });
    await expect(push.waitFor((m) => (m.payload as { n: number }).n === 1)).resolves.toMatchObject({ payload: { n: 1 } });

    const later = push.waitFor((m) => (m.payload as { n: number }).n === 2, 2000);
    setTimeout(() => void send(sub, { n: 2 }), 50);
    await expect(later).resolves.toMatchObject({ payload: { n: 2 }, endpoint: sub.endpoint });
  });

  it('rejects after the timeout, saying what arrived and what was refused', async () => {
    const sub = push.subscribe();
    await send(sub, { n: 1 });
    push.failNext(503);
    await send(sub, { n: 2 });
    const started = Date.now();
    const error = await push.waitFor((m) => (m.payload as { n: number }).n === 99, 150).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/no push matched within 150 ms/);
    expect((error as Error).message).toMatch(/2 push request\(s\) arrived; 1 accepted/);
    expect((error as Error).message).toMatch(/\{"n":1\}/);
    expect((error as Error).message).toMatch(/503 .*failNext\(503\)/);
  });
});

describe('clear and close', () => {
  it('clear forgets messages, counts and pending failures but keeps subscriptions', async () => {
    const sub = push.subscribe();
    await send(sub, { n: 1 });
    push.failNext(500, 5);
    push.clear();
    expect(push.received()).toEqual([]);
    expect(push.requests()).toBe(0);
    expect((await send(sub, { n: 2 })).status).toBe(201);
  });

  it('close stops listening and rejects pending waits', async () => {
    const service = await startPushService();
    const sub = service.subscribe();
    const pending = service.waitFor(() => true, 5000);
    await service.close();
    await expect(pending).rejects.toThrow(/closed/);
    await expect(fetch(sub.endpoint, { method: 'POST' })).rejects.toThrow();
  });
});

describe('the control surface, through pushServiceClient', () => {
  // A stand-in of this block's own, used only through HTTP as the shared one
  // is (the file's afterEach clear() does not reach it).
  let shared: PushService;
  let client: PushServiceClient;
  beforeAll(async () => {
    shared = await startPushService();
    client = pushServiceClient(shared.origin);
  });
  afterAll(() => shared.close());

  const payloads = (messages: { payload: unknown }[]) => messages.map((m) => m.payload);
  const idOf = (endpoint: string) => endpoint.split('/').pop();

  it('subscribes, and waitFor resolves with the decrypted payload of a real web-push message', async () => {
    const sub = await client.subscribe();
    expect(sub.endpoint).toMatch(new RegExp(`^${shared.origin}/push/[\\w-]+$`));
    expect(Buffer.from(sub.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(sub.keys.auth, 'base64url')).toHaveLength(16);

    const payload = { kind: 'plan-confirmed', planId: 'p1', title: 'Bowling — Friday ✓' };
    const res = await send(sub, payload, options(appKeys, { TTL: 120, urgency: 'normal', topic: 'plan-p1' }));
    expect(res.status, res.text).toBe(201);
    const message = await client.waitFor(sub.endpoint, (m) => (m.payload as { planId?: string }).planId === 'p1', 2000);
    expect(message).toMatchObject({ payload, text: JSON.stringify(payload), endpoint: sub.endpoint, subscriptionId: idOf(sub.endpoint) });
    expect(message).toMatchObject({ ttl: 120, urgency: 'normal', topic: 'plan-p1' });
    expect(message.vapid).toEqual({ sub: SUBJECT, aud: shared.origin, exp: expect.any(Number), publicKey: appKeys.publicKey });
    expect(await client.receivedBy(sub.endpoint)).toEqual([message]);
    expect(await client.requests(sub.endpoint)).toBe(1);
    expect(await client.refusals(sub.endpoint)).toEqual([]);
    // The same state as the in-process API sees.
    expect(shared.receivedBy(sub.endpoint)).toEqual([message]);
  });

  it('waitFor (default: any message) resolves with one that arrives while it polls; waitForCount waits for n', async () => {
    const sub = await client.subscribe();
    const first = client.waitFor(sub.endpoint, undefined, 3000);
    setTimeout(() => void send(sub, { n: 1 }), 120);
    await expect(first).resolves.toMatchObject({ payload: { n: 1 } });

    const three = client.waitForCount(sub.endpoint, 3, 3000);
    setTimeout(() => void send(sub, { n: 2 }).then(() => send(sub, { n: 3 })), 120);
    expect(payloads(await three)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);

    const error = await client.waitForCount(sub.endpoint, 4, 150).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/fewer than 4 push\(es\) arrived within 150 ms/);
  });

  it('keeps endpoints apart: another subscription sees none of it', async () => {
    const a = await client.subscribe();
    const b = await client.subscribe();
    expect((await send(a, { to: 'a' })).status).toBe(201);
    expect(payloads(await client.receivedBy(a.endpoint))).toEqual([{ to: 'a' }]);
    expect(await client.receivedBy(b.endpoint)).toEqual([]);
    expect(await client.requests(b.endpoint)).toBe(0);
  });

  it('failNext(endpoint, 500, 2) answers 500 twice to that endpoint only, then accepts', async () => {
    const a = await client.subscribe();
    const b = await client.subscribe();
    await client.failNext(a.endpoint, 500, 2);
    expect((await send(b, { to: 'b' })).status).toBe(201);
    expect((await send(a, { try: 1 })).status).toBe(500);
    expect((await send(a, { try: 2 })).status).toBe(500);
    expect((await send(a, { try: 3 })).status).toBe(201);
    expect(payloads(await client.receivedBy(a.endpoint))).toEqual([{ try: 3 }]);
    expect(payloads(await client.receivedBy(b.endpoint))).toEqual([{ to: 'b' }]);
    expect(await client.requests(a.endpoint)).toBe(3);
    expect(await client.requests(b.endpoint)).toBe(1);
    expect(await client.refusals(a.endpoint)).toEqual([
      { subscriptionId: idOf(a.endpoint), status: 500, reason: 'failNext(500)' },
      { subscriptionId: idOf(a.endpoint), status: 500, reason: 'failNext(500)' },
    ]);
    expect(await client.refusals(b.endpoint)).toEqual([]);
    expect((await client.refusals()).filter((r) => r.subscriptionId === idOf(a.endpoint))).toHaveLength(2);

    await client.failNext(a.endpoint, 429);
    expect((await send(a, { try: 4 })).status).toBe(429);
    expect((await send(a, { try: 5 })).status).toBe(201);
  });

  it('expire(endpoint) answers 410 Gone from then on, for that endpoint only', async () => {
    const a = await client.subscribe();
    const b = await client.subscribe();
    expect((await send(a, { n: 1 })).status).toBe(201);
    await client.expire(a.endpoint);
    expect((await send(a, { n: 2 })).status).toBe(410);
    expect((await send(b, { n: 3 })).status).toBe(201);
    expect(payloads(await client.receivedBy(a.endpoint))).toEqual([{ n: 1 }]);
    expect(await client.refusals(a.endpoint)).toEqual([{ subscriptionId: idOf(a.endpoint), status: 410, reason: 'subscription expired' }]);
  });

  it('rejects, with the 400 and its reason, an endpoint or a status it cannot take', async () => {
    const sub = await client.subscribe();
    const unknown = `${shared.origin}/push/nope`;
    await expect(client.expire(unknown)).rejects.toThrow(/answered 400: push service: no subscription has the endpoint/);
    await expect(client.failNext(unknown, 500)).rejects.toThrow(/400.*no subscription/);
    await expect(client.receivedBy(unknown)).rejects.toThrow(/400.*no subscription/);
    await expect(client.requests(unknown)).rejects.toThrow(/400.*no subscription/);
    await expect(client.refusals(unknown)).rejects.toThrow(/400.*no subscription/);
    await expect(client.failNext(sub.endpoint, 99)).rejects.toThrow(/400.*not an HTTP status/);
    await expect(client.failNext(sub.endpoint, 500, 0)).rejects.toThrow(/400.*n >= 1/);
    expect((await send(sub, { n: 1 })).status).toBe(201);
  });

  it('waitFor times out with what that endpoint received and what of it was refused, not the others', async () => {
    const sub = await client.subscribe();
    const other = await client.subscribe();
    expect((await send(sub, { n: 1 })).status).toBe(201);
    await client.failNext(sub.endpoint, 503);
    expect((await send(sub, { n: 2 })).status).toBe(503);
    expect((await send(other, { secret: 'other' })).status).toBe(201);

    const started = Date.now();
    const error = await client.waitFor(sub.endpoint, (m) => (m.payload as { n: number }).n === 99, 200).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/no push matched within 200 ms/);
    expect(message).toContain(`2 push request(s) reached ${sub.endpoint}; 1 accepted`);
    expect(message).toContain('{"n":1}');
    expect(message).toMatch(/refused \(latest 1 of 1\):\n {2}503: failNext\(503\)/);
    expect(message).not.toContain('other');
  });

  it('waitFor rejects with the error of a predicate that throws', async () => {
    const sub = await client.subscribe();
    expect((await send(sub, { n: 1 })).status).toBe(201);
    await expect(
      client.waitFor(sub.endpoint, () => {
        throw new Error('bad predicate');
      }),
    ).rejects.toThrow('bad predicate');
  });

  it('expectNothing passes when nothing reached the endpoint, though others got pushes', async () => {
    const quiet = await client.subscribe();
    const busy = await client.subscribe();
    setTimeout(() => void send(busy, { n: 1 }), 20);
    const started = Date.now();
    await client.expectNothing(quiet.endpoint, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await client.waitFor(busy.endpoint);
  });

  it('expectNothing throws when something arrived, before or during the wait, accepted or refused', async () => {
    const before = await client.subscribe();
    expect((await send(before, { told: 'before' })).status).toBe(201);
    await expect(client.expectNothing(before.endpoint, 100)).rejects.toThrow(/expected nothing to reach .*1 push request\(s\).*1 accepted:\n {2}\{"told":"before"\}/s);

    const during = await client.subscribe();
    setTimeout(() => void send(during, { told: 'during' }), 50);
    // It throws as soon as it sees it, not at the end of the wait: a wait
    // longer than the test's own timeout would fail the test otherwise.
    await expect(client.expectNothing(during.endpoint, 120_000)).rejects.toThrow(/\{"told":"during"\}/);

    const refused = await client.subscribe();
    await client.expire(refused.endpoint);
    expect((await send(refused, { told: 'gone' })).status).toBe(410);
    await expect(client.expectNothing(refused.endpoint, 100)).rejects.toThrow(/0 accepted\nrefused \(latest 1 of 1\):\n {2}410: subscription expired/);
  });

  it('answers JSON under /control/ only, and does not count control requests as pushes', async () => {
    const sub = await client.subscribe();
    const requestsBefore = shared.requests();
    const control = (path: string, init?: RequestInit) => fetch(`${shared.origin}/control/${path}`, init);

    const created = await control('subscriptions', { method: 'POST' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(await created.json()).toMatchObject({ endpoint: expect.stringMatching(/\/push\//), keys: { p256dh: expect.any(String), auth: expect.any(String) } });

    expect((await control('subscriptions')).status).toBe(405);
    expect((await control('received', { method: 'POST' })).status).toBe(405);
    const missing = await control('nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/no control route/) });

    const badJson = await control('expire', { method: 'POST', body: '{not json' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({ error: 'push service: the control body is not JSON' });
    expect((await control('expire', { method: 'POST', body: '{}' })).status).toBe(400);
    expect((await control('fail-next', { method: 'POST', body: JSON.stringify({ status: '500', endpoint: sub.endpoint }) })).status).toBe(400);

    expect((await send(sub, { n: 1 })).status).toBe(201);
    const all = (await (await control('received')).json()) as { endpoint: string }[];
    expect(all.some((m) => m.endpoint === sub.endpoint)).toBe(true);
    const byEndpoint = await control(`received?endpoint=${encodeURIComponent(sub.endpoint)}`);
    expect(payloads((await byEndpoint.json()) as { payload: unknown }[])).toEqual([{ n: 1 }]);
    expect(await (await control(`requests?endpoint=${encodeURIComponent(sub.endpoint)}`)).json()).toEqual({ requests: 1 });
    expect(await (await control('requests')).json()).toEqual({ requests: requestsBefore + 1 });
    expect(shared.requests()).toBe(requestsBefore + 1);
    expect(shared.refusals().some((r) => r.subscriptionId === 'control' || r.status === 405)).toBe(false);
  });

  it('fail-next without an endpoint fails every endpoint (why a shared stand-in must always be given one), and clear wipes it all', async () => {
    // A stand-in of this test's own: both would break the other tests' endpoints on a shared one.
    const own = await startPushService();
    try {
      const ownClient = pushServiceClient(own.origin);
      const a = await ownClient.subscribe();
      const b = await ownClient.subscribe();
      const global = await fetch(`${own.origin}/control/fail-next`, { method: 'POST', body: JSON.stringify({ status: 502, n: 2 }) });
      expect(global.status).toBe(204);
      expect((await send(a, { n: 1 })).status).toBe(502);
      expect((await send(b, { n: 2 })).status).toBe(502);
      expect((await send(b, { n: 3 })).status).toBe(201);
      expect(await ownClient.requests()).toBe(3);

      await ownClient.failNext(a.endpoint, 500, 5);
      const cleared = await fetch(`${own.origin}/control/clear`, { method: 'POST' });
      expect(cleared.status).toBe(204);
      expect(await ownClient.receivedBy(b.endpoint)).toEqual([]);
      expect(await ownClient.refusals()).toEqual([]);
      expect(await ownClient.requests()).toBe(0);
      expect(await ownClient.requests(a.endpoint)).toBe(0);
      // The pending failNext rules went too; the subscriptions stayed.
      expect((await send(a, { n: 4 })).status).toBe(201);
    } finally {
      await own.close();
    }
  });
});

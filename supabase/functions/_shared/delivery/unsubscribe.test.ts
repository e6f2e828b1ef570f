// The unsubscribe link's token (_shared/delivery/unsubscribe.ts): names its member and
// plan, refuses an altered name before anything is looked up, is over after
// UNSUBSCRIBE_LINK_DAYS, and is bound to the address it was mailed to.
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from './unsubscribe.ts';

const SECRET = 'a-test-secret-that-is-long-enough-for-hmac';
const USER = '6b1f0c2e-0001-4c8a-9a61-000000000001';
const PLAN = '0e2d5a4c-7f3b-4d1e-8c2a-9b8f7e6d5c4b';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 12);

const make = (email = 'mia@example.com', now = NOW) => unsubscribeToken(USER, PLAN, email, { now, secret: SECRET });
const read = (token: string, now = NOW) => readUnsubscribeToken(token, { now, secret: SECRET });

describe('unsubscribe link tokens', () => {
  it('are 91 base64url characters naming the member and the plan', async () => {
    const token = await make();
    expect(token).toMatch(/^[A-Za-z0-9_-]{91}$/);
    expect(await read(token)).toMatchObject({ userId: USER, planId: PLAN, expired: false });
  });

  it('are bound to the address they were mailed to (compared trimmed, in any case)', async () => {
    const link = (await read(await make('Mia@Example.com ')))!;
    expect(await link.sentTo('mia@example.com')).toBe(true);
    expect(await link.sentTo('thief@example.com')).toBe(false);
  });

  it(`work for ${UNSUBSCRIBE_LINK_DAYS} days after they were made, then are expired (and one from the future too)`, async () => {
    const token = await make();
    expect((await read(token, NOW + UNSUBSCRIBE_LINK_DAYS * DAY))!.expired).toBe(false);
    expect((await read(token, NOW + (UNSUBSCRIBE_LINK_DAYS + 1) * DAY))!.expired).toBe(true);
    expect((await read(await make('mia@example.com', NOW + 3 * DAY)))!.expired).toBe(true);
  });

  it('refuse a changed character of what they name or its MAC, another secret, and any other shape; a changed address MAC binds to no address', async () => {
    const token = await make();
    const change = (i: number) => token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    // Characters 0-68 carry the 52 bytes of the ids, the day and the first MAC.
    for (let i = 0; i < 69; i += 1) expect(await read(change(i)), `character ${i}`).toBeNull();
    for (let i = 70; i < 90; i += 1) expect(await (await read(change(i)))!.sentTo('mia@example.com'), `character ${i}`).toBe(false);
    expect(await readUnsubscribeToken(token, { now: NOW, secret: `${SECRET}-other` })).toBeNull();
    for (const bad of ['', 'short', token.slice(0, 64), `${token}A`, `${token.slice(0, 90)}!`]) expect(await read(bad)).toBeNull();
  });

  it('an old day cannot be moved forward: the day is under the first MAC', async () => {
    const old = await make('mia@example.com', NOW - 200 * DAY);
    const bytes = Buffer.from(old, 'base64url');
    bytes.writeUInt32BE(Math.floor(NOW / DAY), 32);
    expect(await read(bytes.toString('base64url'))).toBeNull();
  });
});

// The claim readers every rule and policy goes through (private.claimed_*):
// the request's claims read as the API sets them, and nothing (never an
// error) for claims that are absent or malformed. claimed_guest_id is defined
// with the guests it names (the guests file), and read here
// with the others.
import { describe, expect, it } from 'vitest';
import { useFreshDatabase, usePlanWorld } from '../support/db.ts';
import { asGuest, sha256Hex } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db);

/** Run the claim readers with a raw request.jwt.claims string (possibly not JSON at all). */
const readersWithRawClaims = (raw: string | null) =>
  db.owner.begin(async (sql) => {
    await sql`select set_config('role', 'anon', true), set_config('request.jwt.claims', ${raw ?? ''}, true)`;
    const [r] = await sql`select private.claimed_guest_id() as guest, private.claimed_plan_id() as plan,
                                 private.claimed_plan_slug() as slug`;
    return r;
  });

describe('claim readers', () => {
  it('read guest_id (with its secret), plan_id and plan_slug', async () => {
    const plan = crypto.randomUUID();
    expect(await readersWithRawClaims(JSON.stringify({ ...asGuest(w.guest), plan_id: plan, plan_slug: 'abcdefgh' }))).toEqual({
      guest: w.guest,
      plan,
      slug: 'abcdefgh',
    });
  });

  it('claimed_guest_id() is null for a guest id without a secret, with a wrong one, or with another guest\'s', async () => {
    const guestOf = async (claims: object) => (await readersWithRawClaims(JSON.stringify(claims))).guest;
    expect(await guestOf({ role: 'anon', guest_id: w.guest })).toBeNull();
    expect(await guestOf({ role: 'anon', guest_id: w.guest, guest_secret_hash: sha256Hex('a guess') })).toBeNull();
    expect(await guestOf({ role: 'anon', guest_id: w.guest, guest_secret_hash: asGuest(w.otherGuest).guest_secret_hash })).toBeNull();
    expect(await guestOf({ role: 'anon', guest_id: w.guest, guest_secret_hash: 'not-a-hash' })).toBeNull();
    expect(await guestOf({ role: 'anon', guest_id: crypto.randomUUID(), guest_secret_hash: asGuest(w.guest).guest_secret_hash })).toBeNull();
    expect(await guestOf(asGuest(w.guest))).toBe(w.guest);
  });
  it('are null, never an error, for absent, empty, malformed or non-object claims', async () => {
    const none = { guest: null, plan: null, slug: null };
    for (const raw of [null, '{', 'not json', '[1,2]', '"text"', '{"guest_id":"nope","plan_id":42,"plan_slug":"","guest_secret_hash":7}']) {
      expect(await readersWithRawClaims(raw), String(raw)).toEqual(none);
    }
  });
});

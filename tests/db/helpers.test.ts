// The claim readers and membership helpers of the contract (private.*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.ts';
import { asGuest, seedPlan, sha256Hex, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

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

describe('membership helpers', () => {
  const ask = (actor: ActorName) =>
    db.as(w.actors[actor], async (sql) => {
      const [r] = await sql`select private.is_participant(${w.planA}) as participant,
                                   private.is_host(${w.planA}) as host,
                                   private.can_read_plan(${w.planA}) as can_read`;
      return r;
    });
  const expected: Record<ActorName, [boolean, boolean, boolean]> = {
    anon: [false, false, false],
    anonWithLink: [false, false, true],
    anonWithSlug: [false, false, false],
    guest: [true, false, true],
    otherGuest: [false, false, false],
    otherGuestWithLink: [false, false, true],
    member: [true, false, true],
    host: [true, true, true],
    stranger: [false, false, false],
    strangerWithLink: [false, false, true],
  };
  for (const [actor, [participant, host, canRead]] of Object.entries(expected) as [ActorName, [boolean, boolean, boolean]][]) {
    it(`${actor}: participant ${participant}, host ${host}, can read ${canRead}`, async () => {
      expect(await ask(actor)).toEqual({ participant, host, can_read: canRead });
    });
  }
});

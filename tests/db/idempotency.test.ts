// Idempotency keys (the idempotency domain): the stored answers are out
// of every request role's reach; a key belongs to its caller (member or
// guest); the statement shape the API sends (_shared/db/client.ts requestRow) runs
// the action once and replays its answer after; the same key for another
// request is HP422; a rolled-back request keeps nothing; a repeat sent while
// the first runs waits for it and replays; keys expire after 7 days, cleaned
// up by the caller's next claim and by the scheduler.
import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_LIFETIME_DAYS,
  IDEMPOTENCY_KEY_REUSED,
} from '../../supabase/functions/_shared/contract/idempotency.ts';
import { expectDenied, expectPgError, runAs, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { sha256Hex } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db);

const newKey = () => randomUUID();
const fingerprint = (request: string) => sha256Hex(request);

/** The statement requestRow sends for a route statement `action` (SQL text, no parameters). */
const idempotent = (tx: TransactionSql, key: string, print: string, action: string) =>
  tx.unsafe(
    `select coalesce(claim.stored,
                     private.store_idempotent_answer($1::text,
                       (select coalesce(jsonb_agg(to_jsonb(a)), '[]'::jsonb) from (${action}) a))) as answer,
            claim.stored is not null as replayed
       from private.claim_idempotency_key($1::text, $2::text) claim(stored)`,
    [key, print],
  ) as unknown as Promise<{ answer: unknown[]; replayed: boolean }[]>;

/** A toggle of the caller's vote on plan A's idea, sent under `key`: the answer row. */
async function voteOnce(claims: Claims, key: string, print = fingerprint('vote idea A')) {
  const [row] = await db.as(claims, (tx) =>
    idempotent(tx, key, print, `select voted, vote_count as "voteCount" from app.vote_on_idea('${w.ideaA}'::uuid)`),
  );
  return row;
}

const votesOf = async (column: 'user_id' | 'guest_id', id: string) =>
  (await db.owner<{ n: number }[]>`select count(*)::int as n from app.idea_votes where idea_id = ${w.ideaA} and ${db.owner(column)} = ${id}`)[0].n;

const keyRows = async (key: string) =>
  db.owner<{ user_id: string | null; guest_id: string | null; answer: unknown }[]>`
    select user_id, guest_id, answer from private.idempotency_keys where key = ${key}`;

const claim = (claims: Claims, key: string, print: string) =>
  db.as(claims, async (tx) => (await tx`select private.claim_idempotency_key(${key}, ${print}) as stored`)[0].stored as unknown);

describe('private.idempotency_keys is out of the request roles\' reach', () => {
  it('anon and authenticated can neither read nor write it', async () => {
    for (const claims of [w.actors.anon, w.actors.guest, w.actors.member]) {
      await expectDenied(db.as(claims, (tx) => tx`select * from private.idempotency_keys`));
      await expectDenied(
        db.as(claims, (tx) => tx`insert into private.idempotency_keys (user_id, key, fingerprint) values (${w.users.member}, ${newKey()}, ${fingerprint('x')})`),
      );
      await expectDenied(db.as(claims, (tx) => tx`update private.idempotency_keys set answer = '[]'`));
      await expectDenied(db.as(claims, (tx) => tx`delete from private.idempotency_keys`));
    }
  });

  it('has row-level security with a deny-all policy, and no grants', async () => {
    const [table] = await db.owner<{ rls: boolean; acl: string | null }[]>`
      select c.relrowsecurity as rls, c.relacl::text as acl from pg_class c
       where c.oid = 'private.idempotency_keys'::regclass`;
    expect(table).toEqual({ rls: true, acl: null });
    const policies = await db.owner`select policyname, permissive, roles::text[] as roles, qual, with_check from pg_policies
                                     where schemaname = 'private' and tablename = 'idempotency_keys'`;
    expect(policies).toEqual([
      { policyname: 'idempotency_keys_no_direct_access', permissive: 'RESTRICTIVE', roles: ['anon', 'authenticated'], qual: 'false', with_check: 'false' },
    ]);
  });

  it('the scheduler\'s cleanup is for service_role only', async () => {
    for (const claims of [w.actors.anon, w.actors.member]) {
      await expectDenied(db.as(claims, (tx) => tx`select private.expire_idempotency_keys(10)`));
    }
  });
});

describe('a vote under a key', () => {
  it('runs once: the repeat replays the first answer and toggles nothing', async () => {
    const key = newKey();
    expect(await votesOf('user_id', w.users.stranger)).toBe(0);
    const first = await voteOnce(w.actors.strangerWithLink, key);
    expect(first.replayed).toBe(false);
    expect(first.answer).toEqual([{ voted: true, voteCount: 3 }]);
    const again = await voteOnce(w.actors.strangerWithLink, key);
    expect(again).toEqual({ answer: first.answer, replayed: true });
    expect(await votesOf('user_id', w.users.stranger)).toBe(1);
    expect(await keyRows(key)).toEqual([{ user_id: w.users.stranger, guest_id: null, answer: first.answer }]);

    // Another key is another action: the vote toggles back.
    const next = await voteOnce(w.actors.strangerWithLink, newKey());
    expect(next).toEqual({ answer: [{ voted: false, voteCount: 2 }], replayed: false });
    expect(await votesOf('user_id', w.users.stranger)).toBe(0);
  });

  it('a key is the caller\'s own: the same key from a guest and another member runs for each', async () => {
    const key = newKey();
    const guestVotes = await votesOf('guest_id', w.guest);
    const member = await voteOnce(w.actors.member, key);
    const guest = await voteOnce(w.actors.guest, key);
    expect(member.replayed).toBe(false);
    expect(guest.replayed).toBe(false);
    expect(await votesOf('guest_id', w.guest)).toBe(1 - guestVotes);
    expect((await keyRows(key)).map((r) => r.user_id ?? r.guest_id).sort()).toEqual([w.users.member, w.guest].sort());
    // Each replays its own answer.
    expect(await voteOnce(w.actors.member, key)).toEqual({ answer: member.answer, replayed: true });
    expect(await voteOnce(w.actors.guest, key)).toEqual({ answer: guest.answer, replayed: true });
    // Undo, for the tests after.
    await voteOnce(w.actors.member, newKey());
    await voteOnce(w.actors.guest, newKey());
  });

  it('the same key for another request is HP422 with the API\'s sentence, and changes nothing', async () => {
    const key = newKey();
    const first = await voteOnce(w.actors.host, key);
    await expectPgError(voteOnce(w.actors.host, key, fingerprint('another request')), 'HP422', IDEMPOTENCY_KEY_REUSED);
    expect(await keyRows(key)).toEqual([{ user_id: w.users.host, guest_id: null, answer: first.answer }]);
    await voteOnce(w.actors.host, newKey());
  });

  it('a malformed key is HP400 with the API\'s sentence', async () => {
    for (const key of ['short', 'x'.repeat(101), 'with space', '']) {
      await expectPgError(claim(w.actors.member, key, fingerprint('x')), 'HP400', IDEMPOTENCY_KEY_INVALID);
    }
  });

  it('a request that fails keeps nothing: the repeat runs afresh', async () => {
    const key = newKey();
    const print = fingerprint('comment');
    // The action fails after the claim (a comment on an idea that does not exist).
    await expectPgError(
      db.as(w.actors.member, (tx) =>
        idempotent(tx, key, print, `select ic.id from app.add_idea_comment('${randomUUID()}'::uuid, 'Hello') ic`),
      ),
      'HP404',
    );
    expect(await keyRows(key)).toEqual([]);
    const [row] = await db.as(w.actors.member, (tx) =>
      idempotent(tx, key, print, `select ic.text from app.add_idea_comment('${w.ideaA}'::uuid, 'Hello') ic`),
    );
    expect(row).toEqual({ answer: [{ text: 'Hello' }], replayed: false });
  });

  it('without a member or a guest in the claims there is no key to claim', async () => {
    await expectPgError(claim(w.actors.anonWithLink, newKey(), fingerprint('x')), 'P0001', /no caller/);
  });
});

describe('a repeat sent while the first is still running', () => {
  it('waits for it, then replays what it stored', async () => {
    const pool: Sql = db.pool(2);
    const key = newKey();
    const print = fingerprint('slot vote');
    const action = `select voted, vote_count as "voteCount" from app.vote_on_time_slot('${w.slotA}'::uuid)`;
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: () => void;
    const claimed = new Promise<void>((resolve) => (firstClaimed = resolve));
    const first = runAs(pool, w.actors.member, async (tx) => {
      const [row] = await idempotent(tx, key, print, action);
      firstClaimed();
      await firstMayCommit;
      return row;
    });
    await claimed;
    let secondDone = false;
    const second = runAs(pool, w.actors.member, async (tx) => (await idempotent(tx, key, print, action))[0]).then((row) => {
      secondDone = true;
      return row;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone, 'the repeat waits for the first').toBe(false);
    releaseFirst();
    const [a, b] = await Promise.all([first, second]);
    expect(a.replayed).toBe(false);
    expect(b).toEqual({ answer: a.answer, replayed: true });
    const [{ n }] = await db.owner<{ n: number }[]>`
      select count(*)::int as n from app.time_slot_votes where time_slot_id = ${w.slotA} and user_id = ${w.users.member}`;
    expect(n).toBe(1);
  });

  it('holds the key itself when the first rolls back', async () => {
    const pool: Sql = db.pool(2);
    const key = newKey();
    const print = fingerprint('comment');
    const action = `select ic.text from app.add_idea_comment('${w.ideaA}'::uuid, 'Second try') ic`;
    let failFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => (failFirst = resolve));
    let firstClaimed!: () => void;
    const claimed = new Promise<void>((resolve) => (firstClaimed = resolve));
    const first = runAs(pool, w.actors.member, async (tx) => {
      await idempotent(tx, key, print, action);
      firstClaimed();
      await firstMayEnd;
      throw new Error('the first request failed');
    }).catch((error: Error) => error.message);
    await claimed;
    const second = runAs(pool, w.actors.member, async (tx) => (await idempotent(tx, key, print, action))[0]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    failFirst();
    expect(await first).toBe('the first request failed');
    expect(await second).toEqual({ answer: [{ text: 'Second try' }], replayed: false });
    const [{ n }] = await db.owner<{ n: number }[]>`select count(*)::int as n from app.idea_comments where text = 'Second try'`;
    expect(n).toBe(1);
  });
});

describe('expiry', () => {
  const age = (key: string, interval: string) =>
    db.owner`update private.idempotency_keys set created_at = now() - ${interval}::interval where key = ${key}`;

  it(`keys live ${IDEMPOTENCY_KEY_LIFETIME_DAYS} days: an older one is claimed afresh, even for another request`, async () => {
    const key = newKey();
    await claim(w.actors.member, key, fingerprint('first'));
    await db.as(w.actors.member, (tx) => tx`select private.store_idempotent_answer(${key}, '[{"n": 1}]')`);
    await age(key, `${IDEMPOTENCY_KEY_LIFETIME_DAYS} days - 1 minute`);
    expect(await claim(w.actors.member, key, fingerprint('first'))).toEqual([{ n: 1 }]);
    await age(key, `${IDEMPOTENCY_KEY_LIFETIME_DAYS} days 1 minute`);
    expect(await claim(w.actors.member, key, fingerprint('another request'))).toBeNull();
  });

  it("a claim deletes a few of its caller's expired keys, nobody else's", async () => {
    const mine = [newKey(), newKey()];
    const theirs = newKey();
    for (const key of mine) await claim(w.actors.host, key, fingerprint(key));
    await claim(w.actors.guest, theirs, fingerprint(theirs));
    for (const key of [...mine, theirs]) await age(key, `${IDEMPOTENCY_KEY_LIFETIME_DAYS + 1} days`);
    await claim(w.actors.host, newKey(), fingerprint('new'));
    expect((await keyRows(mine[0])).length + (await keyRows(mine[1])).length).toBe(0);
    expect(await keyRows(theirs)).toHaveLength(1);
  });

  it('the scheduler deletes expired keys, oldest first, up to its limit, and leaves live ones', async () => {
    const old = [newKey(), newKey(), newKey()];
    const live = newKey();
    for (const key of [...old, live]) await claim(w.actors.stranger, key, fingerprint(key));
    await age(old[0], '30 days');
    await age(old[1], '20 days');
    await age(old[2], `${IDEMPOTENCY_KEY_LIFETIME_DAYS} days 1 second`);
    await age(live, `${IDEMPOTENCY_KEY_LIFETIME_DAYS} days - 1 hour`);
    // The file's other expired keys (a day past their lifetime) are younger
    // than old[0] and old[1] and older than old[2]: they go with the first two.
    const expire = (limit: number) =>
      db.owner.begin(async (tx) => {
        await tx`set local role service_role`;
        return (await tx`select private.expire_idempotency_keys(${limit}) as n`)[0].n as number;
      });
    const [{ others }] = await db.owner<{ others: number }[]>`
      select count(*)::int as others from private.idempotency_keys
       where created_at < now() - interval '7 days' and key <> all(${old})`;
    expect(await expire(others + 2)).toBe(others + 2);
    expect(await keyRows(old[0])).toEqual([]);
    expect(await keyRows(old[1])).toEqual([]);
    expect(await keyRows(old[2])).toHaveLength(1);
    expect(await expire(100)).toBe(1);
    expect(await expire(100)).toBe(0);
    expect(await keyRows(live)).toHaveLength(1);
  });

  it("a guest's and a member's keys go with them", async () => {
    const key = newKey();
    await claim(w.actors.otherGuest, key, fingerprint('x'));
    expect(await keyRows(key)).toHaveLength(1);
    await db.owner`delete from app.guests where id = ${w.otherGuest}`;
    expect(await keyRows(key)).toEqual([]);
  });
});

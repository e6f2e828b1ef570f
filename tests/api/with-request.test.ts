// withRequest() itself, run from Node against the same database as the server:
// the role and claims of each transaction, the gate of its claims statement
// (live session, guest secret), rollback, and that nothing leaks into the
// pooled connection afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { countLimits, sha256Hex, requestRow, requestStatements, sql, withRequest } from '../../supabase/functions/_shared/db/client.ts';
import { apiDatabaseAsOwner } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
const PLAN = '9d9d9d9d-3333-4c4c-9d9d-444444444444';
const GUEST_SECRET = 'with-request-guest-secret'.padEnd(43, 'x');
/** Well-formed (so the database's gate, not the shape check, refuses it) and wrong. */
const WRONG_SECRET = 'wrong'.padEnd(43, 'x');
const PROBE_TABLE = `public.with_request_probe_${Date.now()}`;
let plan: { planId: string; ideaId: string; timeSlotId: string };
let USER: string;
let SESSION: string;
let GUEST: string;

beforeAll(async () => {
  process.env.DATABASE_URL = inject('apiDbUrl');
  await owner.unsafe(`create table ${PROBE_TABLE} (note text); grant insert, select on ${PROBE_TABLE} to anon, authenticated`);
  // A plan with one idea and one time slot, to resolve plan_id from their ids.
  const [{ id: hostId }] = await owner`insert into app.users (email) values (${`wr-${Date.now()}@example.com`}) returning id`;
  const [{ id: planId }] = await owner`insert into app.plans (title, host_id) values ('With request', ${hostId}) returning id`;
  const [{ id: ideaId }] = await owner`
    insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Picnic', 'Host', ${hostId}) returning id`;
  const [{ id: timeSlotId }] = await owner`
    insert into app.time_slots (plan_id, date, period) values (${planId}, current_date, 'Evening') returning id`;
  plan = { planId, ideaId, timeSlotId };
  USER = hostId;
  [{ id: SESSION }] = await owner`insert into app.sessions (user_id) values (${USER}) returning id`;
  [{ id: GUEST }] = await owner`insert into app.guests (plan_id, name) values (${planId}, 'Wren') returning id`;
  await owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${GUEST}, ${await sha256Hex(GUEST_SECRET)}, 'joined')`;
});

afterAll(async () => {
  await owner.unsafe(`drop table if exists ${PROBE_TABLE}`);
  await owner`delete from app.plans where id = ${plan.planId}`;
  await owner`delete from app.users where id = ${USER}`;
  await owner.end();
  await sql().end();
});

async function roleAndClaims(identity: Parameters<typeof withRequest>[0]) {
  return withRequest(identity, async (tx) => {
    const [row] = await tx`select current_user as role, current_setting('request.jwt.claims', true) as claims,
                                  current_setting('request.jwt.claim.sub', true) as sub`;
    return { role: row.role as string, claims: JSON.parse(row.claims as string), sub: row.sub as string };
  });
}

describe('withRequest', () => {
  it('runs as anon with only the role claim when nobody is identified', async () => {
    expect(await roleAndClaims({})).toEqual({ role: 'anon', claims: { role: 'anon' }, sub: '' });
  });

  it('runs as authenticated with sub and session_id in the claims, and sets request.jwt.claim.sub too', async () => {
    expect(await roleAndClaims({ userId: USER, sessionId: SESSION, planId: PLAN })).toEqual({
      role: 'authenticated',
      claims: { role: 'authenticated', sub: USER, session_id: SESSION, plan_id: PLAN },
      sub: USER,
    });
  });

  it('carries guest_id with the hash of its secret, and plan_slug, for guests', async () => {
    expect(await roleAndClaims({ guestId: GUEST, guestSecret: GUEST_SECRET, planSlug: 'abcdEFGH12' })).toEqual({
      role: 'anon',
      claims: { role: 'anon', guest_id: GUEST, guest_secret_hash: await sha256Hex(GUEST_SECRET), plan_slug: 'abcdEFGH12' },
      sub: '',
    });
  });

  it('resolves plan_id from an idea or a time slot in the claims statement', async () => {
    expect((await roleAndClaims({ guestId: GUEST, guestSecret: GUEST_SECRET, ideaId: plan.ideaId })).claims).toMatchObject({
      role: 'anon',
      guest_id: GUEST,
      plan_id: plan.planId,
    });
    expect((await roleAndClaims({ userId: USER, sessionId: SESSION, timeSlotId: plan.timeSlotId })).claims).toEqual({
      role: 'authenticated',
      sub: USER,
      session_id: SESSION,
      plan_id: plan.planId,
    });
  });

  it('the claims statement refuses a session that has ended, and nothing of the handler stays', async () => {
    const [{ id: ended }] = await owner`insert into app.sessions (user_id) values (${USER}) returning id`;
    await owner`delete from app.sessions where id = ${ended}`;
    const note = `ended-${Date.now()}`;
    await expect(
      withRequest({ userId: USER, sessionId: ended }, (tx) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note])),
    ).rejects.toMatchObject({ code: 'HP401', message: 'Your session has expired, please sign in again' });
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(0);
  });

  it("the claims statement refuses a guest without its secret or with a wrong one, whatever the handler makes of it", async () => {
    await expect(withRequest({ guestId: GUEST, guestSecret: null }, (tx) => tx`select 1`)).rejects.toMatchObject({
      code: 'HP401',
      message: GUEST_SECRET_MISSING,
    });
    // The handler swallows the failure of its own query: the gate's refusal still comes out.
    await expect(
      withRequest({ guestId: GUEST, guestSecret: WRONG_SECRET }, async (tx) => {
        await tx`select 1`.catch(() => undefined);
        throw new Error('the handler’s own error');
      }),
    ).rejects.toMatchObject({ code: 'HP403', message: GUEST_SECRET_WRONG });
  });

  it('refuses a user id that comes without its session (a bug, never sent to the database)', async () => {
    await expect(withRequest({ userId: USER }, (tx) => tx`select 1`)).rejects.toThrow('a user id without its verified session');
  });

  it('leaves plan_id out for an unknown idea or time slot', async () => {
    expect((await roleAndClaims({ ideaId: crypto.randomUUID() })).claims).toEqual({ role: 'anon' });
    expect((await roleAndClaims({ timeSlotId: crypto.randomUUID() })).claims).toEqual({ role: 'anon' });
  });

  it('lets the plan named by the URL be read under RLS (anon, plan_id claim only)', async () => {
    const rows = await withRequest({ ideaId: plan.ideaId }, (tx) => tx`select id from app.plans`);
    expect(rows.map((r) => r.id)).toEqual([plan.planId]);
    expect(await withRequest({}, (tx) => tx`select id from app.plans`)).toHaveLength(0);
  });

  it('rolls back everything when the handler throws', async () => {
    const note = `rollback-${Date.now()}`;
    await expect(
      withRequest({}, async (tx) => {
        await tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]);
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(0);
  });

  it('commits when the handler returns', async () => {
    const note = `commit-${Date.now()}`;
    await withRequest({ userId: USER, sessionId: SESSION }, (tx) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]));
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(1);
  });

  it('leaves no role or claims on the pooled connections afterwards', async () => {
    await Promise.all(Array.from({ length: 10 }, () => roleAndClaims({ userId: USER, sessionId: SESSION })));
    const rows = await Promise.all(
      Array.from(
        { length: 10 },
        () => sql()`select current_user as role, current_setting('request.jwt.claims', true) as claims,
                           current_setting('request.jwt.claim.sub', true) as sub`,
      ),
    );
    for (const [row] of rows) {
      expect(row.role).not.toMatch(/^(anon|authenticated)$/);
      expect(row.claims ?? '').toBe('');
      expect(row.sub ?? '').toBe('');
    }
  });

  it('refuses to go on when the claims statement fails, reporting that error', async () => {
    await expect(withRequest({ ideaId: 'not-a-uuid' }, (tx) => tx`select 1`)).rejects.toMatchObject({ code: '22P02' });
  });
});

describe('requestStatements (BEGIN, claims, the statements and COMMIT in one round trip)', () => {
  it("answers each statement's rows in order, in one transaction under the request's role and claims", async () => {
    const [first, second] = await requestStatements({ userId: USER, sessionId: SESSION, planId: plan.planId }, (tx) => [
      tx<{ role: string; xid: string }[]>`select current_user as role, txid_current()::text as xid`,
      tx<{ planId: string; xid: string }[]>`
        select current_setting('request.jwt.claims', true)::jsonb ->> 'plan_id' as "planId", txid_current()::text as xid`,
    ] as const);
    expect(first[0].role).toBe('authenticated');
    expect(second[0].planId).toBe(plan.planId);
    expect(second[0].xid).toBe(first[0].xid);
    expect(await requestRow({ ideaId: plan.ideaId }, (tx) => tx<{ id: string }[]>`select id from app.plans`)).toEqual({ id: plan.planId });
    expect(await requestRow({}, (tx) => tx<{ id: string }[]>`select id from app.plans`)).toBeUndefined();
  });

  it('commits every statement when all succeed', async () => {
    const notes = [`one-trip-a-${Date.now()}`, `one-trip-b-${Date.now()}`];
    await requestStatements({}, (tx) => notes.map((note) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note])));
    expect(await owner.unsafe(`select note from ${PROBE_TABLE} where note = any($1) order by note`, [notes])).toHaveLength(2);
  });

  it('throws the first failure (not the "aborted" of the statements behind it) and keeps nothing', async () => {
    const note = `one-trip-failed-${Date.now()}`;
    await expect(
      requestStatements({}, (tx) => [
        tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]),
        tx`select 1 / 0`,
        tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [`${note}-after`]),
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note like $1`, [`${note}%`])).toHaveLength(0);
  });

  it("answers the gate's refusal, and nothing of the statements stays", async () => {
    const note = `one-trip-refused-${Date.now()}`;
    await expect(
      requestStatements({ guestId: GUEST, guestSecret: WRONG_SECRET }, (tx) => [tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note])]),
    ).rejects.toMatchObject({ code: 'HP403', message: GUEST_SECRET_WRONG });
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(0);
  });

  it('gives every connection back clean, after failures too (more requests than the pool holds)', async () => {
    const failures = Array.from({ length: 20 }, (_, n) =>
      n % 2
        ? requestStatements({}, (tx) => [tx`select 1 / 0`])
        : withRequest({}, async (tx) => {
            await tx`select 1`;
            throw new Error('handler failed');
          }),
    );
    expect((await Promise.allSettled(failures)).every((r) => r.status === 'rejected')).toBe(true);
    const roles = await Promise.all(
      Array.from({ length: 20 }, () => requestRow({}, (tx) => tx<{ role: string }[]>`select current_user as role`)),
    );
    expect(roles).toEqual(Array.from({ length: 20 }, () => ({ role: 'anon' })));
    // Outside a request, on every pooled connection: no role, no claims, and
    // no transaction left open (the connection would stay "idle in transaction").
    const outside = await Promise.all(
      Array.from(
        { length: 5 },
        () => sql()<{ role: string; claims: string | null; pid: number }[]>`
          select current_user as role, current_setting('request.jwt.claims', true) as claims,
                 pg_backend_pid() as pid, pg_sleep(0.05)::text`,
      ),
    );
    for (const [row] of outside) {
      expect(row.role).not.toMatch(/^(anon|authenticated)$/);
      expect(row.claims ?? '').toBe('');
    }
    const pids = outside.map(([row]) => row.pid);
    const states = await owner<{ state: string }[]>`select state from pg_stat_activity where pid = any(${pids}::int[])`;
    expect(states.length).toBeGreaterThan(0);
    for (const { state } of states) expect(state).toBe('idle');
  });
});

describe('abuse limits counted by the claims statement', () => {
  const hitsOf = async (key: string) =>
    ((await owner`select hits from app.rate_limit_counters where key = ${`vote:${key}`}`)[0]?.hits as number | undefined) ?? 0;
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.RATE_LIMITS;
    process.env.RATE_LIMITS = 'vote=2/1h';
    delete process.env.RATE_LIMIT_SCOPE;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.RATE_LIMITS;
    else process.env.RATE_LIMITS = saved;
  });

  it('counts each request; past the limit HP429, and nothing of the request stays', async () => {
    const key = `wr-${crypto.randomUUID()}`;
    const note = `limited-${Date.now()}`;
    const insert = () =>
      requestStatements({}, (tx) => [tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note])], { limits: [{ limit: 'vote', key }] });
    await insert();
    await withRequest({}, (tx) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]), { limits: [{ limit: 'vote', key }] });
    expect(await hitsOf(key)).toBe(2);
    await expect(insert()).rejects.toMatchObject({ code: 'HP429' });
    await expect(
      withRequest({}, (tx) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]), { limits: [{ limit: 'vote', key }] }),
    ).rejects.toMatchObject({ code: 'HP429' });
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(2);
    expect(await hitsOf(key)).toBe(2);
  });

  it('counts nothing for a caller the gate refuses', async () => {
    const key = `wr-${crypto.randomUUID()}`;
    await expect(
      requestStatements({ guestId: GUEST, guestSecret: WRONG_SECRET }, () => [] as const, { limits: [{ limit: 'vote', key }] }),
    ).rejects.toMatchObject({ code: 'HP403' });
    expect(await hitsOf(key)).toBe(0);
  });

  it('countLimits: a transaction of its own', async () => {
    const key = `wr-${crypto.randomUUID()}`;
    await countLimits([{ limit: 'vote', key }]);
    expect(await hitsOf(key)).toBe(1);
  });
});


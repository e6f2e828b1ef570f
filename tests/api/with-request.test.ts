// withRequest() itself, run from Node against the same database as the server:
// the role and claims of each transaction, rollback, and that nothing leaks
// into the pooled connection afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { sql, withRequest } from '../../supabase/functions/_shared/db.ts';
import { apiDatabaseAsOwner } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
const USER = '6f1c2f6e-3b7a-4d1e-9a55-0f2f7b8c9d10';
const GUEST = '0b8f8f3e-1111-4a4a-8b8b-222222222222';
const PLAN = '9d9d9d9d-3333-4c4c-9d9d-444444444444';
const PROBE_TABLE = `public.with_request_probe_${Date.now()}`;
let plan: { planId: string; ideaId: string; timeSlotId: string };

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
});

afterAll(async () => {
  await owner.unsafe(`drop table if exists ${PROBE_TABLE}`);
  await owner`delete from app.plans where id = ${plan.planId}`;
  await owner.end();
  await sql().end();
});

async function roleAndClaims(identity: Parameters<typeof withRequest>[0]) {
  return withRequest(identity, async (tx) => {
    const [row] = await tx`select current_user as role, current_setting('request.jwt.claims', true) as claims`;
    return { role: row.role as string, claims: JSON.parse(row.claims as string) };
  });
}

describe('withRequest', () => {
  it('runs as anon with only the role claim when nobody is identified', async () => {
    expect(await roleAndClaims({})).toEqual({ role: 'anon', claims: { role: 'anon' } });
  });

  it('runs as authenticated with sub, ignoring a guest id (a valid token wins)', async () => {
    expect(await roleAndClaims({ userId: USER, guestId: GUEST, planId: PLAN })).toEqual({
      role: 'authenticated',
      claims: { role: 'authenticated', sub: USER, plan_id: PLAN },
    });
  });

  it('carries guest_id and plan_slug for guests', async () => {
    expect(await roleAndClaims({ guestId: GUEST, planSlug: 'abcdEFGH12' })).toEqual({
      role: 'anon',
      claims: { role: 'anon', guest_id: GUEST, plan_slug: 'abcdEFGH12' },
    });
  });

  it('resolves plan_id from an idea or a time slot in the claims statement', async () => {
    expect((await roleAndClaims({ guestId: GUEST, ideaId: plan.ideaId })).claims).toEqual({
      role: 'anon',
      guest_id: GUEST,
      plan_id: plan.planId,
    });
    expect((await roleAndClaims({ userId: USER, timeSlotId: plan.timeSlotId })).claims).toEqual({
      role: 'authenticated',
      sub: USER,
      plan_id: plan.planId,
    });
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
    await withRequest({ userId: USER }, (tx) => tx.unsafe(`insert into ${PROBE_TABLE} values ($1)`, [note]));
    expect(await owner.unsafe(`select 1 from ${PROBE_TABLE} where note = $1`, [note])).toHaveLength(1);
  });

  it('leaves no role or claims on the pooled connections afterwards', async () => {
    await Promise.all(Array.from({ length: 10 }, () => roleAndClaims({ userId: USER })));
    const rows = await Promise.all(
      Array.from({ length: 10 }, () => sql()`select current_user as role, current_setting('request.jwt.claims', true) as claims`),
    );
    for (const [row] of rows) {
      expect(row.role).not.toMatch(/^(anon|authenticated)$/);
      expect(row.claims ?? '').toBe('');
    }
  });

  it('refuses to go on when the claims statement fails, reporting that error', async () => {
    await expect(withRequest({ ideaId: 'not-a-uuid' }, (tx) => tx`select 1`)).rejects.toMatchObject({ code: '22P02' });
  });
});

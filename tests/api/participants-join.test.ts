// POST /api/plans/{id}/join over HTTP: members (token) and guests (guestId),
// idempotence, foreign guests, and the answers without an identity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, apiDatabaseAsOwner, expectText } from '../support/api.ts';
import { newAccount, newGuest, newPlan, participantsOf, tokenFor, uniqueName, type User } from '../support/api-world.ts';

const owner = apiDatabaseAsOwner();
let host: User;
let planId: string;
let otherPlanId: string;

beforeAll(async () => {
  host = await newAccount(owner, 'Hanna', 'Host');
  planId = await newPlan(host, 'Join');
  otherPlanId = await newPlan(host, 'Join elsewhere');
});
afterAll(async () => {
  await owner`delete from app.plans where host_id = ${host.id}`;
  await owner.end();
});

const join = (plan: string, body: unknown, token?: string, guestSecret?: string | null) =>
  api('POST', `/api/plans/${plan}/join`, { body, token, guestSecret });

describe('joining as a signed-in member', () => {
  it('joins once; the name comes from the account, not the body; joining again is fine', async () => {
    const member = await newAccount(owner, 'Mia', 'Member');
    const first = await join(planId, { name: 'Someone Else', userId: member.id }, member.token);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ joined: true, participantId: expect.any(String), alreadyJoined: false });

    const again = await join(planId, { name: 'Another Name', userId: member.id }, member.token);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ joined: true, participantId: first.json.participantId, alreadyJoined: true });

    const rows = (await participantsOf(owner, planId)).filter((p) => p.userId === member.id);
    expect(rows).toEqual([{ id: first.json.participantId, name: 'Mia Member', userId: member.id, guestId: null }]);
  });

  it('joins with an empty body too (the token says who), and the host is already in', async () => {
    const member = await newAccount(owner, null, null);
    const res = await join(planId, undefined, member.token);
    expect(res.status, res.text).toBe(200);
    const row = (await participantsOf(owner, planId)).find((p) => p.userId === member.id);
    expect(row?.name).toBe(member.email.split('@')[0]);

    const hostRes = await join(planId, {}, host.token);
    expect(hostRes.json).toMatchObject({ joined: true, alreadyJoined: true });
  });

  it('parallel joins of the same member leave one participants row', async () => {
    const member = await newAccount(owner);
    const results = await Promise.all([0, 1, 2].map(() => join(planId, {}, member.token)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.json.participantId)).size).toBe(1);
    expect((await participantsOf(owner, planId)).filter((p) => p.userId === member.id)).toHaveLength(1);
  });

  it("refuses a userId that is not the token's with 403", async () => {
    const member = await newAccount(owner);
    const other = await newAccount(owner);
    expectText(await join(planId, { name: 'x', userId: other.id }, member.token), 403, 'You can only join a plan as yourself');
    expect((await participantsOf(owner, planId)).filter((p) => p.userId === member.id || p.userId === other.id)).toEqual([]);
    expect((await join(planId, { userId: member.id.toUpperCase() }, member.token)).status).toBe(200);
  });

  it('a valid token wins over a guestId in the body, even one of another plan', async () => {
    const member = await newAccount(owner);
    const foreign = await newGuest(otherPlanId);
    const res = await join(planId, { name: foreign.name, guestId: foreign.id }, member.token);
    expect(res.status, res.text).toBe(200);
    const rows = await participantsOf(owner, planId);
    expect(rows.filter((p) => p.userId === member.id)).toHaveLength(1);
    expect(rows.filter((p) => p.guestId === foreign.id)).toHaveLength(0);
  });

  it('answers 404 for unknown and malformed plan ids', async () => {
    const member = await newAccount(owner);
    expectText(await join(crypto.randomUUID(), {}, member.token), 404, 'Plan not found');
    expectText(await join('not-a-plan', {}, member.token), 404, 'Plan not found');
    expect(await owner`select 1 from app.participants where user_id = ${member.id}`).toHaveLength(0);
  });

  it('answers 401 for a bad token and for the token of a deleted account', async () => {
    expectText(await join(planId, {}, 'garbage'), 401, 'Your session has expired, please sign in again');
    const gone = await newAccount(owner);
    await owner`delete from app.users where id = ${gone.id}`;
    expectText(await join(planId, {}, await tokenFor(gone.id)), 401, 'Your session has expired, please sign in again');
  });
});

describe('joining as a guest', () => {
  it("is idempotent: the guest joined when it was created; the answer names its participants row", async () => {
    const guest = await newGuest(planId);
    const res = await join(planId, { name: guest.name, guestId: guest.id });
    expect(res.status, res.text).toBe(200);
    const row = (await participantsOf(owner, planId)).find((p) => p.guestId === guest.id);
    expect(res.json).toEqual({ joined: true, participantId: row?.id, alreadyJoined: true });
    expect((await join(planId, { name: 'ignored', guestId: guest.id })).json).toEqual(res.json);
    expect((await participantsOf(owner, planId)).filter((p) => p.guestId === guest.id)).toHaveLength(1);
  });

  it('re-joins a guest whose participants row is missing', async () => {
    const guest = await newGuest(planId);
    await owner`delete from app.participants where guest_id = ${guest.id}`;
    const res = await join(planId, { guestId: guest.id });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ joined: true, alreadyJoined: false });
    expect((await participantsOf(owner, planId)).filter((p) => p.guestId === guest.id)).toEqual([
      { id: res.json.participantId, name: guest.name, userId: null, guestId: guest.id },
    ]);
  });

  it('refuses a guest of another plan with 403 and joins nobody', async () => {
    const foreign = await newGuest(otherPlanId, uniqueName('Foreign'));
    const before = await participantsOf(owner, planId);
    expectText(await join(planId, { name: foreign.name, guestId: foreign.id }), 403, 'This guest belongs to another plan');
    expect(await participantsOf(owner, planId)).toEqual(before);
  });

  it('answers 404 for an unknown guest or plan, 400 for a malformed guest id', async () => {
    const guest = await newGuest(planId);
    expectText(await join(planId, { guestId: crypto.randomUUID() }, undefined, 'a'.repeat(43)), 404, 'Guest not found');
    expectText(await join(crypto.randomUUID(), { guestId: guest.id }), 404, 'Plan not found');
    expectText(await join(planId, { guestId: 'nope' }), 400, 'Guest id must be a valid id');
  });

  it("needs the guest's secret: 401 without, 403 with a wrong one or another guest's; nobody joins", async () => {
    const guest = await newGuest(planId);
    const other = await newGuest(otherPlanId);
    await owner`delete from app.participants where guest_id = ${guest.id}`;
    expectText(await join(planId, { guestId: guest.id }, undefined, null), 401, GUEST_SECRET_MISSING);
    expectText(await join(planId, { guestId: guest.id }, undefined, 'a guess'), 403, GUEST_SECRET_WRONG);
    expectText(await join(planId, { guestId: guest.id }, undefined, other.secret), 403, GUEST_SECRET_WRONG);
    expect((await participantsOf(owner, planId)).filter((p) => p.guestId === guest.id)).toEqual([]);
    expect((await join(planId, { guestId: guest.id })).json).toMatchObject({ joined: true, alreadyJoined: false });
  });
});

describe('next to the plan routes on /api/plans', () => {
  it('both sub-apps answer on the same prefix: a joined member and guest show up in the plan and the list', async () => {
    const member = await newAccount(owner, 'Nora', 'Next');
    expect((await join(planId, {}, member.token)).status).toBe(200);
    const guest = await newGuest(planId);
    expect((await join(planId, { guestId: guest.id })).status).toBe(200);

    const plan = await api('GET', `/api/plans/${planId}`);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.json).toMatchObject({ id: planId, title: 'Join' });
    const participants = await api<{ name: string }[]>('GET', `/api/plans/${planId}/participants`);
    expect(participants.status, participants.text).toBe(200);
    expect(participants.json.map((p) => p.name)).toEqual(expect.arrayContaining(['Nora Next', guest.name, 'Hanna Host']));
    const mine = await api<{ id: string }[]>('GET', '/api/plans', { token: member.token });
    expect(mine.json.map((p) => p.id)).toContain(planId);
  });
});

describe('joining without an identity', () => {
  it('answers 401 with a sentence when there is neither a token nor a guestId', async () => {
    const sentence = 'Sign in or continue as a guest to join this plan';
    expectText(await join(planId, { name: 'Bob' }), 401, sentence);
    expectText(await join(planId, undefined), 401, sentence);
    // A userId in the body proves nothing without its token.
    expectText(await join(planId, { name: 'Bob', userId: host.id }), 401, sentence);
    expectText(await join(planId, { guestId: null }), 401, sentence);
  });

  it('validates the body', async () => {
    expectText(await join(planId, [1]), 400, 'Request body must be a JSON object');
    expectText(await join(planId, { userId: 5 }, host.token), 400, 'User id must be text');
  });
});

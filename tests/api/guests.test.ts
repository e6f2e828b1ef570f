// POST /api/guest-session, GET /api/guest-session/{guestId} and
// POST /api/plans/{id}/check-guest over HTTP.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, apiDatabaseAsOwner, expectText } from '../support/api.ts';
import { newAccount, newGuest, newPlan, participantsOf, uniqueName, type User } from '../support/api-world.ts';
import { guestClaims, memberClaims, newIdea, newSlot, sorted, toggleIdeaVote, toggleSlotVote } from '../support/votes.ts';

const owner = apiDatabaseAsOwner();
let host: User;
let planId: string;
let otherPlanId: string;

beforeAll(async () => {
  host = await newAccount(owner, 'Hanna', 'Host');
  planId = await newPlan(host, 'Guests');
  otherPlanId = await newPlan(host, 'Other guests');
});
afterAll(async () => {
  await owner`delete from app.plans where host_id = ${host.id}`;
  await owner.end();
});

const createGuest = (body: unknown, token?: string) => api('POST', '/api/guest-session', { body, token });
const getGuest = (guestId: string, guestSecret?: string | null) => api('GET', `/api/guest-session/${guestId}`, { guestSecret });
const restoreGuest = (body: unknown) => api('POST', '/api/guest-session/restore', { body });
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const checkGuest = (plan: string, body: unknown) => api('POST', `/api/plans/${plan}/check-guest`, { body });

describe('POST /api/guest-session', () => {
  it('creates the guest, trimmed, and joins it to the plan in the same request', async () => {
    const name = uniqueName('Zoe');
    const res = await createGuest({ name: `  ${name}\t`, planId });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({ id: expect.any(String), name, planId, secret: expect.stringMatching(SECRET) });
    const row = (await participantsOf(owner, planId)).find((p) => p.guestId === res.json.id);
    expect(row).toMatchObject({ name, userId: null });
  });

  it("gives this device a fresh 32-byte secret of its own; the database keeps only the secret's SHA-256", async () => {
    const a = await createGuest({ name: uniqueName('Sec'), planId });
    const b = await createGuest({ name: uniqueName('Sec'), planId });
    expect(a.json.secret).not.toBe(b.json.secret);
    expect(Buffer.from(a.json.secret, 'base64url')).toHaveLength(32);
    const rows = await owner`select secret_hash from app.guest_credentials where guest_id = ${a.json.id}`;
    expect(rows).toEqual([{ secret_hash: sha256Hex(a.json.secret) }]);
    const [{ n }] = await owner`select count(*)::int as n from app.guest_credentials where secret_hash = ${a.json.secret}`;
    expect(n).toBe(0);
  });

  it('validates the name and the plan id with one sentence each', async () => {
    expectText(await createGuest({ planId }), 400, 'Name is required');
    expectText(await createGuest({ name: '   ', planId }), 400, 'Name must not be empty');
    expectText(await createGuest({ name: 42, planId }), 400, 'Name must be text');
    expectText(await createGuest({ name: 'n'.repeat(81), planId }), 400, 'Name must be at most 80 characters');
    expectText(await createGuest({ name: 'Ann' }), 400, 'Plan id is required');
    expectText(await createGuest({ name: 'Ann', planId: 'nope' }), 400, 'Plan id must be a valid id');
    expectText(await createGuest([]), 400, 'Request body must be a JSON object');
    const longest = uniqueName('Long').padEnd(80, 'n');
    expect((await createGuest({ name: `  ${longest}  `, planId })).status).toBe(201);
  });

  it('answers 404 for an unknown plan and creates nothing', async () => {
    const name = uniqueName('Nobody');
    expectText(await createGuest({ name, planId: crypto.randomUUID() }), 404, 'Plan not found');
    expect(await owner`select 1 from app.guests where name = ${name}`).toHaveLength(0);
  });

  it('refuses a second guest of the same name (trimmed, any case) with 409; other plans are separate', async () => {
    const name = uniqueName('Alice');
    expect((await createGuest({ name, planId })).status).toBe(201);
    for (const variant of [name, name.toUpperCase(), `  ${name.toLowerCase()} `]) {
      expectText(await createGuest({ name: variant, planId }), 409, `Someone named ${variant.trim()} already joined this plan`);
    }
    expect((await createGuest({ name, planId: otherPlanId })).status).toBe(201);
    const [{ n }] = await owner`select count(*)::int as n from app.guests where plan_id = ${planId} and lower(name) = lower(${name})`;
    expect(n).toBe(1);
  });

  it('compares non-ASCII names case-insensitively too', async () => {
    const name = uniqueName('Élise Øster');
    expect((await createGuest({ name, planId })).status).toBe(201);
    expectText(await createGuest({ name: name.toLowerCase(), planId }), 409, `Someone named ${name.toLowerCase()} already joined this plan`);
    expect((await checkGuest(planId, { name: name.toUpperCase() })).json).toMatchObject({ exists: true, name });
  });

  it('two concurrent creates of the same name: one 201, one 409, one guest and one participant', async () => {
    for (let round = 0; round < 5; round++) {
      const name = uniqueName('Racer');
      const results = await Promise.all([
        createGuest({ name, planId }),
        createGuest({ name: ` ${name.toUpperCase()} `, planId }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.text).toMatch(/^Someone named .+ already joined this plan$/);
      const guests = await owner`select id from app.guests where plan_id = ${planId} and lower(name) = lower(${name})`;
      expect(guests).toHaveLength(1);
      expect(await owner`select 1 from app.participants where guest_id = ${guests[0].id}`).toHaveLength(1);
    }
  });

  it('acts as a guest even when a token is sent (only guests are created here)', async () => {
    const member = await newAccount(owner);
    const name = uniqueName('Token');
    const res = await createGuest({ name, planId }, member.token);
    expect(res.status, res.text).toBe(201);
    expect(await owner`select 1 from app.participants where plan_id = ${planId} and user_id = ${member.id}`).toHaveLength(0);
  });
});

describe('GET /api/guest-session/{guestId}', () => {
  it("reads the guest session back by its id with this device's secret", async () => {
    const guest = await newGuest(planId);
    const [{ slug: planSlug }] = await owner<{ slug: string }[]>`select slug from app.plans where id = ${planId}`;
    const res = await getGuest(guest.id);
    expect(res.status).toBe(200);
    // planSlug: the plan's link as it is now, which the guest's pages follow (docs/decisions/0087).
    expect(res.json).toEqual({ id: guest.id, name: guest.name, planId, continuedAt: null, planSlug });
    expect((await getGuest(guest.id.toUpperCase())).json).toEqual({ id: guest.id, name: guest.name, planId, continuedAt: null, planSlug });
  });

  it('tells each device when another one later continued as the guest by name (continuedAt), and announces the restore live', async () => {
    const guest = await newGuest(planId, uniqueName('Watched'));
    const version = async () => (await owner`select version from app.plan_versions where plan_id = ${planId}`)[0].version as string;
    const before = await version();
    const { json: first } = await restoreGuest({ planId, name: guest.name });
    // The restore bumps the plan's version (part participants), so the guest's open devices ask again.
    expect(BigInt(await version())).toBe(BigInt(before) + 1n);
    const [{ created_at: firstAt }] = await owner`
      select created_at from app.guest_credentials where guest_id = ${guest.id} and secret_hash = ${sha256Hex(first.secret)}`;
    const continuedAt = (secret: string) => getGuest(guest.id, secret).then((res) => (res.json as { continuedAt: unknown }).continuedAt);
    expect(await continuedAt(guest.secret)).toBe((firstAt as Date).toISOString());
    // The restoring device itself was continued by nobody after it.
    expect(await continuedAt(first.secret)).toBeNull();

    const { json: second } = await restoreGuest({ planId, name: guest.name });
    const [{ created_at: secondAt }] = await owner`
      select created_at from app.guest_credentials where guest_id = ${guest.id} and secret_hash = ${sha256Hex(second.secret)}`;
    expect(await continuedAt(guest.secret)).toBe((secondAt as Date).toISOString());
    expect(await continuedAt(first.secret)).toBe((secondAt as Date).toISOString());
    expect(await continuedAt(second.secret)).toBeNull();
  });

  it("without the secret 401, with a wrong one or another guest's 403: the id alone tells nothing (not even the plan)", async () => {
    const guest = await newGuest(planId);
    const other = await newGuest(otherPlanId);
    expectText(await getGuest(guest.id, null), 401, GUEST_SECRET_MISSING);
    expectText(await getGuest(guest.id, 'a guess'), 403, GUEST_SECRET_WRONG);
    expectText(await getGuest(guest.id, other.secret), 403, GUEST_SECRET_WRONG);
  });

  it('answers 404 Guest not found for unknown and malformed ids', async () => {
    expectText(await getGuest(crypto.randomUUID(), 'a'.repeat(43)), 404, 'Guest not found');
    expectText(await getGuest('not-a-uuid'), 404, 'Guest not found');
    expectText(await getGuest(`${crypto.randomUUID()}x`), 404, 'Guest not found');
  });
});

describe('POST /api/guest-session/restore ("Is this you?" -> "Yes, that\'s me")', () => {
  it('by plan and name (trimmed, any case): a new secret for this device that works; the first device keeps its own', async () => {
    const guest = await newGuest(planId, uniqueName('Restored'));
    const res = await restoreGuest({ planId, name: `  ${guest.name.toUpperCase()} ` });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ id: guest.id, name: guest.name, planId, secret: expect.stringMatching(SECRET) });
    expect(res.json.secret).not.toBe(guest.secret);
    // The new device acts as the guest...
    expect((await getGuest(guest.id, res.json.secret)).status).toBe(200);
    const idea = await newIdea(owner, planId, host.id, uniqueName('Idea'));
    const vote = await api('POST', `/api/ideas/${idea}/vote`, { body: { guestId: guest.id }, guestSecret: res.json.secret });
    expect(vote.json).toEqual({ voted: true, voteCount: 1 });
    // ... and so does the first one.
    expect((await getGuest(guest.id, guest.secret)).status).toBe(200);
  });

  it('answers 404 for a name the plan does not have, or an unknown plan, and issues nothing', async () => {
    // This file's plans only: other files add guests to the same database meanwhile.
    const credentials = async () =>
      (
        await owner`select count(*)::int as n from app.guest_credentials c
                     join app.guests g on g.id = c.guest_id where g.plan_id in (${planId}, ${otherPlanId})`
      )[0].n;
    const before = await credentials();
    expectText(await restoreGuest({ planId, name: 'Nobody By That Name' }), 404, 'Guest not found');
    expectText(await restoreGuest({ planId: crypto.randomUUID(), name: 'Bob' }), 404, 'Plan not found');
    const elsewhere = await newGuest(otherPlanId, uniqueName('Elsewhere'));
    expectText(await restoreGuest({ planId, name: elsewhere.name }), 404, 'Guest not found');
    // The one guest created elsewhere has its credential; the refusals issued none.
    expect(await credentials()).toBe(before + 1);
  });

  it('a device restored by name votes, but may not leave (403, nothing changes)', async () => {
    const guest = await newGuest(planId, uniqueName('Sara'));
    const { json: restored } = await restoreGuest({ planId, name: guest.name });
    const onlyJoined = `This can only be done from the device that joined as ${guest.name}`;
    expectText(
      await api('DELETE', `/api/plans/${planId}/leave`, { body: { guestId: guest.id }, guestSecret: restored.secret }),
      403,
      onlyJoined,
    );
    expect(await participantsOf(owner, planId)).toContainEqual(expect.objectContaining({ guestId: guest.id }));
    // The device that joined may leave.
    const left = await api('DELETE', `/api/plans/${planId}/leave`, { body: { guestId: guest.id }, guestSecret: guest.secret });
    expect(left.status, left.text).toBe(200);
  });

  it('restoring a name again and again never shuts out the device that joined', async () => {
    const guest = await newGuest(planId, uniqueName('Kept'));
    for (let i = 0; i < 12; i++) expect((await restoreGuest({ planId, name: guest.name })).status).toBe(200);
    expect((await getGuest(guest.id, guest.secret)).status).toBe(200);
    const idea = await newIdea(owner, planId, host.id, uniqueName('Idea'));
    const vote = await api('POST', `/api/ideas/${idea}/vote`, { body: { guestId: guest.id }, guestSecret: guest.secret });
    expect(vote.json).toEqual({ voted: true, voteCount: 1 });
  });

  it('"That wasn\'t me": the joined device signs the others out and stops restores while it is used', async () => {
    const guest = await newGuest(planId, uniqueName('Wary'));
    const { json: stranger } = await restoreGuest({ planId, name: guest.name });
    const { json: stranger2 } = await restoreGuest({ planId, name: guest.name });
    const endOthers = (secret: string | null) => api('DELETE', `/api/guest-session/${guest.id}/other-devices`, { guestSecret: secret });

    // Only from the device that joined; the secret's checks as everywhere.
    expectText(await endOthers(stranger.secret), 403, `This can only be done from the device that joined as ${guest.name}`);
    expectText(await endOthers(null), 401, GUEST_SECRET_MISSING);
    expectText(await endOthers('a'.repeat(43)), 403, GUEST_SECRET_WRONG);
    expectText(await api('DELETE', `/api/guest-session/${crypto.randomUUID()}/other-devices`, { guestSecret: 'a'.repeat(43) }), 404, 'Guest not found');
    expect((await getGuest(guest.id, stranger2.secret)).status).toBe(200);

    const ended = await endOthers(guest.secret);
    expect(ended.status, ended.text).toBe(204);
    expectText(await getGuest(guest.id, stranger.secret), 403, GUEST_SECRET_WRONG);
    expectText(await getGuest(guest.id, stranger2.secret), 403, GUEST_SECRET_WRONG);
    expect((await getGuest(guest.id, guest.secret)).status).toBe(200);
    // Nobody continues by name meanwhile; nothing is issued.
    const before = (await owner`select count(*)::int as n from app.guest_credentials where guest_id = ${guest.id}`)[0].n;
    expectText(await restoreGuest({ planId, name: guest.name }), 403, `${guest.name} turned off continuing on other devices`);
    expect((await owner`select count(*)::int as n from app.guest_credentials where guest_id = ${guest.id}`)[0].n).toBe(before);
    // The votes stay: the guest still votes from its own device.
    const idea = await newIdea(owner, planId, host.id, uniqueName('Idea'));
    expect((await api('POST', `/api/ideas/${idea}/vote`, { body: { guestId: guest.id }, guestSecret: guest.secret })).json).toEqual({ voted: true, voteCount: 1 });

    // A stop whose device went unused for 30 days lapses (a lost phone never locks its owner out).
    await owner`update app.guest_credentials set last_used_at = now() - interval '31 days' where guest_id = ${guest.id}`;
    expect((await restoreGuest({ planId, name: guest.name })).status).toBe(200);
  });

  it('a dormant guest cannot be taken over: a device that continued by name never shuts out the one that joined (docs/decisions/0085)', async () => {
    const guest = await newGuest(planId, uniqueName('Dormant'));
    const mine = await api<{ id: string }>('POST', `/api/plans/${planId}/ideas`, { body: { text: 'My idea', guestId: guest.id } });
    expect(mine.status, mine.text).toBe(201);
    // Half a year without the joined device (its credential lives 180 days
    // unused, decision 0082); then someone continues by name.
    await owner`update app.guest_credentials set last_used_at = now() - interval '179 days' where guest_id = ${guest.id}`;
    const { json: taker } = await restoreGuest({ planId, name: guest.name });
    const onlyJoined = `This can only be done from the device that joined as ${guest.name}`;
    const asTaker = { guestSecret: taker.secret };

    // It votes, as every restored device does...
    const idea = await newIdea(owner, planId, host.id, uniqueName('Idea'));
    expect((await api('POST', `/api/ideas/${idea}/vote`, { body: { guestId: guest.id }, ...asTaker })).json).toEqual({ voted: true, voteCount: 1 });
    // ...but it neither signs the joined device out nor turns restores off,
    expectText(await api('DELETE', `/api/guest-session/${guest.id}/other-devices`, asTaker), 403, onlyJoined);
    // nor removes the guest, nor what it wrote, nor takes it into an account.
    expectText(await api('DELETE', `/api/plans/${planId}/leave`, { body: { guestId: guest.id }, ...asTaker }), 403, onlyJoined);
    expectText(await api('DELETE', `/api/ideas/${mine.json.id}`, { body: { guestId: guest.id }, ...asTaker }), 403, onlyJoined);
    const account = await newAccount(owner, 'Taker', null);
    expectText(
      await api('POST', '/api/auth/transfer-guest-votes', { body: { guestId: guest.id }, token: account.token, ...asTaker }),
      403,
      onlyJoined,
    );

    // The joined device comes back: let in, its writing intact, and it still decides.
    expect((await getGuest(guest.id, guest.secret)).status).toBe(200);
    expect((await api('POST', `/api/ideas/${idea}/vote`, { body: { guestId: guest.id }, guestSecret: guest.secret })).json).toEqual({ voted: false, voteCount: 0 });
    expect((await api('DELETE', `/api/guest-session/${guest.id}/other-devices`, { guestSecret: guest.secret })).status).toBe(204);
    expectText(await getGuest(guest.id, taker.secret), 403, GUEST_SECRET_WRONG);
    expect(await owner`select 1 from app.ideas where id = ${mine.json.id}`).toHaveLength(1);
  });

  it('goes by name only: a guest id, which public JSON shows, is not accepted instead', async () => {
    const guest = await newGuest(planId);
    expectText(await restoreGuest({ planId, guestId: guest.id }), 400, 'Name is required');
    expectText(await restoreGuest({ name: guest.name }), 400, 'Plan id is required');
    expectText(await restoreGuest({ name: guest.name, planId: 'nope' }), 400, 'Plan id must be a valid id');
  });
});

describe('POST /api/plans/{id}/check-guest', () => {
  it('finds nobody: exists false, the name as typed (trimmed), empty lists', async () => {
    const res = await checkGuest(planId, { name: '  Nobody Here  ' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ exists: false, guestId: null, name: 'Nobody Here', ideaVotes: [], timeSlotVotes: [] });
  });

  it('finds a guest by trimmed, case-insensitive name, with exactly its own votes', async () => {
    const guest = await newGuest(planId, uniqueName('Bob'));
    const rival = await newGuest(planId, uniqueName('Rita'));
    const member = await newAccount(owner);
    const [idea1, idea2, idea3] = [await newIdea(owner, planId, host.id, 'Bowling'), await newIdea(owner, planId, host.id, 'Picnic'), await newIdea(owner, planId, host.id, 'Cinema')];
    const [slot1, slot2] = [await newSlot(owner, planId, 2, 'Evening'), await newSlot(owner, planId, 3)];
    for (const idea of [idea1, idea2]) expect(await toggleIdeaVote(owner, guestClaims(guest.id, planId), idea)).toBe(true);
    expect(await toggleSlotVote(owner, guestClaims(guest.id, planId), slot2)).toBe(true);
    // Toggled on and off again: not a vote.
    await toggleIdeaVote(owner, guestClaims(guest.id, planId), idea3);
    await toggleIdeaVote(owner, guestClaims(guest.id, planId), idea3);
    // Other people's votes are not the guest's.
    await toggleIdeaVote(owner, guestClaims(rival.id, planId), idea3);
    await toggleSlotVote(owner, guestClaims(rival.id, planId), slot1);
    await toggleSlotVote(owner, memberClaims(member.id, planId), slot1);

    for (const typed of [guest.name, guest.name.toLowerCase(), `  ${guest.name.toUpperCase()}  `]) {
      const res = await checkGuest(planId, { name: typed });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ exists: true, guestId: guest.id, name: guest.name });
      expect(sorted(res.json.ideaVotes)).toEqual(sorted([idea1, idea2]));
      expect(res.json.timeSlotVotes).toEqual([slot2]);
    }
    const rivalRes = await checkGuest(planId, { name: rival.name });
    expect(rivalRes.json).toEqual({ exists: true, guestId: rival.id, name: rival.name, ideaVotes: [idea3], timeSlotVotes: [slot1] });
  });

  it('only looks in the plan the URL names', async () => {
    const guest = await newGuest(otherPlanId, uniqueName('Elsewhere'));
    const res = await checkGuest(planId, { name: guest.name });
    expect(res.json).toMatchObject({ exists: false, guestId: null });
  });

  it('answers 404 for unknown or malformed plan ids and 400 for a bad name', async () => {
    expectText(await checkGuest(crypto.randomUUID(), { name: 'Bob' }), 404, 'Plan not found');
    expectText(await checkGuest('nope', { name: 'Bob' }), 404, 'Plan not found');
    expectText(await checkGuest(planId, {}), 400, 'Name is required');
    expectText(await checkGuest(planId, { name: ' ' }), 400, 'Name must not be empty');
    expectText(await checkGuest(planId, { name: 'n'.repeat(81) }), 400, 'Name must be at most 80 characters');
  });
});

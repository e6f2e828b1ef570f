// POST /api/auth/transfer-guest-votes over HTTP: counts, no double votes, the
// guest's participants row replaced by the member's, and the error answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, apiDatabaseAsOwner, expectText } from '../support/api.ts';
import { day } from '../support/dates.ts';
import { newAccount, newGuest, newPlan, participantsOf, type User } from '../support/api-world.ts';
import { guestClaims, memberClaims, newIdea, newSlot, sorted, toggleIdeaVote, toggleSlotVote } from '../support/votes.ts';

const owner = apiDatabaseAsOwner();
let host: User;

beforeAll(async () => {
  host = await newAccount(owner, 'Hanna', 'Host');
});
afterAll(async () => {
  await owner`delete from app.plans where host_id = ${host.id}`;
  await owner.end();
});

const transfer = (body: unknown, token?: string, guestSecret?: string | null) =>
  api('POST', '/api/auth/transfer-guest-votes', { body, token, guestSecret });

const ideaVotesOf = async (planId: string, who: { userId?: string; guestId?: string }) =>
  (
    await owner`select idea_id from app.idea_votes
                 where plan_id = ${planId} and (user_id = ${who.userId ?? null} or guest_id = ${who.guestId ?? null})`
  ).map((r) => r.idea_id as string);
const slotVotesOf = async (planId: string, who: { userId?: string; guestId?: string }) =>
  (
    await owner`select time_slot_id from app.time_slot_votes
                 where plan_id = ${planId} and (user_id = ${who.userId ?? null} or guest_id = ${who.guestId ?? null})`
  ).map((r) => r.time_slot_id as string);

/** A plan with three ideas and two slots, and a guest who voted on ideas 1, 2 and slots 1, 2. */
async function planWithGuestVotes() {
  const planId = await newPlan(host, 'Transfer');
  const ideas = [await newIdea(owner, planId, host.id, 'Bowling'), await newIdea(owner, planId, host.id, 'Picnic'), await newIdea(owner, planId, host.id, 'Cinema')];
  const slots = [await newSlot(owner, planId, 1, 'Evening'), await newSlot(owner, planId, 2)];
  const guest = await newGuest(planId);
  for (const idea of ideas.slice(0, 2)) await toggleIdeaVote(owner, guestClaims(guest.id, planId), idea);
  for (const slot of slots) await toggleSlotVote(owner, guestClaims(guest.id, planId), slot);
  return { planId, ideas, slots, guest };
}

describe('POST /api/auth/transfer-guest-votes', () => {
  it('moves the votes to a member who was not in the plan, replacing the guest in the participants', async () => {
    const { planId, ideas, slots, guest } = await planWithGuestVotes();
    const member = await newAccount(owner, 'Gina', 'Guest');
    const [{ joined_at: guestJoinedAt }] = await owner`select joined_at from app.participants where guest_id = ${guest.id}`;

    const res = await transfer({ guestId: guest.id }, member.token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ transferredIdeaVotes: 2, transferredTimeVotes: 2 });

    expect(sorted(await ideaVotesOf(planId, { userId: member.id }))).toEqual(sorted(ideas.slice(0, 2)));
    expect(sorted(await slotVotesOf(planId, { userId: member.id }))).toEqual(sorted(slots));
    expect(await ideaVotesOf(planId, { guestId: guest.id })).toEqual([]);
    const participants = await participantsOf(owner, planId);
    expect(participants.map((p) => p.name)).toEqual(['Gina Guest', 'Hanna Host']);
    expect(participants.some((p) => p.guestId)).toBe(false);
    const [{ joined_at }] = await owner`select joined_at from app.participants where plan_id = ${planId} and user_id = ${member.id}`;
    expect(joined_at).toEqual(guestJoinedAt);
  });

  it("drops votes the member already has: no double votes, only what moved is counted", async () => {
    const { planId, ideas, slots, guest } = await planWithGuestVotes();
    const member = await newAccount(owner, 'Max', null);
    expect((await api('POST', `/api/plans/${planId}/join`, { body: {}, token: member.token })).status).toBe(200);
    // On another device the member had already voted idea 1 and slot 1 (and idea 3).
    await toggleIdeaVote(owner, memberClaims(member.id, planId), ideas[0]);
    await toggleIdeaVote(owner, memberClaims(member.id, planId), ideas[2]);
    await toggleSlotVote(owner, memberClaims(member.id, planId), slots[0]);

    const res = await transfer({ guestId: guest.id }, member.token);
    expect(res.json).toEqual({ transferredIdeaVotes: 1, transferredTimeVotes: 1 });

    expect(sorted(await ideaVotesOf(planId, { userId: member.id }))).toEqual(sorted(ideas));
    expect(sorted(await slotVotesOf(planId, { userId: member.id }))).toEqual(sorted(slots));
    // One vote per idea and slot in total: the guest's are gone, none doubled.
    const [{ n: ideaVotes }] = await owner`select count(*)::int as n from app.idea_votes where plan_id = ${planId}`;
    const [{ n: slotVotes }] = await owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${planId}`;
    expect([ideaVotes, slotVotes]).toEqual([3, 2]);
    const participants = await participantsOf(owner, planId);
    expect(participants.map((p) => p.name)).toEqual(['Hanna Host', 'Max']);
  });

  it("keeps each date vote's answer (the member's own answer stays on a slot both voted) and moves 'none of these dates work'", async () => {
    const planId = await newPlan(host, 'Answers');
    const guest = await newGuest(planId);
    const slot = async (days: number, answer: string, who: { token?: string; guestId?: string }) =>
      (await api('POST', `/api/plans/${planId}/vote-date`, { body: { date: await day(owner, days), answer, guestId: who.guestId }, token: who.token }))
        .json.timeSlotId as string;
    const both = await slot(1, 'ifneedbe', { guestId: guest.id });
    const own = await slot(2, 'ifneedbe', { guestId: guest.id });
    const member = await newAccount(owner, 'Ines', null);
    await slot(1, 'yes', { token: member.token });
    const res = await transfer({ guestId: guest.id }, member.token);
    expect(res.json).toEqual({ transferredIdeaVotes: 0, transferredTimeVotes: 1 });
    const answers = await api('GET', `/api/plans/${planId}/my-votes?answers=true`, { token: member.token });
    expect(answers.json.answers).toEqual(expect.arrayContaining([{ timeSlotId: both, answer: 'yes' }, { timeSlotId: own, answer: 'ifneedbe' }]));
    expect(answers.json).toMatchObject({ noDates: false });
    expect(answers.json.answers).toHaveLength(2);

    // "Yes, that's me" on a new phone: the restored device answers as the guest; its "none work" moves with the guest.
    const quiet = await newGuest(planId);
    const restored = await api('POST', '/api/guest-session/restore', { body: { planId, name: quiet.name } });
    const secret = (restored.json as { secret: string }).secret;
    const none = await api('POST', `/api/plans/${planId}/no-dates`, { body: { guestId: quiet.id }, guestSecret: secret });
    expect(none.json).toEqual({ noDates: true });
    const taker = await newAccount(owner, 'Tao', null);
    expect((await transfer({ guestId: quiet.id }, taker.token, quiet.secret)).status).toBe(200);
    expect((await api('GET', `/api/plans/${planId}/my-votes?answers=true`, { token: taker.token })).json).toEqual({ answers: [], noDates: true });
    const people = (await api('GET', `/api/plans/${planId}/participants`)).json as { name: string; noDates: boolean; hasResponded: boolean }[];
    expect(people.find((p) => p.name === 'Tao')).toMatchObject({ noDates: true, hasResponded: true });
  });

  it('the guest is gone afterwards: a second transfer, the session and the name check all say so', async () => {
    const { planId, guest } = await planWithGuestVotes();
    const member = await newAccount(owner);
    expect((await transfer({ guestId: guest.id }, member.token)).status).toBe(200);
    expectText(await transfer({ guestId: guest.id }, member.token), 404, 'Guest not found');
    expectText(await api('GET', `/api/guest-session/${guest.id}`), 404, 'Guest not found');
    expect((await api('POST', `/api/plans/${planId}/check-guest`, { body: { name: guest.name } })).json).toMatchObject({
      exists: false,
    });
  });

  it('two transfers of the same guest at once: one moves the votes, the other is 404', async () => {
    for (let round = 0; round < 3; round++) {
      const { planId, guest } = await planWithGuestVotes();
      const member = await newAccount(owner);
      const results = await Promise.all([transfer({ guestId: guest.id }, member.token), transfer({ guestId: guest.id }, member.token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
      expect(results.find((r) => r.status === 200)?.json).toEqual({ transferredIdeaVotes: 2, transferredTimeVotes: 2 });
      expect(await ideaVotesOf(planId, { userId: member.id })).toHaveLength(2);
      expect((await participantsOf(owner, planId)).filter((p) => p.userId === member.id)).toHaveLength(1);
    }
  });

  it('a guest without votes transfers nothing but still hands its place to the member', async () => {
    const planId = await newPlan(host, 'Quiet guest');
    const guest = await newGuest(planId);
    const member = await newAccount(owner, 'Quinn', null);
    const res = await transfer({ guestId: guest.id }, member.token);
    expect(res.json).toEqual({ transferredIdeaVotes: 0, transferredTimeVotes: 0 });
    expect((await participantsOf(owner, planId)).map((p) => p.name)).toEqual(['Hanna Host', 'Quinn']);
  });

  it('needs a valid token (401) and a guest id (400); unknown guests are 404', async () => {
    const planId = await newPlan(host, 'Refusals');
    const guest = await newGuest(planId);
    expectText(await transfer({ guestId: guest.id }), 401, 'Not signed in');
    expectText(await transfer({ guestId: guest.id }, 'garbage'), 401, 'Your session has expired, please sign in again');
    const gone = await newAccount(owner);
    await owner`delete from app.users where id = ${gone.id}`;
    expectText(await transfer({ guestId: guest.id }, gone.token), 401, 'Your session has expired, please sign in again');
    const member = await newAccount(owner);
    expectText(await transfer({}, member.token), 400, 'Guest id is required');
    expectText(await transfer({ guestId: 'nope' }, member.token), 400, 'Guest id must be a valid id');
    expectText(await transfer({ guestId: crypto.randomUUID() }, member.token, 'a'.repeat(43)), 404, 'Guest not found');
    // Nothing happened to the guest.
    expect((await api('GET', `/api/guest-session/${guest.id}`)).status).toBe(200);
  });

  it("takes over a guest only with its device's secret: 401 without, 403 with a wrong one or another guest's", async () => {
    const { planId, guest } = await planWithGuestVotes();
    const other = await newGuest(planId);
    const attacker = await newAccount(owner, 'Mallory', null);
    expectText(await transfer({ guestId: guest.id }, attacker.token, null), 401, GUEST_SECRET_MISSING);
    expectText(await transfer({ guestId: guest.id }, attacker.token, 'a guess'), 403, GUEST_SECRET_WRONG);
    expectText(await transfer({ guestId: guest.id }, attacker.token, other.secret), 403, GUEST_SECRET_WRONG);
    // Nothing moved, the account was not renamed after the guest, the guest is still there.
    expect(await ideaVotesOf(planId, { userId: attacker.id })).toEqual([]);
    expect(await ideaVotesOf(planId, { guestId: guest.id })).toHaveLength(2);
    expect((await owner`select first_name from app.users where id = ${attacker.id}`)[0].first_name).toBe('Mallory');
    expect((await participantsOf(owner, planId)).filter((p) => p.userId === attacker.id)).toEqual([]);
    expect((await transfer({ guestId: guest.id }, attacker.token)).status).toBe(200);
  });

  it('a device that continued by name cannot take the guest into an account (403, nothing moves), the joined one can', async () => {
    const { planId, guest } = await planWithGuestVotes();
    const restored = await api('POST', '/api/guest-session/restore', { body: { planId, name: guest.name } });
    expect(restored.status, restored.text).toBe(200);
    const stranger = await newAccount(owner, null, null);
    expectText(
      await transfer({ guestId: guest.id }, stranger.token, (restored.json as { secret: string }).secret),
      403,
      `This can only be done from the device that joined as ${guest.name}`,
    );
    // Nothing moved, the nameless account did not take the guest's name, the guest is still there.
    expect(await ideaVotesOf(planId, { userId: stranger.id })).toEqual([]);
    expect(await ideaVotesOf(planId, { guestId: guest.id })).toHaveLength(2);
    expect((await owner`select first_name from app.users where id = ${stranger.id}`)[0].first_name).toBeNull();
    expect((await participantsOf(owner, planId)).map((p) => p.guestId)).toContain(guest.id);

    const res = await transfer({ guestId: guest.id }, stranger.token, guest.secret);
    expect(res.json).toEqual({ transferredIdeaVotes: 2, transferredTimeVotes: 2 });
  });

  it("a restored device moves nothing, however long the guest's joined device went unused (docs/decisions/0085)", async () => {
    const { guest, planId } = await planWithGuestVotes();
    const restored = await api('POST', '/api/guest-session/restore', { body: { planId, name: guest.name } });
    await owner`update app.guest_credentials set last_used_at = now() - interval '179 days' where guest_id = ${guest.id} and kind = 'joined'`;
    const taker = await newAccount(owner, 'Taker', null);
    expectText(
      await transfer({ guestId: guest.id }, taker.token, (restored.json as { secret: string }).secret),
      403,
      `This can only be done from the device that joined as ${guest.name}`,
    );
    expect(await ideaVotesOf(planId, { userId: taker.id })).toEqual([]);
    expect(await ideaVotesOf(planId, { guestId: guest.id })).toHaveLength(2);
    // The guest's own device, back within the 180 days its credential lives unused (decision 0082), still moves them.
    const back = await newAccount(owner, 'Back', 'Again');
    expect((await transfer({ guestId: guest.id }, back.token, guest.secret)).json).toEqual({ transferredIdeaVotes: 2, transferredTimeVotes: 2 });
  });
});

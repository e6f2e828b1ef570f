// Moderation over HTTP (docs/decisions/0065-moderation.md, 0083): the host
// removes a participant, the author or the host deletes an idea or a comment,
// with what goes along, what a removed guest's phone can still do (nothing),
// that the removal holds (no rejoining, no same name, no fresh start from the
// same phone) until the host allows them back, the host's pick undone, and
// every open stream told at once. Who may call each route is in
// authorization-matrix.test.ts; junk ids and bad tokens in hostile-input.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectText, guestSecretOf, ISO_TIME } from '../support/api.ts';
import { addMember, cleanUp, type Guest, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';
import { openSse, type SseStream } from '../support/sse.ts';
import { type Removal, removalListSchema } from '../../supabase/functions/_shared/contract/plans.ts';

afterAll(cleanUp);

interface Participant {
  id: string;
  name: string;
  userId?: string | null;
  guestId?: string | null;
}

async function participants(planId: string): Promise<Participant[]> {
  const res = await api<Participant[]>('GET', `/api/plans/${planId}/participants`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

const participantOf = async (planId: string, who: { userId?: string; guestId?: string }) =>
  (await participants(planId)).find((p) => (who.userId ? p.userId === who.userId : p.guestId === who.guestId))!.id;

async function postIdea(planId: string, text: string, as: { token?: string; guestId?: string }) {
  const res = await api<{ id: string }>('POST', `/api/plans/${planId}/ideas`, { body: { text, guestId: as.guestId }, token: as.token });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

async function postComment(ideaId: string, text: string, as: { token?: string; guestId?: string }) {
  const res = await api<{ id: string; userId: string | null; guestId: string | null }>('POST', `/api/ideas/${ideaId}/comments`, {
    body: { text, guestId: as.guestId },
    token: as.token,
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe('the host removes someone', () => {
  let host: User;
  let member: User;
  let planId: string;
  let guest: Guest;

  beforeAll(async () => {
    host = await newUser('Hana');
    member = await newUser('Mo');
    planId = await newPlan(host);
    await addMember(planId, member);
    guest = await newGuest(planId, 'Spammy Sam');
  });

  it('a guest: gone from the list with their ideas and votes, and their phone can do nothing more', async () => {
    const spam = await postIdea(planId, 'Buy my stuff', { guestId: guest.id });
    const hostIdea = await postIdea(planId, 'Bowling', { token: host.token });
    expect((await api('POST', `/api/ideas/${hostIdea}/vote`, { body: { guestId: guest.id } })).status).toBe(200);

    const res = await api('DELETE', `/api/plans/${planId}/participants/${await participantOf(planId, { guestId: guest.id })}`, { token: host.token });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');

    expect((await participants(planId)).map((p) => p.name).sort()).toEqual(['Hana', 'Mo']);
    const ideas = await api<Array<{ id: string; voteCount: number }>>('GET', `/api/plans/${planId}/ideas`);
    expect(ideas.json.map((i) => i.id)).toEqual([hostIdea]);
    expect(ideas.json[0].voteCount).toBe(0);
    expect((await api('GET', `/api/ideas/${spam}/comments`)).status).toBe(404);

    // The secret on the removed guest's phone opens nothing any more, and says why.
    const removed = 'The host removed you from this plan';
    expectText(await api('POST', `/api/ideas/${hostIdea}/vote`, { body: { guestId: guest.id } }), 403, removed);
    expectText(await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Back!', guestId: guest.id } }), 403, removed);
    expectText(await api('GET', `/api/guest-session/${guest.id}`), 403, removed);
    // A secret that was never the guest's learns what it learned before.
    expectText(await api('GET', `/api/guest-session/${guest.id}`, { guestSecret: randomBytes(32).toString('base64url') }), 404, 'Guest not found');
  });

  it("a guest's removal holds: not the same name, not a new name from the same phone, until the host allows them back", async () => {
    const sam = await newGuest(planId, 'Sam Spam');
    const samsSecret = guestSecretOf(sam.id)!;
    expect((await api('DELETE', `/api/plans/${planId}/participants/${await participantOf(planId, { guestId: sam.id })}`, { token: host.token })).status).toBe(204);
    const join = (name: string, guestSecret?: string) =>
      api('POST', '/api/guest-session', { body: { name, planId }, ...(guestSecret ? { guestSecret } : {}) });
    for (const name of ['Sam Spam', ' sam spam ']) expectText(await join(name), 403, `The host removed ${name.trim()} from this plan`);
    expectText(await api('POST', '/api/guest-session/restore', { body: { name: 'Sam Spam', planId } }), 404, 'Guest not found');
    expectText(await join('Totally New', samsSecret), 403, 'The host removed you from this plan');
    expect((await participants(planId)).map((p) => p.name)).not.toContain('Totally New');

    // The host sees who was removed, and allows Sam back.
    const list = await api<Removal[]>('GET', `/api/plans/${planId}/removals`, { token: host.token });
    expect(list.status, list.text).toBe(200);
    expect(removalListSchema.parse(list.json)).toEqual(list.json);
    const removal = list.json.find((r) => r.name === 'Sam Spam')!;
    expect(removal).toMatchObject({ isGuest: true, removedAt: expect.stringMatching(ISO_TIME) });
    expect(list.json.map((r) => r.name)).toContain('Spammy Sam');
    expect((await api('DELETE', `/api/plans/${planId}/removals/${removal.id}`, { token: host.token })).status).toBe(204);
    expect((await api<Removal[]>('GET', `/api/plans/${planId}/removals`, { token: host.token })).json.map((r) => r.name)).not.toContain('Sam Spam');
    // The old phone's secret is still no one's (that guest is gone); the name is free again.
    expectText(await api('GET', `/api/guest-session/${sam.id}`, { guestSecret: samsSecret }), 404, 'Guest not found');
    expect((await join('Sam Spam', samsSecret)).status).toBe(201);
  });

  it("a member's removal holds: joining and the next write are 403 until the host allows them back", async () => {
    const idea = await postIdea(planId, 'Karaoke', { token: member.token });
    const remove = async () =>
      api('DELETE', `/api/plans/${planId}/participants/${await participantOf(planId, { userId: member.id })}`, { token: host.token });

    expect((await remove()).status).toBe(204);
    expect((await participants(planId)).map((p) => p.name)).not.toContain('Mo');
    expect((await api('GET', `/api/ideas/${idea}/voters`)).status).toBe(404);
    // Not in their plans any more; the link still shows the plan...
    const mine = await api<Array<{ id: string }>>('GET', '/api/plans', { token: member.token });
    expect(mine.json.map((p) => p.id)).not.toContain(planId);
    expect((await api('GET', `/api/plans/${planId}`, { token: member.token })).status).toBe(200);
    // ...but they cannot come back in, by joining or by writing.
    const removed = 'The host removed you from this plan';
    const hostIdea = await postIdea(planId, 'Bowling night', { token: host.token });
    expectText(await api('POST', `/api/plans/${planId}/join`, { body: {}, token: member.token }), 403, removed);
    expectText(await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Back!' }, token: member.token }), 403, removed);
    expectText(await api('POST', `/api/ideas/${hostIdea}/comments`, { body: { text: 'Hi' }, token: member.token }), 403, removed);
    expectText(await api('POST', `/api/ideas/${hostIdea}/vote`, { body: {}, token: member.token }), 403, removed);
    expectText(await api('POST', `/api/plans/${planId}/vote-date`, { body: { date: await day(owner, 3) }, token: member.token }), 403, removed);
    expect((await participants(planId)).map((p) => p.name)).not.toContain('Mo');

    const list = await api<Removal[]>('GET', `/api/plans/${planId}/removals`, { token: host.token });
    const removal = list.json.find((r) => r.name === 'Mo')!;
    expect(removal.isGuest).toBe(false);
    expectText(await api('DELETE', `/api/plans/${planId}/removals/${removal.id}`, { token: member.token }), 403, 'Only the host can allow people back');
    expectText(await api('GET', `/api/plans/${planId}/removals`, { token: member.token }), 403, 'Only the host can see who was removed');
    expect((await api('DELETE', `/api/plans/${planId}/removals/${removal.id}`, { token: host.token })).status).toBe(204);
    expectText(await api('DELETE', `/api/plans/${planId}/removals/${removal.id}`, { token: host.token }), 404, 'This person was not removed from the plan');
    expect((await api('POST', `/api/plans/${planId}/join`, { body: {}, token: member.token })).status).toBe(200);
    expect((await participants(planId)).map((p) => p.name)).toContain('Mo');
  });

  it('refusals are one sentence and change nothing', async () => {
    const again = await newGuest(planId, 'Gina');
    const gina = await participantOf(planId, { guestId: again.id });
    const hana = await participantOf(planId, { userId: host.id });
    expectText(await api('DELETE', `/api/plans/${planId}/participants/${gina}`, { token: member.token }), 403, 'Only the host can remove people from the plan');
    expectText(
      await api('DELETE', `/api/plans/${planId}/participants/${hana}`, { token: host.token }),
      409,
      'You host this plan: hand it over by leaving, or delete the plan instead',
    );
    expectText(await api('DELETE', `/api/plans/${planId}/participants/not-an-id`, { token: host.token }), 404, 'This person is not in the plan');
    expectText(await api('DELETE', `/api/plans/${planId}/participants/${gina}`, {}), 401, 'Not signed in');
    expectText(await api('DELETE', `/api/plans/${planId}/removals/not-an-id`, { token: host.token }), 404, 'This person was not removed from the plan');
    expectText(await api('GET', `/api/plans/${planId}/removals`), 401, 'Not signed in');
    expect((await participants(planId)).map((p) => p.name).sort()).toEqual(['Gina', 'Hana', 'Mo', 'Sam Spam']);
  });
});

describe('deleting ideas and comments', () => {
  let host: User;
  let member: User;
  let planId: string;
  let guest: Guest;

  beforeAll(async () => {
    host = await newUser('Hana');
    member = await newUser('Mo');
    planId = await newPlan(host);
    await addMember(planId, member);
    guest = await newGuest(planId, 'Gus');
  });

  it('a comment names its author (userId or guestId), so the screens know whose it is', async () => {
    const idea = await postIdea(planId, 'Picnic', { token: host.token });
    expect(await postComment(idea, 'From Mo', { token: member.token })).toMatchObject({ userId: member.id, guestId: null });
    expect(await postComment(idea, 'From Gus', { guestId: guest.id })).toMatchObject({ userId: null, guestId: guest.id });
    const list = await api<Array<{ userId: string | null; guestId: string | null }>>('GET', `/api/ideas/${idea}/comments`);
    expect(list.json.map((c) => [c.userId, c.guestId])).toEqual([
      [member.id, null],
      [null, guest.id],
    ]);
  });

  it('a guest deletes its own comment and idea with its secret (?guestId= or a body)', async () => {
    const idea = await postIdea(planId, 'Mine', { guestId: guest.id });
    const comment = await postComment(idea, 'typo', { guestId: guest.id });
    expect((await api('DELETE', `/api/ideas/${idea}/comments/${comment.id}`, { body: { guestId: guest.id } })).status).toBe(204);
    expect((await api<unknown[]>('GET', `/api/ideas/${idea}/comments`)).json).toEqual([]);
    expect((await api('DELETE', `/api/ideas/${idea}?guestId=${guest.id}`)).status).toBe(204);
    expect((await api('GET', `/api/ideas/${idea}/comments`)).status).toBe(404);
  });

  it("the host deletes the picked idea: it is unpicked, and the plan says so", async () => {
    const idea = await postIdea(planId, 'Escape room', { token: member.token });
    expect((await api('POST', `/api/plans/${planId}/pick-idea`, { body: { ideaId: idea }, token: host.token })).json).toEqual({ lockedIdeaId: idea });
    expect((await api('DELETE', `/api/ideas/${idea}`, { token: host.token })).status).toBe(204);
    const plan = await api<{ lockedIdeaId: string | null }>('GET', `/api/plans/${planId}`);
    expect(plan.json.lockedIdeaId).toBeNull();
  });

  it('refusals are one sentence and change nothing', async () => {
    const idea = await postIdea(planId, 'Host idea', { token: host.token });
    const comment = await postComment(idea, 'Mo says', { token: member.token });
    expectText(await api('DELETE', `/api/ideas/${idea}`, { token: member.token }), 403, 'Only the host or the person who suggested this idea can delete it');
    expectText(
      await api('DELETE', `/api/ideas/${idea}/comments/${comment.id}?guestId=${guest.id}`),
      403,
      'Only the host or the person who wrote this comment can delete it',
    );
    expectText(await api('DELETE', `/api/ideas/${idea}/comments/0b3f4c3e-1111-4aaa-8bbb-123456789abc`, { token: host.token }), 404, 'Comment not found');
    expectText(await api('DELETE', `/api/ideas/x/comments/${comment.id}`, { token: host.token }), 404, 'Idea not found');
    expectText(await api('DELETE', `/api/ideas/${idea}`), 401, 'Not signed in');
    expectText(
      await api('DELETE', `/api/ideas/${idea}?guestId=${guest.id}`, { body: { guestId: member.id } }),
      400,
      'guestId in the URL and in the body must be the same',
    );
    expect((await api<unknown[]>('GET', `/api/ideas/${idea}/comments`)).json).toHaveLength(1);
  });
});

describe('open streams are told at once', () => {
  let stream: SseStream | undefined;
  afterAll(() => stream?.close());

  it('a deleted idea and a removed guest each reach everyone watching the plan', async () => {
    const host = await newUser('Hana');
    const planId = await newPlan(host);
    const guest = await newGuest(planId, 'Gus');
    const idea = await postIdea(planId, 'Gone soon', { guestId: guest.id });
    stream = await openSse(`/api/plans/${planId}/events`);
    await stream.next((e) => e.event === 'ready');

    expect((await api('DELETE', `/api/ideas/${idea}`, { token: host.token })).status).toBe(204);
    const deleted = await stream.next((e) => e.event === 'change', 3000);
    expect(deleted.data.parts).toContain('ideas');

    expect((await api('DELETE', `/api/plans/${planId}/participants/${await participantOf(planId, { guestId: guest.id })}`, { token: host.token })).status).toBe(204);
    const removed = await stream.next((e) => e.event === 'change', 3000);
    expect(removed.data.parts).toContain('participants');
  });
});

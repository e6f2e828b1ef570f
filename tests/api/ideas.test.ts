// The ideas endpoints over HTTP: GET/POST /api/plans/{id}/ideas,
// POST /api/ideas/{id}/vote, GET /api/ideas/{id}/voters,
// GET/POST /api/ideas/{id}/comments and POST /api/plans/{id}/pick-idea.
// Activity suggestions: interests-suggestions.test.ts; parallel votes:
// ideas-votes-concurrency.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voterListSchema } from '../../supabase/functions/_shared/contract/common.ts';
import type { Idea, IdeaComment } from '../../supabase/functions/_shared/contract/ideas.ts';
import { GUEST_SECRET_MISSING } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, expectText, ISO_TIME } from '../support/api.ts';
import { addMember, cleanUp, type Guest, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';

type Comment = IdeaComment;

let host: User; // Hanna Host
let member: User; // Mia, a participant
let planId: string;
let guest: Guest;
let otherPlanId: string;
let otherGuest: Guest;

beforeAll(async () => {
  host = await newUser('Hanna', 'Host');
  member = await newUser('Mia', null);
  planId = await newPlan(host, 'Ideas');
  await addMember(planId, member);
  guest = await newGuest(planId);
  otherPlanId = await newPlan(host, 'Other ideas');
  otherGuest = await newGuest(otherPlanId);
});
afterAll(cleanUp);

const listIdeas = (plan: string, opts: { token?: string; query?: string } = {}) =>
  api<Idea[]>('GET', `/api/plans/${plan}/ideas${opts.query ?? ''}`, { token: opts.token });
const postIdea = (plan: string, body: unknown, token?: string) => api<Idea>('POST', `/api/plans/${plan}/ideas`, { body, token });
const vote = (idea: string, body: unknown = {}, token?: string) =>
  api<{ voted: boolean; voteCount: number }>('POST', `/api/ideas/${idea}/vote`, { body, token });
const voters = (idea: string) => api<{ id: string; name: string; isGuest: boolean }[]>('GET', `/api/ideas/${idea}/voters`);
const comments = (idea: string) => api<Comment[]>('GET', `/api/ideas/${idea}/comments`);
const postComment = (idea: string, body: unknown, token?: string) =>
  api<Comment>('POST', `/api/ideas/${idea}/comments`, { body, token });
const pick = (plan: string, body: unknown, token?: string) =>
  api<{ lockedIdeaId: string | null }>('POST', `/api/plans/${plan}/pick-idea`, { body, token });

/** An idea by the host through the API. */
async function hostIdea(text: string, plan = planId): Promise<Idea> {
  const res = await postIdea(plan, { text }, host.token);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const voteRows = async (ideaId: string) =>
  (await owner<{ voter: string }[]>`
    select coalesce(user_id, guest_id) as voter from app.idea_votes where idea_id = ${ideaId} order by created_at, id`).map(
    (row) => row.voter,
  );

const isParticipant = async (plan: string, userId: string) =>
  (await owner`select 1 from app.participants where plan_id = ${plan} and user_id = ${userId}`).length === 1;

describe('POST /api/plans/{id}/ideas', () => {
  it('a member adds an idea: 201, trimmed, named after the account (the body authorName is ignored)', async () => {
    const res = await postIdea(planId, { text: '  Bowling night \n', authorName: 'Somebody Else' }, member.token);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      text: 'Bowling night',
      authorName: 'Mia',
      userId: member.id,
      guestId: null,
      voteCount: 0,
      hasUserVoted: false,
      commentCount: 0,
      createdAt: expect.stringMatching(ISO_TIME),
    });
    expect(Math.abs(Date.parse(res.json.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('a guest of the plan adds one as the guest', async () => {
    const res = await postIdea(planId, { text: 'Picnic', authorName: 'Hanna Host', guestId: guest.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ text: 'Picnic', authorName: guest.name, userId: null, guestId: guest.id });
  });

  it('a guest id in upper case is the same guest', async () => {
    const res = await postIdea(planId, { text: 'Arcade', guestId: guest.id.toUpperCase() });
    expect(res.status, res.text).toBe(201);
    expect(res.json.guestId).toBe(guest.id);
  });

  it('a signed-in user who is not a participant yet is joined on first write', async () => {
    const newcomer = await newUser('Nina', 'New');
    expect(await isParticipant(planId, newcomer.id)).toBe(false);
    const res = await postIdea(planId, { text: 'Karting' }, newcomer.token);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ authorName: 'Nina New', userId: newcomer.id });
    expect(await isParticipant(planId, newcomer.id)).toBe(true);
  });

  it('a valid token wins over a guestId in the body', async () => {
    const res = await postIdea(planId, { text: 'Laser tag', guestId: otherGuest.id }, member.token);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ userId: member.id, guestId: null, authorName: 'Mia' });
  });

  it('refuses a guest of another plan (403), an unknown guest and no identity (401); writes nothing', async () => {
    expectText(await postIdea(planId, { text: 'Sneaky one', guestId: otherGuest.id }), 403, 'This guest belongs to another plan');
    expectText(await postIdea(planId, { text: 'Sneaky one', guestId: crypto.randomUUID() }), 401, GUEST_SECRET_MISSING);
    expectText(await postIdea(planId, { text: 'Sneaky one', authorName: 'Anon' }), 401, 'Join the plan first to suggest ideas');
    expect(await owner`select 1 from app.ideas where text = 'Sneaky one'`).toHaveLength(0);
  });

  it('answers 404 for an unknown or malformed plan', async () => {
    expectText(await postIdea(crypto.randomUUID(), { text: 'Nowhere' }, member.token), 404, 'Plan not found');
    expectText(await postIdea(crypto.randomUUID(), { text: 'Nowhere', guestId: guest.id }), 404, 'Plan not found');
    expectText(await postIdea('not-a-uuid', { text: 'Nowhere' }, member.token), 404, 'Plan not found');
  });

  it('validates the text: 1-280 characters after trimming', async () => {
    expectText(await postIdea(planId, {}, member.token), 400, 'Idea text is required');
    expectText(await postIdea(planId, { text: '   ' }, member.token), 400, 'Idea text is required');
    expectText(await postIdea(planId, { text: ['x'] }, member.token), 400, 'Idea text must be text');
    expectText(await postIdea(planId, { text: 'x'.repeat(281) }, member.token), 400, 'Idea text must be at most 280 characters');
    expectText(await postIdea(planId, { text: 'Hi', guestId: 'guest-1' }), 400, 'Guest id must be a valid id');
    const longest = await postIdea(planId, { text: ` ${'y'.repeat(280)} ` }, member.token);
    expect(longest.status, longest.text).toBe(201);
    expect(longest.json.text).toHaveLength(280);
  });
});

describe('ideas and comments per participant (docs/decisions/0084-caps-per-participant.md)', () => {
  it('a guest at its share of ideas, or of comments on one idea, gets 409; the others still write', async () => {
    const plan = await newPlan(host, 'Shares');
    const spammer = await newGuest(plan);
    const [{ ideas, comments: perIdea }] = await owner<{ ideas: number; comments: number }[]>`
      select private.plan_cap('ideas_per_participant') as ideas, private.plan_cap('comments_per_participant') as comments`;
    await owner`insert into app.ideas (plan_id, text, author_name, guest_id)
                select ${plan}, 'Spam ' || n, 'x', ${spammer.id} from generate_series(1, ${ideas - 1}) n`;
    expect((await postIdea(plan, { text: 'The last one', guestId: spammer.id })).status).toBe(201);
    expectText(await postIdea(plan, { text: 'One more', guestId: spammer.id }), 409,
      `You already suggested ${ideas} ideas in this plan, the most one person can`);
    const bowling = await hostIdea('Bowling', plan);
    await owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id)
                select ${bowling.id}, ${plan}, 'Spam ' || n, 'x', ${spammer.id} from generate_series(1, ${perIdea}) n`;
    expectText(await postComment(bowling.id, { text: 'One more', guestId: spammer.id }), 409,
      `You already wrote ${perIdea} comments on this idea, the most one person can`);
    expect((await postIdea(plan, { text: 'Karaoke' }, member.token)).status).toBe(201);
    expect((await postComment(bowling.id, { text: 'Count me in' }, member.token)).status).toBe(201);
  });
});

describe('GET /api/plans/{id}/ideas', () => {
  let plan: string;
  let ideas: Record<'a' | 'b' | 'c' | 'd', Idea>;
  let planGuest: Guest;
  let planMember: User;

  beforeAll(async () => {
    plan = await newPlan(host, 'Sorted ideas');
    planMember = await newUser('Max', 'Member');
    planGuest = await newGuest(plan);
    ideas = {
      a: await hostIdea('A: no votes', plan),
      b: await hostIdea('B: two votes', plan),
      c: await hostIdea('C: one vote, older', plan),
      d: await hostIdea('D: one vote, newer', plan),
    };
    for (const [idea, body, token] of [
      [ideas.b, {}, planMember.token],
      [ideas.b, { guestId: planGuest.id }, undefined],
      [ideas.c, {}, host.token],
      [ideas.d, { guestId: planGuest.id }, undefined],
    ] as const) {
      const res = await vote(idea.id, body, token);
      expect(res.status, res.text).toBe(200);
    }
    const commented = await postComment(ideas.c.id, { text: 'Nice' }, planMember.token);
    expect(commented.status, commented.text).toBe(201);
    await postComment(ideas.c.id, { text: 'Agreed', guestId: planGuest.id });
  });

  it('sorts by votes (most first), then oldest first, with counts; anyone with the id may read', async () => {
    const res = await listIdeas(plan);
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((i) => [i.text, i.voteCount, i.commentCount, i.hasUserVoted])).toEqual([
      ['B: two votes', 2, 0, false],
      ['C: one vote, older', 1, 2, false],
      ['D: one vote, newer', 1, 0, false],
      ['A: no votes', 0, 0, false],
    ]);
    expect(res.json[0]).toEqual({
      id: ideas.b.id,
      text: 'B: two votes',
      authorName: 'Hanna Host',
      userId: host.id,
      guestId: null,
      voteCount: 2,
      hasUserVoted: false,
      commentCount: 0,
      createdAt: ideas.b.createdAt,
    });
  });

  it('hasUserVoted is about the signed-in caller', async () => {
    const byHost = await listIdeas(plan, { token: host.token });
    expect(byHost.json.filter((i) => i.hasUserVoted).map((i) => i.id)).toEqual([ideas.c.id]);
    const byMember = await listIdeas(plan, { token: planMember.token });
    expect(byMember.json.filter((i) => i.hasUserVoted).map((i) => i.id)).toEqual([ideas.b.id]);
  });

  it('a guest may ask with ?guestId= (a token wins over it)', async () => {
    const byGuest = await listIdeas(plan, { query: `?guestId=${planGuest.id}` });
    expect(byGuest.json.filter((i) => i.hasUserVoted).map((i) => i.id)).toEqual([ideas.b.id, ideas.d.id]);
    const withToken = await listIdeas(plan, { token: host.token, query: `?guestId=${planGuest.id}` });
    expect(withToken.json.filter((i) => i.hasUserVoted).map((i) => i.id)).toEqual([ideas.c.id]);
    const foreign = await listIdeas(plan, { query: `?guestId=${otherGuest.id}` });
    expect(foreign.json.some((i) => i.hasUserVoted)).toBe(false);
    expectText(await listIdeas(plan, { query: '?guestId=me' }), 400, 'Guest id must be a valid id');
  });

  it('answers [] for a plan without ideas and 404 for an unknown or malformed one', async () => {
    const empty = await newPlan(host, 'No ideas yet');
    const res = await listIdeas(empty);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual([]);
    expectText(await listIdeas(crypto.randomUUID()), 404, 'Plan not found');
    expectText(await listIdeas('1234'), 404, 'Plan not found');
  });

  it('does not mix plans', async () => {
    const res = await listIdeas(otherPlanId);
    expect(res.json.map((i) => i.text)).not.toContain('B: two votes');
  });
});

describe('POST /api/ideas/{id}/vote', () => {
  it('toggles: voting twice leaves no vote', async () => {
    const idea = await hostIdea('Escape room');
    expect((await vote(idea.id, {}, member.token)).json).toEqual({ voted: true, voteCount: 1 });
    expect(await voteRows(idea.id)).toEqual([member.id]);
    expect((await vote(idea.id, {}, member.token)).json).toEqual({ voted: false, voteCount: 0 });
    expect(await voteRows(idea.id)).toEqual([]);
  });

  it('members and guests vote separately; an empty body is fine for a member', async () => {
    const idea = await hostIdea('Museum');
    const byMember = await api('POST', `/api/ideas/${idea.id}/vote`, { token: member.token });
    expect(byMember.status, byMember.text).toBe(200);
    expect(byMember.json).toEqual({ voted: true, voteCount: 1 });
    expect((await vote(idea.id, { guestId: guest.id })).json).toEqual({ voted: true, voteCount: 2 });
    expect((await vote(idea.id, { guestId: guest.id })).json).toEqual({ voted: false, voteCount: 1 });
    expect(await voteRows(idea.id)).toEqual([member.id]);
  });

  it('joins a signed-in non-participant on first vote', async () => {
    const idea = await hostIdea('Zoo');
    const newcomer = await newUser('Vic', 'Voter');
    expect((await vote(idea.id, {}, newcomer.token)).json).toEqual({ voted: true, voteCount: 1 });
    expect(await isParticipant(planId, newcomer.id)).toBe(true);
  });

  it('refuses a guest of another plan (403) and callers without identity (401)', async () => {
    const idea = await hostIdea('Aquarium');
    expectText(await vote(idea.id, { guestId: otherGuest.id }), 403, 'This guest belongs to another plan');
    expectText(await vote(idea.id, {}), 401, 'Please join the plan first to vote');
    expectText(await vote(idea.id, { guestId: crypto.randomUUID() }), 401, GUEST_SECRET_MISSING);
    expect(await voteRows(idea.id)).toEqual([]);
  });

  it('answers 404 for an unknown or malformed idea, 400 for a malformed guest id', async () => {
    expectText(await vote(crypto.randomUUID(), {}, member.token), 404, 'Idea not found');
    expectText(await vote(crypto.randomUUID(), { guestId: guest.id }), 404, 'Idea not found');
    expectText(await vote('idea-1', {}, member.token), 404, 'Idea not found');
    const idea = await hostIdea('Bowling again');
    expectText(await vote(idea.id, { guestId: 'x' }), 400, 'Guest id must be a valid id');
  });
});

describe('GET /api/ideas/{id}/voters', () => {
  it('lists voters oldest vote first: id = user id or guest id, name, isGuest', async () => {
    const idea = await hostIdea('Theme park');
    expect((await voters(idea.id)).json).toEqual([]);
    await vote(idea.id, { guestId: guest.id });
    await vote(idea.id, {}, host.token);
    await vote(idea.id, {}, member.token);
    const res = await voters(idea.id);
    expect(res.status, res.text).toBe(200);
    // The shape the web app reads (the shared contract), and the values.
    expect(voterListSchema.safeParse(res.json).success).toBe(true);
    expect(res.json).toEqual([
      { id: guest.id, name: guest.name, isGuest: true },
      { id: host.id, name: 'Hanna Host', isGuest: false },
      { id: member.id, name: 'Mia', isGuest: false },
    ]);
    // A withdrawn vote leaves the list.
    await vote(idea.id, {}, host.token);
    expect((await voters(idea.id)).json.map((v) => v.id)).toEqual([guest.id, member.id]);
  });

  it('answers 404 for an unknown or malformed idea', async () => {
    expectText(await voters(crypto.randomUUID()), 404, 'Idea not found');
    expectText(await voters('nope'), 404, 'Idea not found');
  });
});

describe('comments', () => {
  it('are added by members and guests (201) and listed oldest first', async () => {
    const idea = await hostIdea('Karaoke');
    expect((await comments(idea.id)).json).toEqual([]);
    const first = await postComment(idea.id, { text: '  Count me in! ', authorName: 'Not Me' }, member.token);
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({ id: expect.any(String), text: 'Count me in!', authorName: 'Mia', userId: member.id, guestId: null, createdAt: expect.stringMatching(ISO_TIME) });
    const second = await postComment(idea.id, { text: 'Me too', guestId: guest.id });
    expect(second.status, second.text).toBe(201);
    expect(second.json.authorName).toBe(guest.name);
    const third = await postComment(idea.id, { text: 'Friday?' }, host.token);
    const res = await comments(idea.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual([first.json, second.json, third.json]);
    const listed = (await listIdeas(planId)).json.find((i) => i.id === idea.id);
    expect(listed?.commentCount).toBe(3);
  });

  it('joins a signed-in non-participant on first comment', async () => {
    const idea = await hostIdea('Brunch');
    const newcomer = await newUser('Cleo', null);
    const res = await postComment(idea.id, { text: 'Yes please' }, newcomer.token);
    expect(res.status, res.text).toBe(201);
    expect(res.json.authorName).toBe('Cleo');
    expect(await isParticipant(planId, newcomer.id)).toBe(true);
  });

  it('refuses other plans\u2019 guests and callers without identity, and validates', async () => {
    const idea = await hostIdea('Sushi');
    expectText(await postComment(idea.id, { text: 'x', guestId: otherGuest.id }), 403, 'This guest belongs to another plan');
    expectText(await postComment(idea.id, { text: 'x' }), 401, 'Join the plan first to comment');
    expectText(await postComment(idea.id, { text: 'x', guestId: crypto.randomUUID() }), 401, GUEST_SECRET_MISSING);
    expectText(await postComment(idea.id, {}, member.token), 400, 'Comment text is required');
    expectText(await postComment(idea.id, { text: ' ' }, member.token), 400, 'Comment text is required');
    expectText(await postComment(idea.id, { text: 'c'.repeat(1001) }, member.token), 400, 'Comment text must be at most 1000 characters');
    expect((await postComment(idea.id, { text: 'c'.repeat(1000) }, member.token)).status).toBe(201);
    expectText(await postComment(crypto.randomUUID(), { text: 'x' }, member.token), 404, 'Idea not found');
    expectText(await comments(crypto.randomUUID()), 404, 'Idea not found');
    expectText(await comments('x'), 404, 'Idea not found');
    expect((await comments(idea.id)).json).toHaveLength(1);
  });
});

describe('POST /api/plans/{id}/pick-idea', () => {
  const lockedIdeaId = async (plan: string) =>
    (await owner<{ id: string | null }[]>`select locked_idea_id as id from app.plans where id = ${plan}`)[0].id;

  it('the host picks, picks another, and un-picks by picking the picked idea again', async () => {
    const first = await hostIdea('Cinema');
    const second = await hostIdea('Theatre');
    const picked = await pick(planId, { ideaId: first.id }, host.token);
    expect(picked.status, picked.text).toBe(200);
    expect(picked.json).toEqual({ lockedIdeaId: first.id });
    expect((await api('GET', `/api/plans/${planId}`)).json.lockedIdeaId).toBe(first.id);
    expect((await pick(planId, { ideaId: second.id.toUpperCase() }, host.token)).json).toEqual({ lockedIdeaId: second.id });
    expect((await pick(planId, { ideaId: second.id }, host.token)).json).toEqual({ lockedIdeaId: null });
    expect(await lockedIdeaId(planId)).toBeNull();
  });

  it('is for the host only', async () => {
    const idea = await hostIdea('Go-karts');
    expectText(await pick(planId, { ideaId: idea.id }, member.token), 403, 'Only the host can pick an idea');
    expectText(await pick(planId, { ideaId: idea.id }), 401, 'Not signed in');
    const outsider = await newUser('Otto', null);
    expectText(await pick(planId, { ideaId: idea.id }, outsider.token), 403, 'Only the host can pick an idea');
    expect(await lockedIdeaId(planId)).toBeNull();
  });

  it('refuses an idea of another plan or an unknown one (404), and validates', async () => {
    const foreign = await hostIdea('Elsewhere', otherPlanId);
    expectText(await pick(planId, { ideaId: foreign.id }, host.token), 404, 'Idea not found');
    expectText(await pick(planId, { ideaId: crypto.randomUUID() }, host.token), 404, 'Idea not found');
    expectText(await pick(crypto.randomUUID(), { ideaId: foreign.id }, host.token), 404, 'Plan not found');
    expectText(await pick('plan', { ideaId: foreign.id }, host.token), 404, 'Plan not found');
    expectText(await pick(planId, {}, host.token), 400, 'Idea id is required');
    expectText(await pick(planId, { ideaId: 'one' }, host.token), 400, 'Idea id must be a valid id');
    expect(await lockedIdeaId(planId)).toBeNull();
    expect(await lockedIdeaId(otherPlanId)).toBeNull();
  });
});

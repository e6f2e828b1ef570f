// app.add_idea, app.add_idea_comment, app.vote_on_idea and private.ensure_writer
// (migration 20261121093000_idea_rules.sql), under the claims the API sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPgError, freshDatabase, type Claims, type TestDatabase } from '../support/db.ts';
import { addIdea, createUser, seedPlan, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

interface IdeaRow {
  id: string;
  plan_id: string;
  text: string;
  author_name: string;
  user_id: string | null;
  guest_id: string | null;
}

const addIdeaAs = (claims: Claims, planId: string, text: string) =>
  db.as(claims, async (sql) => (await sql<IdeaRow[]>`select * from app.add_idea(${planId}, ${text})`)[0]);
const commentAs = (claims: Claims, ideaId: string, text: string) =>
  db.as(claims, async (sql) => (await sql<IdeaRow[]>`select * from app.add_idea_comment(${ideaId}, ${text})`)[0]);
const voteAs = (claims: Claims, ideaId: string) =>
  db.as(claims, async (sql) => (await sql<{ voted: boolean; vote_count: number }[]>`select * from app.vote_on_idea(${ideaId})`)[0]);

const withLink = (claims: Claims, planId: string): Claims => ({ ...claims, plan_id: planId });

describe('app.add_idea', () => {
  it('a member adds an idea under its own name, whatever else is sent', async () => {
    const idea = await addIdeaAs(withLink(w.actors.member, w.planA), w.planA, 'Bowling night');
    expect(idea).toMatchObject({ plan_id: w.planA, text: 'Bowling night', author_name: 'Mia', user_id: w.users.member, guest_id: null });
  });

  it('a guest of the plan adds one as the guest', async () => {
    const idea = await addIdeaAs(w.actors.guest, w.planA, 'Picnic');
    expect(idea).toMatchObject({ author_name: 'Gus', user_id: null, guest_id: w.guest });
  });

  it('a signed-in link holder is joined on first write (and only once)', async () => {
    const newcomer = await createUser(db.owner, 'Nina', 'New');
    const claims: Claims = { role: 'authenticated', sub: newcomer, plan_id: w.planA };
    expect(await addIdeaAs(claims, w.planA, 'Karting')).toMatchObject({ author_name: 'Nina New', user_id: newcomer });
    await addIdeaAs(claims, w.planA, 'Laser tag');
    const rows = await db.owner`select name from app.participants where plan_id = ${w.planA} and user_id = ${newcomer}`;
    expect(rows).toEqual([{ name: 'Nina New' }]);
  });

  it('a signed-in user also wins over a guest claim', async () => {
    const idea = await addIdeaAs({ ...withLink(w.actors.member, w.planA), guest_id: w.otherGuest }, w.planA, 'Arcade');
    expect(idea).toMatchObject({ user_id: w.users.member, guest_id: null });
  });

  it('a guest of another plan is told so (HP403), and nothing is written', async () => {
    await expectPgError(addIdeaAs(w.actors.otherGuestWithLink, w.planA, 'Sneaky'), 'HP403', 'This guest belongs to another plan');
    expect(await db.owner`select 1 from app.ideas where text = 'Sneaky'`).toHaveLength(0);
  });

  it('no identity, an unknown guest, or a guest without its secret: HP401 with what to do', async () => {
    await expectPgError(addIdeaAs(w.actors.anonWithLink, w.planA, 'x'), 'HP401', 'Join the plan first to suggest ideas');
    const ghost: Claims = { role: 'anon', guest_id: crypto.randomUUID(), plan_id: w.planA };
    await expectPgError(addIdeaAs(ghost, w.planA, 'x'), 'HP401', 'Join the plan first to suggest ideas');
    const noSecret: Claims = { role: 'anon', guest_id: w.guest, plan_id: w.planA };
    await expectPgError(addIdeaAs(noSecret, w.planA, 'x'), 'HP401', 'Join the plan first to suggest ideas');
  });

  it('a token of an account that no longer exists: HP401 session expired', async () => {
    const gone: Claims = { role: 'authenticated', sub: crypto.randomUUID(), plan_id: w.planA };
    await expectPgError(addIdeaAs(gone, w.planA, 'x'), 'HP401', 'Your session has expired, please sign in again');
  });

  it('an unknown or unreadable plan: HP404', async () => {
    const unknown = crypto.randomUUID();
    await expectPgError(addIdeaAs(withLink(w.actors.member, unknown), unknown, 'x'), 'HP404', 'Plan not found');
    // Plan B without its link, for someone who is not in it.
    await expectPgError(addIdeaAs(w.actors.stranger, w.planB, 'x'), 'HP404', 'Plan not found');
  });

  it('the text limits stay the table check (the API trims and checks first)', async () => {
    await expectPgError(addIdeaAs(withLink(w.actors.member, w.planA), w.planA, 'x'.repeat(281)), '23514');
  });
});

describe('app.add_idea_comment', () => {
  it('members and guests of the plan comment under their own names', async () => {
    const byMember = await commentAs(withLink(w.actors.member, w.planA), w.ideaA, 'Count me in');
    expect(byMember).toMatchObject({ plan_id: w.planA, author_name: 'Mia', user_id: w.users.member, guest_id: null });
    const byGuest = await commentAs(w.actors.guest, w.ideaA, 'Me too');
    expect(byGuest).toMatchObject({ author_name: 'Gus', user_id: null, guest_id: w.guest });
  });

  it('joins a signed-in link holder; refuses others like add_idea', async () => {
    const newcomer = await createUser(db.owner, 'Cleo', null);
    expect(await commentAs({ role: 'authenticated', sub: newcomer, plan_id: w.planA }, w.ideaA, 'Hi')).toMatchObject({
      author_name: 'Cleo',
    });
    await expectPgError(commentAs(w.actors.otherGuestWithLink, w.ideaA, 'x'), 'HP403', 'This guest belongs to another plan');
    await expectPgError(commentAs(w.actors.anonWithLink, w.ideaA, 'x'), 'HP401', 'Join the plan first to comment');
    await expectPgError(commentAs(withLink(w.actors.member, w.planA), crypto.randomUUID(), 'x'), 'HP404', 'Idea not found');
    // An idea of a plan the caller cannot read is not found either.
    await expectPgError(commentAs(w.actors.member, w.ideaB, 'x'), 'HP404', 'Idea not found');
  });

  // The rule makes the row policies' checks itself (private.add_idea_comment,
  // a definer: migration 20261125090500), so each refusal is tested here.
  it('refusals write nothing: no link, no participant, another plan, a deleted account', async () => {
    const comments = async () => (await db.owner<{ n: number }[]>`select count(*)::int as n from app.idea_comments`)[0].n;
    const before = await comments();
    const gone = await createUser(db.owner, 'Gone', null);
    await db.owner`delete from app.users where id = ${gone}`;
    await expectPgError(commentAs({ role: 'authenticated', sub: gone, plan_id: w.planA }, w.ideaA, 'x'), 'HP401', 'Your session has expired, please sign in again');
    await expectPgError(commentAs(w.actors.stranger, w.ideaA, 'x'), 'HP404', 'Idea not found');
    await expectPgError(commentAs(w.actors.anon, w.ideaA, 'x'), 'HP404', 'Idea not found');
    await expectPgError(commentAs(w.actors.anonWithLink, w.ideaA, 'x'), 'HP401', 'Join the plan first to comment');
    await expectPgError(commentAs({ ...w.actors.otherGuest, plan_id: w.planA }, w.ideaA, 'x'), 'HP403', 'This guest belongs to another plan');
    // The guest's own plan's link claim does not open another plan's idea.
    await expectPgError(commentAs(w.actors.guest, w.ideaB, 'x'), 'HP404', 'Idea not found');
    expect(await comments()).toBe(before);
    expect(await db.owner`select 1 from app.participants where user_id = ${gone}`).toHaveLength(0);
  });
});

describe('app.vote_on_idea', () => {
  it('toggles and answers the new count', async () => {
    const idea = await addIdea(db.owner, w.planA, 'Trampoline park', { userId: w.users.host });
    expect(await voteAs(withLink(w.actors.member, w.planA), idea)).toEqual({ voted: true, vote_count: 1 });
    expect(await voteAs(w.actors.guest, idea)).toEqual({ voted: true, vote_count: 2 });
    expect(await voteAs(withLink(w.actors.member, w.planA), idea)).toEqual({ voted: false, vote_count: 1 });
    expect(await voteAs(w.actors.guest, idea)).toEqual({ voted: false, vote_count: 0 });
    expect(await db.owner`select 1 from app.idea_votes where idea_id = ${idea}`).toHaveLength(0);
  });

  it('answers the identity errors of ensure_writer', async () => {
    await expectPgError(voteAs(w.actors.otherGuestWithLink, w.ideaA), 'HP403', 'This guest belongs to another plan');
    await expectPgError(voteAs(w.actors.anonWithLink, w.ideaA), 'HP401', 'Please join the plan first to vote');
    await expectPgError(voteAs(withLink(w.actors.member, w.planA), crypto.randomUUID()), 'HP404', 'Idea not found');
  });

  // The rule makes the row policies' checks itself (private.vote_on_idea, a
  // definer: migration 20261125090600), so each refusal is tested here.
  it('refusals write nothing: no link, no participant, another plan, a deleted account', async () => {
    const votes = async () => (await db.owner<{ n: number }[]>`select count(*)::int as n from app.idea_votes`)[0].n;
    const before = await votes();
    const gone = await createUser(db.owner, 'Gone', null);
    await db.owner`delete from app.users where id = ${gone}`;
    await expectPgError(voteAs({ role: 'authenticated', sub: gone, plan_id: w.planA }, w.ideaA), 'HP401', 'Your session has expired, please sign in again');
    await expectPgError(voteAs(w.actors.stranger, w.ideaA), 'HP404', 'Idea not found');
    await expectPgError(voteAs(w.actors.anon, w.ideaA), 'HP404', 'Idea not found');
    await expectPgError(voteAs({ ...w.actors.otherGuest, plan_id: w.planA }, w.ideaA), 'HP403', 'This guest belongs to another plan');
    await expectPgError(voteAs(w.actors.guest, w.ideaB), 'HP404', 'Idea not found');
    expect(await votes()).toBe(before);
  });

  it('a signed-in link holder joins on the first vote and votes as itself, never as the guest its request also names', async () => {
    const newcomer = await createUser(db.owner, 'Nora', null);
    const claims: Claims = { ...w.actors.guest, role: 'authenticated', sub: newcomer, plan_id: w.planA };
    const idea = await addIdea(db.owner, w.planA, 'Karaoke', { userId: w.users.host });
    expect(await voteAs(claims, idea)).toEqual({ voted: true, vote_count: 1 });
    expect(await db.owner`select user_id, guest_id from app.idea_votes where idea_id = ${idea}`).toEqual([{ user_id: newcomer, guest_id: null }]);
    expect(await db.owner`select 1 from app.participants where plan_id = ${w.planA} and user_id = ${newcomer}`).toHaveLength(1);
  });
});

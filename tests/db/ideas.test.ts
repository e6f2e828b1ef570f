// app.ideas, app.idea_comments, app.idea_votes: reading and writing per caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';
import { addIdea, seedPlan, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
let ideaA2: string; // an idea of plan A nobody voted on
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
  ideaA2 = await addIdea(db.owner, w.planA, 'Picnic', { userId: w.users.member });
});
afterAll(() => db?.close());

const readersOfA: ActorName[] = ['anonWithLink', 'guest', 'otherGuestWithLink', 'member', 'host', 'strangerWithLink'];
const blindToA: ActorName[] = ['anon', 'anonWithSlug', 'otherGuest', 'stranger'];

describe('reading', () => {
  const counts = (actor: ActorName, planId: string) =>
    db.as(w.actors[actor], async (sql) => {
      const [r] = await sql`
        select (select count(*)::int from app.ideas where plan_id = ${planId}) as ideas,
               (select count(*)::int from app.idea_comments where plan_id = ${planId}) as comments,
               (select count(*)::int from app.idea_votes where plan_id = ${planId}) as votes`;
      return r;
    });

  for (const actor of readersOfA) {
    it(`${actor} reads plan A's ideas, comments and votes`, async () => {
      expect(await counts(actor, w.planA)).toEqual({ ideas: 2, comments: 1, votes: 2 });
    });
  }
  for (const actor of blindToA) {
    it(`${actor} reads none of plan A's`, async () => {
      expect(await counts(actor, w.planA)).toEqual({ ideas: 0, comments: 0, votes: 0 });
    });
  }
  for (const actor of ['guest', 'member', 'host', 'strangerWithLink'] as const) {
    it(`${actor} reads nothing of plan B`, async () => {
      expect(await counts(actor, w.planB)).toEqual({ ideas: 0, comments: 0, votes: 0 });
    });
  }
  it("plan B's guest reads plan B's", async () => {
    expect(await counts('otherGuest', w.planB)).toEqual({ ideas: 1, comments: 1, votes: 1 });
  });
  it('an idea id resolves to its plan for the plan_id claim, unknown ids to null', async () => {
    const [r] = await db.as(
      w.actors.anon,
      (sql) => sql`select private.plan_id_of_idea(${w.ideaA}) as a, private.plan_id_of_idea(gen_random_uuid()) as b`,
    );
    expect(r).toEqual({ a: w.planA, b: null });
  });
});

describe('writing ideas', () => {
  const addAs = (actor: ActorName, planId: string, author: { user?: string; guest?: string }, text = 'Go karting') =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.ideas (plan_id, text, author_name, user_id, guest_id)
                   values (${planId}, ${text}, 'Somebody Else', ${author.user ?? null}, ${author.guest ?? null})
                   returning author_name`,
      { rollback: true },
    );

  it("a guest adds an idea as itself, signed with its participant name (not what it sent)", async () => {
    const [r] = await addAs('guest', w.planA, { guest: w.guest });
    expect(r.author_name).toBe('Gus');
  });
  it('a member adds an idea as itself', async () => {
    const [r] = await addAs('member', w.planA, { user: w.users.member });
    expect(r.author_name).toBe('Mia');
  });
  it('nobody writes as someone else', async () => {
    await expectDenied(addAs('guest', w.planA, { user: w.users.member }));
    await expectDenied(addAs('member', w.planA, { user: w.users.host }));
    await expectDenied(addAs('member', w.planA, { guest: w.guest }));
  });
  it('non-participants cannot write: link holders, strangers, a guest of another plan', async () => {
    await expectDenied(addAs('anon', w.planA, {}));
    await expectDenied(addAs('anonWithLink', w.planA, {}));
    await expectDenied(addAs('stranger', w.planA, { user: w.users.stranger }));
    await expectDenied(addAs('strangerWithLink', w.planA, { user: w.users.stranger }));
    await expectDenied(addAs('otherGuestWithLink', w.planA, { guest: w.otherGuest }));
    await expectDenied(addAs('guest', w.planB, { guest: w.guest }));
  });
  it('idea text is 1-280 characters after trimming', async () => {
    await addAs('member', w.planA, { user: w.users.member }, 'x'.repeat(280));
    await expectPgError(addAs('member', w.planA, { user: w.users.member }, 'x'.repeat(281)), '23514');
    await expectPgError(addAs('member', w.planA, { user: w.users.member }, '  '), '23514');
  });
  it('ideas are neither edited nor deleted by anyone', async () => {
    for (const actor of ['host', 'member', 'guest'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`update app.ideas set text = 'x' where id = ${w.ideaA}`));
      await expectDenied(db.as(w.actors[actor], (sql) => sql`delete from app.ideas where id = ${w.ideaA}`));
    }
  });
});

describe('writing comments', () => {
  const commentAs = (actor: ActorName, ideaId: string, planId: string, author: { user?: string; guest?: string }, text = 'Count me in') =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id, guest_id)
                   values (${ideaId}, ${planId}, ${text}, 'Somebody', ${author.user ?? null}, ${author.guest ?? null})
                   returning author_name`,
      { rollback: true },
    );

  it('participants comment as themselves', async () => {
    expect((await commentAs('guest', w.ideaA, w.planA, { guest: w.guest }))[0].author_name).toBe('Gus');
    expect((await commentAs('host', w.ideaA, w.planA, { user: w.users.host }))[0].author_name).toBe('Hanna Host');
  });
  it('non-participants and impostors cannot', async () => {
    await expectDenied(commentAs('strangerWithLink', w.ideaA, w.planA, { user: w.users.stranger }));
    await expectDenied(commentAs('anonWithLink', w.ideaA, w.planA, {}));
    await expectDenied(commentAs('otherGuestWithLink', w.ideaA, w.planA, { guest: w.otherGuest }));
    await expectDenied(commentAs('member', w.ideaA, w.planA, { user: w.users.host }));
  });
  it("a comment's idea must belong to the comment's plan", async () => {
    await expectPgError(commentAs('member', w.ideaB, w.planA, { user: w.users.member }), '23503');
  });
  it('comment text is 1-1000 characters after trimming', async () => {
    await commentAs('member', w.ideaA, w.planA, { user: w.users.member }, 'c'.repeat(1000));
    await expectPgError(commentAs('member', w.ideaA, w.planA, { user: w.users.member }, 'c'.repeat(1001)), '23514');
    await expectPgError(commentAs('member', w.ideaA, w.planA, { user: w.users.member }, ' '), '23514');
  });
  it('comments are neither edited nor deleted', async () => {
    await expectDenied(db.as(w.actors.member, (sql) => sql`update app.idea_comments set text = 'x' where id = ${w.commentA}`));
    await expectDenied(db.as(w.actors.member, (sql) => sql`delete from app.idea_comments where id = ${w.commentA}`));
  });
});

describe('writing idea votes', () => {
  const voteAs = (actor: ActorName, ideaId: string, planId: string, voter: { user?: string; guest?: string }) =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.idea_votes (idea_id, plan_id, user_id, guest_id)
                   values (${ideaId}, ${planId}, ${voter.user ?? null}, ${voter.guest ?? null})`,
      { rollback: true },
    );

  it('participants vote as themselves', async () => {
    await voteAs('guest', ideaA2, w.planA, { guest: w.guest });
    await voteAs('member', ideaA2, w.planA, { user: w.users.member });
  });
  it('a second vote by the same person is impossible', async () => {
    await expectPgError(voteAs('guest', w.ideaA, w.planA, { guest: w.guest }), '23505');
    await expectPgError(voteAs('member', w.ideaA, w.planA, { user: w.users.member }), '23505');
  });
  it('non-participants and impostors cannot vote', async () => {
    await expectDenied(voteAs('strangerWithLink', ideaA2, w.planA, { user: w.users.stranger }));
    await expectDenied(voteAs('otherGuestWithLink', ideaA2, w.planA, { guest: w.otherGuest }));
    await expectDenied(voteAs('guest', ideaA2, w.planA, { user: w.users.member }));
    await expectDenied(voteAs('anonWithLink', ideaA2, w.planA, {}));
    await expectDenied(voteAs('anon', ideaA2, w.planA, {}));
    await expectDenied(voteAs('stranger', ideaA2, w.planA, { user: w.users.stranger }));
  });
  it("a vote's idea must belong to the vote's plan", async () => {
    await expectPgError(voteAs('member', w.ideaB, w.planA, { user: w.users.member }), '23503');
  });
  it('exactly one voter', async () => {
    await expectPgError(
      db.owner`insert into app.idea_votes (idea_id, plan_id) values (${ideaA2}, ${w.planA})`,
      '23514',
    );
  });
  it('everyone removes only their own vote', async () => {
    const own = await db.as(w.actors.guest, (sql) => sql`delete from app.idea_votes where idea_id = ${w.ideaA}`, { rollback: true });
    expect(own.count).toBe(1);
    const mine = await db.as(w.actors.member, (sql) => sql`delete from app.idea_votes where idea_id = ${w.ideaA}`, { rollback: true });
    expect(mine.count).toBe(1);
    const host = await db.as(w.actors.host, (sql) => sql`delete from app.idea_votes where idea_id = ${w.ideaA}`);
    expect(host.count).toBe(0);
    const link = await db.as(w.actors.anonWithLink, (sql) => sql`delete from app.idea_votes where idea_id = ${w.ideaA}`);
    expect(link.count).toBe(0);
  });
  it('votes are never updated', async () => {
    await expectDenied(db.as(w.actors.member, (sql) => sql`update app.idea_votes set user_id = ${w.users.host}`));
  });
});

// Ideas, comments and idea votes (the ideas domain): the three
// tables' row security per caller, and the rules the API calls
// (app.add_idea, app.add_idea_comment, app.vote_on_idea and the writer check
// private.ensure_writer) under the claims the API sends. The votes' parallel
// behaviour is in concurrency.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addIdea, blindToA, createUser, readersOfA, sha256Hex, type ActorName } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

describe('row security', () => {
  const w = usePlanWorld(db);
  let ideaA2: string; // an idea of plan A nobody voted on
  beforeAll(async () => {
    ideaA2 = await addIdea(db.owner, w.planA, 'Picnic', { userId: w.users.member });
  });

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
});

describe('the rules', () => {
  const w = usePlanWorld(db);

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
  const toggleIdea = async (claims: Claims, ideaId: string) => (await voteAs(claims, ideaId)).voted;
  const ideaVotes = async (ideaId: string) =>
    (await db.owner`select coalesce(user_id, guest_id) as voter from app.idea_votes where idea_id = ${ideaId}`).map((r) => r.voter);

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
    // a definer), so each refusal is tested here.
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
    // definer), so each refusal is tested here.
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

  describe('app.vote_on_idea, toggle by toggle', () => {
    it('a member toggles on, off, on: one row at most', async () => {
      const idea = await addIdea(db.owner, w.planA, 'Escape room', { userId: w.users.host });
      expect(await toggleIdea(w.actors.member, idea)).toBe(true);
      expect(await ideaVotes(idea)).toEqual([w.users.member]);
      expect(await toggleIdea(w.actors.member, idea)).toBe(false);
      expect(await ideaVotes(idea)).toEqual([]);
      expect(await toggleIdea(w.actors.member, idea)).toBe(true);
      expect(await ideaVotes(idea)).toEqual([w.users.member]);
    });

    it("a guest's toggle touches only the guest's vote", async () => {
      const idea = await addIdea(db.owner, w.planA, 'Museum', { userId: w.users.host });
      await toggleIdea(w.actors.member, idea);
      expect(await toggleIdea(w.actors.guest, idea)).toBe(true);
      expect((await ideaVotes(idea)).sort()).toEqual([w.users.member, w.guest].sort());
      expect(await toggleIdea(w.actors.guest, idea)).toBe(false);
      expect(await ideaVotes(idea)).toEqual([w.users.member]);
    });

    it('a signed-in caller votes as itself even when a guest_id claim is present', async () => {
      const idea = await addIdea(db.owner, w.planA, 'Zoo', { userId: w.users.host });
      expect(await toggleIdea({ ...w.actors.member, guest_id: w.guest }, idea)).toBe(true);
      expect(await ideaVotes(idea)).toEqual([w.users.member]);
    });

    it('a signed-in link holder is joined on first vote', async () => {
      const idea = await addIdea(db.owner, w.planA, 'Bouldering', { userId: w.users.host });
      const stranger = { role: 'authenticated', sub: w.users.stranger, plan_id: w.planA } as const;
      expect(await toggleIdea(stranger, idea)).toBe(true);
      const rows = await db.owner`select name from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
      expect(rows).toEqual([{ name: 'Sam Stranger' }]);
      await db.owner`delete from app.idea_votes where user_id = ${w.users.stranger}`;
      await db.owner`delete from app.participants where user_id = ${w.users.stranger}`;
    });

    it('Idea not found for unknown ids and for ideas the caller cannot see', async () => {
      await expectPgError(toggleIdea(w.actors.member, crypto.randomUUID()), 'HP404', 'Idea not found');
      await expectPgError(toggleIdea(w.actors.stranger, w.ideaA), 'HP404', 'Idea not found');
      await expectPgError(toggleIdea(w.actors.member, w.ideaB), 'HP404', 'Idea not found');
    });
  });
});

describe('deleting ideas and comments (app.delete_idea, app.delete_idea_comment)', () => {
  const w = usePlanWorld(db, { each: true });
  const deleteIdea = (claims: Claims, ideaId: string) => db.as(claims, (sql) => sql`select app.delete_idea(${ideaId})`);
  const deleteComment = (claims: Claims, ideaId: string, commentId: string) =>
    db.as(claims, (sql) => sql`select app.delete_idea_comment(${ideaId}, ${commentId})`);
  const exists = async (table: 'app.ideas' | 'app.idea_comments', id: string) =>
    (await db.owner`select 1 from ${db.owner(table)} where id = ${id}`).length === 1;
  const restoredGus = (): Claims => ({ ...w.actors.guest, guest_secret_hash: sha256Hex('new phone') });

  it('the author deletes their idea, with its votes and comments', async () => {
    await deleteIdea(w.actors.host, w.ideaA);
    expect(await exists('app.ideas', w.ideaA)).toBe(false);
    expect(await db.owner`select 1 from app.idea_votes where idea_id = ${w.ideaA}`).toHaveLength(0);
    expect(await exists('app.idea_comments', w.commentA)).toBe(false);
  });

  it("the host deletes anyone's idea, and a picked idea that goes is unpicked", async () => {
    const byGus = await addIdea(db.owner, w.planA, 'Spam spam', { guestId: w.guest });
    await db.owner`update app.plans set locked_idea_id = ${byGus} where id = ${w.planA}`;
    await deleteIdea(w.actors.host, byGus);
    expect(await exists('app.ideas', byGus)).toBe(false);
    expect((await db.owner`select locked_idea_id from app.plans where id = ${w.planA}`)[0].locked_idea_id).toBeNull();
  });

  it('a guest deletes its own idea from the device that joined, not from a device restored by name', async () => {
    const byGus = await addIdea(db.owner, w.planA, 'Mine', { guestId: w.guest });
    await db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${sha256Hex('new phone')}, 'restored')`;
    await expectPgError(deleteIdea(restoredGus(), byGus), 'HP403', 'This can only be done from the device that joined as Gus');
    expect(await exists('app.ideas', byGus)).toBe(true);
    await deleteIdea(w.actors.guest, byGus);
    expect(await exists('app.ideas', byGus)).toBe(false);
  });

  it('nobody else deletes an idea; unknown or unreadable ideas are not found', async () => {
    for (const actor of ['member', 'guest', 'strangerWithLink'] as const) {
      await expectPgError(deleteIdea(w.actors[actor], w.ideaA), 'HP403', 'Only the host or the person who suggested this idea can delete it');
    }
    await expectPgError(deleteIdea(w.actors.anonWithLink, w.ideaA), 'HP403');
    await expectPgError(deleteIdea(w.actors.stranger, w.ideaA), 'HP404', 'Idea not found');
    // The host of plan B hosts nothing here.
    await expectPgError(deleteIdea({ role: 'authenticated', sub: w.users.otherHost }, w.ideaA), 'HP404', 'Idea not found');
    await expectPgError(deleteIdea(w.actors.host, '00000000-0000-4000-8000-000000000000'), 'HP404', 'Idea not found');
    expect(await exists('app.ideas', w.ideaA)).toBe(true);
  });

  it('the author or the host deletes a comment; nobody else; a comment of another idea is not found', async () => {
    // Mia wrote commentA on the host's idea.
    await expectPgError(deleteComment(w.actors.guest, w.ideaA, w.commentA), 'HP403', 'Only the host or the person who wrote this comment can delete it');
    await expectPgError(deleteComment(w.actors.strangerWithLink, w.ideaA, w.commentA), 'HP403');
    await expectPgError(deleteComment(w.actors.host, w.ideaA, w.commentB), 'HP404', 'Comment not found');
    expect(await exists('app.idea_comments', w.commentA)).toBe(true);
    await deleteComment(w.actors.member, w.ideaA, w.commentA);
    expect(await exists('app.idea_comments', w.commentA)).toBe(false);

    const [again] = await db.owner<{ id: string }[]>`
      insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id)
      values (${w.ideaA}, ${w.planA}, 'buy my stuff', 'x', ${w.guest}) returning id`;
    await deleteComment(w.actors.host, w.ideaA, again.id);
    expect(await exists('app.idea_comments', again.id)).toBe(false);
  });
});

// Ideas: a plan's ideas list and suggesting one (/api/plans/{id}/ideas), and
// by idea id its vote, voters and comments, and deleting an idea or a comment
// (spec §7; docs/api.md "Ideas, comments, votes";
// docs/decisions/0065-moderation.md). Where the URL names an idea, the
// request's plan_id claim is the idea's plan, resolved in the claims
// statement (withRequest's ideaId): whoever holds an idea id may read its
// voters and comments, like the plan's. The host's pick of an idea is
// ../lock; suggestions from shared interests are ../interests.
//
// Writes need a participant: the signed-in caller (a valid token wins, joined
// on first write) or, without a token, a guest of the plan named by the
// body's guestId (another plan's guest: 403). Every parameter and body is
// validated before the database is touched; a malformed id is "Plan not
// found" / "Idea not found" like an unknown one. One transaction and one
// statement per request.
import { Hono } from 'hono';
import { deleteCaller } from '../../../_shared/auth/delete-caller.ts';
import { actingAs, optionalUserId } from '../../../_shared/auth/tokens.ts';
import { createCommentBody, createIdeaBody, guestIdQuery, voteBody } from '../../../_shared/contract/ideas-requests.ts';
import {
  COMMENT_NOT_FOUND,
  type Idea,
  IDEA_NOT_FOUND,
  type IdeaComment,
  JOIN_TO_COMMENT,
  JOIN_TO_SUGGEST,
  JOIN_TO_VOTE,
  PLAN_NOT_FOUND,
  type VoteResult,
} from '../../../_shared/contract/ideas.ts';
import { requestRow, withRequest } from '../../../_shared/db/client.ts';
import { idempotencyKeyOf } from '../../../_shared/db/idempotency.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { versionedColumns, versionedRead, type VersionedRow, viewerOf } from '../../../_shared/db/versioned.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody, validate } from '../../../_shared/http/validation.ts';
import { asWriter, commentJson, ideaJson, prepareIdeas, renderIdeas } from './idea-json.ts';
import { readVoters, viewersOwnVote } from './voters.ts';

export const ideaRoutes = new Hono()
  // Whoever holds the plan id may read its ideas (claim plan_id). Most votes
  // first, then oldest first. hasUserVoted is about the signed-in caller; a
  // guest (no token) may name itself with ?guestId= to get its own flags
  // (harmless: it only tells whether that guest voted, which the voters list
  // tells anyone anyway). Votes and comments are counted per idea in lateral
  // sub-selects over the (idea_id, plan_id) indexes: one statement, no N+1.
  // The ETag names the viewer too (hasUserVoted is theirs).
  .get('/plans/:id/ideas', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const guestId = userId ? null : validate(guestIdQuery, c.req.query('guestId'));
    const viewer = viewerOf(userId, guestId);
    // The list is the same for every reader (kept per plan version, see
    // _shared/db/versioned.ts); the viewer's own votes come with it, one index
    // lookup, and are added per request (renderIdeas).
    const response = await versionedRead(c, {
      key: `ideas:${planId}`,
      viewer,
      query: (known) =>
        requestRow({ userId, planId }, (tx) => tx<(VersionedRow & { mine: string[] })[]>`
            select ${versionedColumns(tx, known, tx`
              select coalesce(jsonb_agg(x.idea order by x.vote_count desc, x.created_at, x.id), '[]'::jsonb)
                from (
                  select i.id, i.created_at, votes.n as vote_count,
                         ${ideaJson(tx, 'i', { voteCount: tx`votes.n`, commentCount: tx`comments.n` })} as idea
                    from app.ideas i
                   cross join lateral (
                         select count(*)::int as n from app.idea_votes v
                          where v.idea_id = i.id and v.plan_id = i.plan_id
                         ) votes
                   cross join lateral (
                         select count(*)::int as n from app.idea_comments ic
                          where ic.idea_id = i.id and ic.plan_id = i.plan_id
                         ) comments
                   where i.plan_id = p.id
                ) x`)},
                   array(select v.idea_id::text from app.idea_votes v
                          where ${viewersOwnVote(tx, userId, guestId)}
                            and v.plan_id = p.id) as mine
              from app.plans p join app.plan_versions pv on pv.plan_id = p.id
             where p.id = ${planId}::uuid`),
      prepare: prepareIdeas,
      render: (shared, row) => renderIdeas(shared, row.mine),
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // A participant suggests an idea (app.add_idea): a signed-in caller (joined
  // on first write) or, without a token, a guest of THIS plan. authorName in
  // the body is ignored: the name comes from the author's participants row.
  .post('/plans/:id/ideas', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const { text, guestId: bodyGuestId } = await parseBody(c, createIdeaBody);
    const userId = await optionalUserId(c);
    const guestId = userId ? null : bodyGuestId;
    if (!userId && !guestId) throw new HttpError(401, JOIN_TO_SUGGEST);
    const idea = await asWriter(
      withRequest({ userId, guestId, planId }, async (tx) => {
        const [row] = await tx<{ idea: Idea }[]>`
          select ${ideaJson(tx, 'i', { voteCount: tx`0`, hasUserVoted: tx`false`, commentCount: tx`0` })} as idea
            from app.add_idea(${planId}::uuid, ${text}) i`;
        return row.idea;
      }, { limits: [{ limit: 'idea', key: participantKey(userId, guestId) }] }),
      PLAN_NOT_FOUND,
    );
    return c.json(idea, 201);
  })

  // Toggle (spec §4): voting again removes the vote. app.vote_on_idea (a
  // definer, private.vote_on_idea) checks the rules once, toggles the caller's
  // vote (race-free: unique keys + a per-voter lock) and counts the idea's
  // votes after the toggle. With an Idempotency-Key, a repeat replays the
  // first answer instead of toggling again (docs/offline.md "Idempotency keys").
  .post('/ideas/:id/vote', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const { guestId } = await parseBody(c, voteBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    const identity = actingAs(await optionalUserId(c), guestId, JOIN_TO_VOTE);
    // The rule, and the limit in the claims statement: one round trip.
    const result = await asWriter(
      requestRow(
        { ...identity, ideaId },
        (tx) => tx<VoteResult[]>`select voted, vote_count as "voteCount" from app.vote_on_idea(${ideaId}::uuid)`,
        { limits: [{ limit: 'vote', key: participantKey(identity.userId, identity.guestId) }], idempotencyKey },
      ),
      IDEA_NOT_FOUND,
    );
    return c.json(result);
  })

  // Spec §3 Voter, first voters first (see ./voters.ts).
  .get('/ideas/:id/voters', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `idea-voters:${ideaId}`,
      query: (known) => requestRow({ userId, ideaId }, (tx) => readVoters(tx, 'idea', ideaId, known)),
    });
    if (!response) throw new HttpError(404, IDEA_NOT_FOUND);
    return response;
  })

  // Oldest first (index (idea_id, plan_id, created_at)).
  .get('/ideas/:id/comments', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const userId = await optionalUserId(c);
    const response = await versionedRead(c, {
      key: `comments:${ideaId}`,
      query: (known) =>
        requestRow({ userId, ideaId }, (tx) => tx<VersionedRow[]>`
            select ${versionedColumns(tx, known, tx`
              select coalesce(jsonb_agg(${commentJson(tx, 'ic')} order by ic.created_at, ic.id), '[]'::jsonb)
                from app.idea_comments ic
               where ic.idea_id = i.id and ic.plan_id = i.plan_id`)}
              from app.ideas i join app.plan_versions pv on pv.plan_id = i.plan_id
             where i.id = ${ideaId}::uuid`),
    });
    if (!response) throw new HttpError(404, IDEA_NOT_FOUND);
    return response;
  })

  // app.add_idea_comment; authorName in the body is ignored (set by trigger).
  // With an Idempotency-Key, a repeat answers the first comment again.
  .post('/ideas/:id/comments', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const { text, guestId } = await parseBody(c, createCommentBody);
    const idempotencyKey = await idempotencyKeyOf(c);
    const identity = actingAs(await optionalUserId(c), guestId, JOIN_TO_COMMENT);
    const row = await asWriter(
      requestRow(
        { ...identity, ideaId },
        (tx) => tx<{ comment: IdeaComment }[]>`
          select ${commentJson(tx, 'ic')} as comment
            from app.add_idea_comment(${ideaId}::uuid, ${text}) ic`,
        { limits: [{ limit: 'comment', key: participantKey(identity.userId, identity.guestId) }], idempotencyKey },
      ),
      IDEA_NOT_FOUND,
    );
    return c.json(row!.comment, 201);
  })

  // The author or the plan's host (app.delete_idea: 404 unknown, 403 anyone
  // else, a guest author only from its joined device). Its votes and comments
  // go with it; the host's pick of it is undone.
  .delete('/ideas/:id', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const caller = await deleteCaller(c);
    await requestRow({ ...caller, ideaId }, (tx) => tx`select app.delete_idea(${ideaId}::uuid)`);
    return c.body(null, 204);
  })

  // The comment's author or the plan's host (app.delete_idea_comment: 404
  // unknown idea or a comment not on it, 403 anyone else).
  .delete('/ideas/:id/comments/:commentId', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const commentId = pathId(c.req.param('commentId'), COMMENT_NOT_FOUND);
    const caller = await deleteCaller(c);
    await requestRow(
      { ...caller, ideaId },
      (tx) => tx`select app.delete_idea_comment(${ideaId}::uuid, ${commentId}::uuid)`,
    );
    return c.body(null, 204);
  });

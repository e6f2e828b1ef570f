// /api/ideas/{id}/vote, /voters and /comments, and deleting an idea or a
// comment (spec §7; docs/decisions/0065-moderation.md; docs/api.md
// "Ideas, comments, votes"). The URL names an idea, so the request's plan_id claim is
// the idea's plan, resolved in the claims statement (withRequest's ideaId):
// whoever holds an idea id may read its voters and comments, like the plan's.
//
// Writes need a participant: the signed-in caller (a valid token wins, joined
// on first write) or, without a token, a guest of the idea's plan named by the
// body's guestId (another plan's guest: 403). Every parameter and body is
// validated before the database is touched; a malformed idea id is "Idea not
// found" like an unknown one. One transaction and one statement per request.
import { Hono } from 'hono';
import { actingAs, optionalUserId } from '../../../_shared/auth/tokens.ts';
import { createCommentBody, voteBody } from '../../../_shared/contract/ideas-requests.ts';
import { COMMENT_NOT_FOUND, IDEA_NOT_FOUND, type IdeaComment, JOIN_TO_COMMENT, JOIN_TO_VOTE, type VoteResult } from '../../../_shared/contract/ideas.ts';
import { requestRow } from '../../../_shared/db/client.ts';
import { deleteCaller } from '../../../_shared/auth/delete-caller.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { idempotencyKeyOf } from '../../../_shared/db/idempotency.ts';
import { asWriter, commentJson } from './idea-json.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { versionedColumns, versionedRead, type VersionedRow } from '../../../_shared/db/versioned.ts';
import { readVoters } from './voters.ts';

export const ideaRoutes = new Hono()
  // Toggle (spec §4): voting again removes the vote. app.vote_on_idea (a
  // definer, private.vote_on_idea) checks the rules once, toggles the caller's
  // vote (race-free: unique keys + a per-voter lock) and counts the idea's
  // votes after the toggle. With an Idempotency-Key, a repeat replays the
  // first answer instead of toggling again (docs/offline.md "Idempotency keys").
  .post('/:id/vote', async (c) => {
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

  // Spec §3 Voter, first voters first (see _shared/voters.ts).
  .get('/:id/voters', async (c) => {
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
  .get('/:id/comments', async (c) => {
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
  .post('/:id/comments', async (c) => {
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
  .delete('/:id', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const caller = await deleteCaller(c);
    await requestRow({ ...caller, ideaId }, (tx) => tx`select app.delete_idea(${ideaId}::uuid)`);
    return c.body(null, 204);
  })

  // The comment's author or the plan's host (app.delete_idea_comment: 404
  // unknown idea or a comment not on it, 403 anyone else).
  .delete('/:id/comments/:commentId', async (c) => {
    const ideaId = pathId(c.req.param('id'), IDEA_NOT_FOUND);
    const commentId = pathId(c.req.param('commentId'), COMMENT_NOT_FOUND);
    const caller = await deleteCaller(c);
    await requestRow(
      { ...caller, ideaId },
      (tx) => tx`select app.delete_idea_comment(${ideaId}::uuid, ${commentId}::uuid)`,
    );
    return c.body(null, 204);
  });

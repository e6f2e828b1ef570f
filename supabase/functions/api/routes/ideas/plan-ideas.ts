// /api/plans/{id}/ideas, /api/plans/{id}/pick-idea and
// /api/plans/{id}/activity-suggestions (spec §7; docs/api.md "Ideas, comments, votes",
// "Interests and suggestions"). Mounted on /plans next to the plan and
// joining routes (Hono merges the routes of several sub-apps on one prefix).
//
// Every parameter and body is validated before the database is touched; a
// malformed plan id is "Plan not found" like an unknown one. One transaction
// and one statement per request (pick-idea: two, pipelined in one round trip).
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { createIdeaBody, guestIdQuery, pickIdeaBody } from '../../../_shared/contract/ideas-requests.ts';
import { type ActivitySuggestions, type Idea, JOIN_TO_SUGGEST, type PickIdeaResult, PLAN_NOT_FOUND } from '../../../_shared/contract/ideas.ts';
import { requestRow, withRequest } from '../../../_shared/db/client.ts';
import { participantKey } from '../../../_shared/db/limits.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { asWriter, ideaJson, prepareIdeas, renderIdeas } from './idea-json.ts';
import { buildSuggestions, type SharedInterest } from '../interests/suggestions.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { deliverSoon, sendPlanNotices } from '../../../_shared/delivery/outbox.ts';
import { parseBody, validate } from '../../../_shared/http/validation.ts';
import { viewersOwnVote } from './voters.ts';
import { versionedColumns, versionedRead, type VersionedRow, viewerOf } from '../../../_shared/db/versioned.ts';

export const planIdeaRoutes = new Hono()
  // Whoever holds the plan id may read its ideas (claim plan_id). Most votes
  // first, then oldest first. hasUserVoted is about the signed-in caller; a
  // guest (no token) may name itself with ?guestId= to get its own flags
  // (harmless: it only tells whether that guest voted, which the voters list
  // tells anyone anyway). Votes and comments are counted per idea in lateral
  // sub-selects over the (idea_id, plan_id) indexes: one statement, no N+1.
  // The ETag names the viewer too (hasUserVoted is theirs).
  .get('/:id/ideas', async (c) => {
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
  .post('/:id/ideas', async (c) => {
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

  // Host only (app.pick_idea: 404 unknown plan, 403 not the host, 404 an idea
  // of another plan); picking the picked idea again un-picks it. Answers the
  // plan's lockedIdeaId afterwards. The plan's notice (when its budget allows
  // one now: docs/notifications.md "The notice budget") and the read are sent
  // without waiting for the pick (one round trip) and see its update.
  .post('/:id/pick-idea', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { ideaId } = await parseBody(c, pickIdeaBody);
    const result = await withRequest({ userId, planId }, async (tx) => {
      const pick = tx`select app.pick_idea(${planId}::uuid, ${ideaId}::uuid)`.execute();
      const notice = sendPlanNotices(tx, planId);
      const read = tx<PickIdeaResult[]>`
        select locked_idea_id as "lockedIdeaId" from app.plans where id = ${planId}::uuid`.execute();
      // Settle all before deciding: if the pick failed, its error (not the
      // "transaction aborted" of the statements behind it) is the answer.
      const [picked, noticed, readBack] = await Promise.allSettled([pick, notice, read]);
      if (picked.status === 'rejected') throw picked.reason;
      if (noticed.status === 'rejected') throw noticed.reason;
      if (readBack.status === 'rejected') throw readBack.reason;
      return readBack.value[0];
    });
    if (!result) throw new HttpError(404, PLAN_NOT_FOUND);
    deliverSoon(planId);
    return c.json(result);
  })

  // Activity ideas from the interests the plan's signed-in participants other
  // than the caller share (private.plan_shared_interests: an aggregate, most
  // shared first, naming nobody, never moved by the caller's own interests:
  // decision 0090), mapped to texts by plan-ideas/suggestions.ts, without texts
  // equal to an existing idea. Readable like the plan (claim plan_id).
  .get('/:id/activity-suggestions', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await optionalUserId(c);
    const input = await withRequest({ userId, planId }, async (tx) => {
      const [row] = await tx<{ interests: SharedInterest[]; ideaTexts: string[] }[]>`
        select (
                 select coalesce(jsonb_agg(jsonb_build_object('interest', s.interest, 'memberCount', s.member_count)
                                           order by s.n), '[]'::jsonb)
                   from private.plan_shared_interests(p.id) with ordinality as s(interest, member_count, n)
               ) as interests,
               (
                 select coalesce(jsonb_agg(i.text), '[]'::jsonb) from app.ideas i where i.plan_id = p.id
               ) as "ideaTexts"
          from app.plans p
         where p.id = ${planId}::uuid`;
      return row;
    });
    if (!input) throw new HttpError(404, PLAN_NOT_FOUND);
    const response: ActivitySuggestions = { suggestions: buildSuggestions(input.interests, input.ideaTexts) };
    return c.json(response);
  });

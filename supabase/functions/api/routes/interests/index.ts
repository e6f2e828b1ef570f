// Interests: /api/interests/catalog, /api/users/me/interests and a plan's
// activity suggestions, /api/plans/{id}/activity-suggestions (spec §2
// Interests, Manage Interests; §7; docs/api.md "Interests and suggestions").
// A user's interests are private to the user (RLS: own rows only); the
// catalogue is public; suggestions name nobody
// (docs/decisions/0037-suggestions-name-nobody.md).
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { type ActivitySuggestions, PLAN_NOT_FOUND } from '../../../_shared/contract/ideas.ts';
import { createInterestBody } from '../../../_shared/contract/interests-requests.ts';
import {
  type CatalogItem,
  INTEREST_NOT_FOUND,
  INTEREST_TAKEN,
  UNKNOWN_CATALOG_ITEM,
  type UserInterest,
} from '../../../_shared/contract/interests.ts';
import { withRequest } from '../../../_shared/db/client.ts';
import { isoTime } from '../../../_shared/db/sql.ts';
import { HttpError, isUniqueViolation, messages } from '../../../_shared/http/errors.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { buildSuggestions, type SharedInterest } from './suggestions.ts';

export const interestRoutes = new Hono()
  // The 8 seeded items in their fixed order (by id).
  .get('/interests/catalog', async (c) => {
    // Public knowledge; a token is not needed, but a bad one is still a 401
    // (never silently anonymous), like everywhere else.
    const userId = await optionalUserId(c);
    const items = await withRequest({ userId }, (tx) => tx<CatalogItem[]>`
      select id, name, icon from app.interest_catalog order by id`);
    return c.json(items);
  })

  // The signed-in user's own list. Oldest first, so a new interest appears at
  // the end of the list.
  .get('/users/me/interests', async (c) => {
    const userId = await requireUserId(c);
    const interests = await withRequest({ userId }, async (tx) => {
      const [row] = await tx<{ interests: UserInterest[] }[]>`
        select coalesce(jsonb_agg(jsonb_build_object(
                 'id', ui.id,
                 'freeFormText', ui.free_form_text,
                 'catalogId', ui.catalog_id,
                 'createdAt', ${isoTime(tx, 'ui')}
               ) order by ui.created_at, ui.id), '[]'::jsonb) as interests
          from app.user_interests ui
         where ui.user_id = ${userId}::uuid`;
      return row.interests;
    });
    return c.json(interests);
  })

  // {freeFormText} or {catalogId, freeFormText}; with a catalogId alone the
  // catalogue name is the text. One statement tells the outcomes apart: the
  // account is gone (401), the catalogue item is unknown (400), added (201);
  // a duplicate (trimmed, any case: unique index) is 23505 -> 409.
  .post('/users/me/interests', async (c) => {
    const userId = await requireUserId(c);
    const { freeFormText, catalogId } = await parseBody(c, createInterestBody);
    const outcome = await withRequest({ userId }, async (tx) => {
      try {
        const [row] = await tx<{ accountExists: boolean; catalogKnown: boolean; interest: UserInterest | null }[]>`
          with input as (
            select u.id as user_id, cat.id as catalog_id, cat.name as catalog_name
              from app.users u
              left join app.interest_catalog cat on cat.id = ${catalogId}::uuid
             where u.id = ${userId}::uuid
          ), added as (
            insert into app.user_interests (user_id, catalog_id, free_form_text)
            select input.user_id, input.catalog_id, coalesce(${freeFormText}::text, input.catalog_name)
              from input
             where ${catalogId}::uuid is null or input.catalog_id is not null
            returning *
          )
          select exists (select 1 from input) as "accountExists",
                 ${catalogId}::uuid is null or exists (select 1 from input where catalog_id is not null) as "catalogKnown",
                 (select jsonb_build_object(
                           'id', a.id,
                           'freeFormText', a.free_form_text,
                           'catalogId', a.catalog_id,
                           'createdAt', ${isoTime(tx, 'a')}
                         ) from added a) as interest`;
        return row;
      } catch (error) {
        if (isUniqueViolation(error, 'user_interests_user_id_text_key')) throw new HttpError(409, INTEREST_TAKEN);
        throw error;
      }
    });
    if (!outcome.accountExists) throw new HttpError(401, messages.sessionExpired);
    if (!outcome.catalogKnown || !outcome.interest) throw new HttpError(400, UNKNOWN_CATALOG_ITEM);
    return c.json(outcome.interest, 201);
  })

  // Only one's own (RLS and the user_id condition): anyone else's is "not found".
  .delete('/users/me/interests/:id', async (c) => {
    const interestId = pathId(c.req.param('id'), INTEREST_NOT_FOUND);
    const userId = await requireUserId(c);
    const deleted = await withRequest({ userId }, async (tx) => {
      const rows = await tx`
        delete from app.user_interests where id = ${interestId}::uuid and user_id = ${userId}::uuid returning id`;
      return rows.length > 0;
    });
    if (!deleted) throw new HttpError(404, INTEREST_NOT_FOUND);
    return c.body(null, 204);
  })

  // Activity ideas from the interests the plan's signed-in participants other
  // than the caller share (private.plan_shared_interests: an aggregate, most
  // shared first, naming nobody, never moved by the caller's own interests:
  // decision 0090), mapped to texts by ./suggestions.ts, without texts
  // equal to an existing idea. Readable like the plan (claim plan_id).
  .get('/plans/:id/activity-suggestions', async (c) => {
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

// SQL building blocks of the idea routes (./index.ts):
// the Idea / comment JSON built in the database (one statement per request, no
// N+1), and the mapping of the errors the idea rules raise beyond the shared
// HP4xx set. Everything runs under the request's role (withRequest), so RLS
// decides what is visible.
import type { Tx } from '../../../_shared/db/client.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { type Fragment, identifier, isoTime } from '../../../_shared/db/sql.ts';

/**
 * Spec §3 Idea of the app.ideas row aliased `alias`, with the counts given as
 * SQL. Without `hasUserVoted` the key is left out: the ideas list adds it per
 * viewer to a body shared by every reader (renderIdeas).
 */
export function ideaJson(
  tx: Tx,
  alias: string,
  counts: { voteCount: Fragment; hasUserVoted?: Fragment; commentCount: Fragment },
): Fragment {
  const i = identifier(tx, alias);
  const voted = counts.hasUserVoted ? tx`jsonb_build_object('hasUserVoted', ${counts.hasUserVoted})` : tx`'{}'::jsonb`;
  return tx`jsonb_build_object(
      'id', ${i}.id,
      'text', ${i}.text,
      'authorName', ${i}.author_name,
      'userId', ${i}.user_id,
      'guestId', ${i}.guest_id,
      'voteCount', ${counts.voteCount},
      'commentCount', ${counts.commentCount},
      'createdAt', ${isoTime(tx, alias)}
    ) || ${voted}`;
}

/** The ideas list as kept between requests: each idea's JSON without its closing brace, and its id. */
interface SharedIdeas {
  ids: string[];
  heads: string[];
}

/** From the list's JSON text (built without hasUserVoted) to what renderIdeas needs. */
export function prepareIdeas(text: string): SharedIdeas {
  const ideas = JSON.parse(text) as Array<{ id: string }>;
  return { ids: ideas.map((idea) => idea.id), heads: ideas.map((idea) => JSON.stringify(idea).slice(0, -1)) };
}

/** The list for one viewer: each idea with `hasUserVoted` for the ideas `mine` names. */
export function renderIdeas(shared: SharedIdeas, mine: readonly string[]): string {
  const voted = new Set(mine);
  const items = shared.heads.map((head, n) => `${head},"hasUserVoted":${voted.has(shared.ids[n])}}`);
  return `[${items.join(',')}]`;
}

/** Spec §3 Idea comment of the app.idea_comments row aliased `alias`. */
export function commentJson(tx: Tx, alias: string): Fragment {
  const c = identifier(tx, alias);
  return tx`jsonb_build_object(
      'id', ${c}.id,
      'text', ${c}.text,
      'authorName', ${c}.author_name,
      'userId', ${c}.user_id,
      'guestId', ${c}.guest_id,
      'createdAt', ${isoTime(tx, alias)}
    )`;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Await a write through an idea rule (app.add_idea, app.add_idea_comment,
 * app.vote_on_idea): a failed foreign key means the plan or idea was deleted
 * while we wrote (`gone`, 404). HP401 and the other rule states are mapped by
 * the shared error handler.
 */
export async function asWriter<T>(work: Promise<T>, gone: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const state = sqlState(error);
    if (state === '23503') throw new HttpError(404, gone);
    throw error;
  }
}

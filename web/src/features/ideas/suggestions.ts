// The suggestions panel's list (spec §2 Suggestions panel, §4, §5, §8, §9).
// Pure; tested in suggestions.test.ts.
//
//   1. The server's activity suggestions (source 'ai'), minus texts equal to an
//      existing idea (trimmed, any case) and repeats.
//   2. If that leaves nothing (server error or no data): the most-voted ideas
//      others suggested in this plan that the viewer has not voted for yet
//      (source 'popular', with `ideaId`: adding one backs it with a vote
//      instead of posting a duplicate).
//   3. Then the 5 generic ideas (source 'popular'), minus existing ones.
// At most 3 are shown.
import { normalizeIdeaText } from './ideas';
import type { Idea } from '../../../../supabase/functions/_shared/contract/ideas';

export const MAX_PANEL_SUGGESTIONS = 3;

/** Spec §8: the generic fallback suggestions, in this order. */
export const GENERIC_SUGGESTIONS = [
  'Grab coffee and catch up',
  'Try a new restaurant',
  'Go for a walk in the park',
  'Have a game night',
  'Watch a movie together',
] as const;

export interface Suggestion {
  text: string;
  source: 'ai' | 'popular';
  /** Set when the suggestion is an idea already in the plan (step 2). */
  ideaId?: string;
  voteCount?: number;
}

/** Who is looking: their own ideas are not suggested back to them. */
type SuggestionViewer = { userId?: string | null; guestId?: string | null } | null | undefined;

function isByViewer(idea: Pick<Idea, 'userId' | 'guestId'>, viewer: SuggestionViewer): boolean {
  if (!viewer) return false;
  return Boolean(
    (viewer.userId && idea.userId === viewer.userId) || (viewer.guestId && idea.guestId === viewer.guestId),
  );
}

export function buildPanelSuggestions({
  server,
  ideas,
  viewer,
  limit = MAX_PANEL_SUGGESTIONS,
}: {
  /** The server's texts; undefined when the call failed or has not answered. */
  server: readonly string[] | undefined;
  ideas: readonly Idea[];
  viewer: SuggestionViewer;
  limit?: number;
}): Suggestion[] {
  const existing = new Set(ideas.map((idea) => normalizeIdeaText(idea.text)));
  const seen = new Set<string>();
  const fresh = (text: string) => {
    const key = normalizeIdeaText(text);
    if (!key || existing.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  };

  const fromServer: Suggestion[] = (server ?? [])
    .filter(fresh)
    .map((text) => ({ text: text.trim(), source: 'ai' as const }));
  if (fromServer.length > 0) return fromServer.slice(0, limit);

  const popular: Suggestion[] = ideas
    .filter((idea) => idea.voteCount > 0 && !idea.hasUserVoted && !isByViewer(idea, viewer))
    .map((idea, index) => ({ idea, index }))
    .sort((a, b) => b.idea.voteCount - a.idea.voteCount || a.index - b.index)
    .map(({ idea }) => ({ text: idea.text, source: 'popular' as const, ideaId: idea.id, voteCount: idea.voteCount }));

  const generic: Suggestion[] = GENERIC_SUGGESTIONS.filter(fresh).map((text) => ({ text, source: 'popular' as const }));
  return [...popular, ...generic].slice(0, limit);
}

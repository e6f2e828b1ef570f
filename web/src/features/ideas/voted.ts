// Whether the current visitor of a plan voted on any of its ideas (the guest
// dashboard's progress uses it). A member: the ideas' hasUserVoted (token). A
// guest: the ideas fetched with ?guestId=, or the votes mirrored locally.
import { useQuery } from '@tanstack/react-query';
import { useGuestVotes } from '../../lib/guest-storage';
import { usePlanVisitor } from '../guests';
import { ideaListQueryOptions } from './queries';

export function useHasVotedOnIdeas(planId: string): boolean {
  const visitor = usePlanVisitor(planId);
  const localVotes = useGuestVotes();
  const guestId = visitor?.kind === 'guest' ? visitor.guestId : null;
  const ideas = useQuery({ ...ideaListQueryOptions(planId, guestId), enabled: Boolean(planId) && visitor != null });
  if (!visitor || !ideas.data) return false;
  if (ideas.data.some((idea) => idea.hasUserVoted)) return true;
  if (visitor.kind !== 'guest') return false;
  const ids = new Set(ideas.data.map((idea) => idea.id));
  return localVotes.planIdeaIds.some((id) => ids.has(id));
}

import { partialMatchKey, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestIdeaVote } from '../../lib/guest-storage';
import { showErrorMessage, showErrorToast } from '../../lib/toast';
import { guestBody, type PlanVisitor } from '../guests';
import { planKeys } from '../plans';
import type { Plan } from '../plans';
import { JOIN_TO_VOTE } from './ideas';
import { ideaKeys, refreshIdeas } from './queries';
import { type Idea, type VoteResult, voteResultSchema } from '../../../../supabase/functions/_shared/contract/ideas';

// The vote toggle on an idea (spec §4, §7): shown at once, settled on the
// server's answer, put back if it is refused.

export async function postVote(ideaId: string, visitor: PlanVisitor): Promise<VoteResult> {
  // A member goes by the token (empty body, spec §7); a guest names itself.
  const body = visitor.kind === 'guest' ? guestBody(visitor) : undefined;
  const res = await apiRequest('POST', apiPaths.idea(ideaId, 'vote'), body);
  return voteResultSchema.parse(await res.json());
}

/** The ideas lists of a plan as they were before a change. */
type IdeaListsSnapshot = [QueryKey, Idea[] | undefined][];

/**
 * Rewrites one idea in every cached ideas list of the plan; `own` tells the
 * visitor's own list (the one its hasUserVoted is about). Returns the lists as
 * they were.
 */
function updateIdeaInLists(
  queryClient: QueryClient,
  planId: string,
  ideaId: string,
  visitor: PlanVisitor,
  update: (idea: Idea, own: boolean) => Idea,
): IdeaListsSnapshot {
  const lists = queryClient.getQueriesData<Idea[]>({ queryKey: ideaKeys.lists(planId) });
  for (const [key, ideas] of lists) {
    if (!ideas) continue;
    const own = partialMatchKey(key, ownListKey(planId, visitor));
    queryClient.setQueryData<Idea[]>(key, ideas.map((idea) => (idea.id === ideaId ? update(idea, own) : idea)));
  }
  return lists;
}

/** The key of the visitor's own view of the ideas (the one its hasUserVoted is about). */
const ownListKey = (planId: string, visitor: PlanVisitor) => ideaKeys.list(planId, visitor.kind === 'guest' ? visitor.guestId : null);

/**
 * After a vote: the answer's count (and, in this viewer's own list, the
 * voted flag) at once, the guest's local mirror kept equal to the server's
 * answer, then the lists and the idea's voters are refetched.
 */
export function applyVote(queryClient: QueryClient, planId: string, ideaId: string, visitor: PlanVisitor, result: VoteResult) {
  updateIdeaInLists(queryClient, planId, ideaId, visitor, (idea, own) => ({
    ...idea,
    voteCount: result.voteCount,
    hasUserVoted: own ? result.voted : idea.hasUserVoted,
  }));
  if (visitor.kind === 'guest' && getGuestVotes().planIdeaIds.includes(ideaId) !== result.voted) {
    toggleGuestIdeaVote(ideaId);
  }
  void queryClient.invalidateQueries({ queryKey: ideaKeys.voters(planId, ideaId) });
  return refreshIdeas(queryClient, planId);
}

/**
 * Shows a vote toggle at once (before the server answers): in the visitor's
 * own list the idea flips its voted flag, and in every cached list of the
 * plan its count moves by one. Returns what to put back if the vote fails.
 * Nothing changes when the visitor's own list is not cached (the direction of
 * the toggle is unknown); the answer then fills it in.
 */
function showVoteAtOnce(queryClient: QueryClient, planId: string, ideaId: string, visitor: PlanVisitor): IdeaListsSnapshot {
  const ownList = queryClient.getQueryData<Idea[]>(ownListKey(planId, visitor));
  const before = ownList?.find((idea) => idea.id === ideaId);
  if (!before) return [];
  const delta = before.hasUserVoted ? -1 : 1;
  return updateIdeaInLists(queryClient, planId, ideaId, visitor, (idea, own) => ({
    ...idea,
    voteCount: Math.max(0, idea.voteCount + delta),
    hasUserVoted: own ? !idea.hasUserVoted : idea.hasUserVoted,
  }));
}

/** Spec §5: nobody to vote as → the join page, with the error toast. */
export function useSendToJoin(slug: string | undefined) {
  const navigate = useNavigate();
  return () => {
    showErrorMessage('Error', JOIN_TO_VOTE);
    if (slug) navigate(paths.join.getHref(slug));
  };
}

/**
 * Toggle the visitor's vote on one idea (spec §4), shown at once and put back
 * if the server refuses. `visitor` null sends the visitor to /l/{slug}
 * (spec §5); undefined (still loading) does nothing. One toggle at a time per
 * idea: a tap while one is on its way is ignored.
 */
export function useVoteOnIdea(
  plan: Pick<Plan, 'id' | 'slug'> | undefined,
  ideaId: string,
  visitor: PlanVisitor | null | undefined,
) {
  const queryClient = useQueryClient();
  const sendToJoin = useSendToJoin(plan?.slug);
  const mutation = useMutation({
    mutationKey: plan ? planKeys.mutation(plan.id, 'vote-idea') : undefined,
    mutationFn: (voter: PlanVisitor) => postVote(ideaId, voter),
    // Optimistic: the toggle shows at once; a refetch already under way must
    // not bring the old state back over it.
    onMutate: async (voter) => {
      if (!plan) return { previous: [] as IdeaListsSnapshot };
      await queryClient.cancelQueries({ queryKey: ideaKeys.lists(plan.id) });
      return { previous: showVoteAtOnce(queryClient, plan.id, ideaId, voter) };
    },
    // Settles on the server's answer (its count includes everyone's votes).
    onSuccess: (result, voter) => (plan ? applyVote(queryClient, plan.id, ideaId, voter, result) : undefined),
    // Failed: back to what was shown before, and the toast says why.
    onError: (error, _voter, context) => {
      for (const [key, ideas] of context?.previous ?? []) queryClient.setQueryData(key, ideas);
      showErrorToast(error, 'Failed to vote on idea');
    },
  });
  const vote = () => {
    if (visitor === undefined || mutation.isPending) return;
    if (visitor === null) sendToJoin();
    else mutation.mutate(visitor);
  };
  return { vote, isPending: mutation.isPending };
}

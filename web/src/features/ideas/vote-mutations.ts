import { partialMatchKey, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestIdeaVote } from '../../lib/guest-storage';
import {
  actionIdentity,
  defineOfflineActionKind,
  useOfflineActionKind,
  usePendingActions,
  type ActionOutcome,
  type OfflineAction,
} from '../../lib/offline-actions';
import { showErrorMessage } from '../../lib/toast';
import { guestBody, type PlanVisitor } from '../guests';
import { planKeys } from '../plans';
import type { Plan } from '../plans';
import { JOIN_TO_VOTE } from './ideas';
import { ideaKeys, refreshIdeas } from './queries';
import { type Idea, type VoteResult, voteResultSchema } from '../../../../supabase/functions/_shared/contract/ideas';

// The vote toggle on an idea (spec §4, §7): shown at once, settled on the
// server's answer, put back if it is refused. It goes through the device's
// outbox (lib/offline-actions/): made with no network, it stays shown,
// marked "Waiting for connection", and is sent when the network is back.

/** Who voted, as far as the ideas lists go: a member (by token) or a guest (by id). */
type Voter = { kind: 'member' } | { kind: 'guest'; guestId: string };

/**
 * Rewrites one idea in every cached ideas list of the plan; `own` tells the
 * visitor's own list (the one its hasUserVoted is about).
 */
function updateIdeaInLists(
  queryClient: QueryClient,
  planId: string,
  ideaId: string,
  visitor: Voter,
  update: (idea: Idea, own: boolean) => Idea,
): void {
  for (const [key, ideas] of queryClient.getQueriesData<Idea[]>({ queryKey: ideaKeys.lists(planId) })) {
    if (!ideas) continue;
    const own = partialMatchKey(key, ownListKey(planId, visitor));
    queryClient.setQueryData<Idea[]>(key, ideas.map((idea) => (idea.id === ideaId ? update(idea, own) : idea)));
  }
}

/** The key of the visitor's own view of the ideas (the one its hasUserVoted is about). */
const ownListKey = (planId: string, visitor: Voter) => ideaKeys.list(planId, visitor.kind === 'guest' ? visitor.guestId : null);

/**
 * After a vote: the answer's count (and, in this viewer's own list, the
 * voted flag) at once, the guest's local mirror kept equal to the server's
 * answer, then the lists and the idea's voters are refetched.
 */
export function applyVote(queryClient: QueryClient, planId: string, ideaId: string, visitor: Voter, result: VoteResult) {
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

/** Spec §5: nobody to vote as → the join page, with the error toast. */
export function useSendToJoin(slug: string | undefined) {
  const navigate = useNavigate();
  return () => {
    showErrorMessage('Error', JOIN_TO_VOTE);
    if (slug) navigate(paths.join.getHref(slug));
  };
}

/** What an idea vote meant when tapped: the idea, and whether it was a vote (false: an unvote; null: unknown). */
interface IdeaVoteData {
  ideaId: string;
  voted: boolean | null;
}

/**
 * One ideas list with the vote shown (`voted`: the toggle's direction) or
 * taken back (`!voted`). In the visitor's own list the idea takes that voted
 * flag, and its count moves only if the flag changed (the server may have the
 * vote already: an answer lost on the way); in another viewer's list the
 * count moves by one.
 */
function ideaVoteShown(key: QueryKey, data: unknown, action: OfflineAction<IdeaVoteData>, voted: boolean): unknown {
  const { planId, as } = action;
  if (!partialMatchKey(key, ideaKeys.lists(planId)) || !Array.isArray(data)) return data;
  const ideas = data as Idea[];
  const index = ideas.findIndex((idea) => idea.id === action.data.ideaId);
  if (index < 0) return data;
  const idea = ideas[index]!;
  const own = partialMatchKey(key, ownListKey(planId, as));
  if (own && idea.hasUserVoted === voted) return data;
  const next = [...ideas];
  next[index] = { ...idea, voteCount: Math.max(0, idea.voteCount + (voted ? 1 : -1)), hasUserVoted: own ? voted : idea.hasUserVoted };
  return next;
}

/** Idea votes in the outbox: shown in the ideas lists until answered, then settled on the answer. */
const ideaVotes = defineOfflineActionKind<IdeaVoteData>('vote-idea', {
  show: (key, data, action) => (action.data.voted === null ? data : ideaVoteShown(key, data, action, action.data.voted)),
  unshow: (key, data, action) => (action.data.voted === null ? data : ideaVoteShown(key, data, action, !action.data.voted)),
  sent: (queryClient, action, answer) => applyVote(queryClient, action.planId, action.data.ideaId, action.as, voteResultSchema.parse(answer)),
});

/**
 * The direction of a tap: the opposite of what the visitor's own list shows,
 * null when that list is not cached (the answer then tells).
 */
function tapDirection(queryClient: QueryClient, planId: string, ideaId: string, visitor: PlanVisitor): boolean | null {
  const idea = queryClient.getQueryData<Idea[]>(ownListKey(planId, visitor))?.find((i) => i.id === ideaId);
  return idea ? !idea.hasUserVoted : null;
}

/** What the outbox knows an idea's vote by: one action at a time per idea. */
const voteTarget = (ideaId: string) => `idea:${ideaId}`;

/**
 * One tap on an idea's vote toggle, into the outbox: shown at once, sent
 * with its own idempotency key now or when the network is back. A refusal
 * is put back and toasted by the outbox (with `failure` when the server gave
 * no sentence).
 */
export function submitIdeaVote(
  queryClient: QueryClient,
  { planId, ideaId, voter, failure }: { planId: string; ideaId: string; voter: PlanVisitor; failure: string },
): Promise<ActionOutcome> {
  return ideaVotes.submit({
    planId,
    target: voteTarget(ideaId),
    path: apiPaths.idea(ideaId, 'vote'),
    // A member goes by the token (empty body, spec §7); a guest names itself.
    body: voter.kind === 'guest' ? guestBody(voter) : undefined,
    as: actionIdentity(voter),
    data: { ideaId, voted: tapDirection(queryClient, planId, ideaId, voter) },
    noun: 'vote',
    failure,
  });
}

/** For the screens that submit idea votes: the outbox knows how to show and settle them. */
export const useIdeaVoteKind = () => useOfflineActionKind(ideaVotes);

/**
 * Toggle the visitor's vote on one idea (spec §4), shown at once and put back
 * if the server refuses. `visitor` null sends the visitor to /l/{slug}
 * (spec §5); undefined (still loading) does nothing. One toggle at a time per
 * idea: a tap while one is on its way, or waiting for the network, is
 * ignored. `waiting`: it is kept on the device until the network is back.
 */
export function useVoteOnIdea(
  plan: Pick<Plan, 'id' | 'slug'> | undefined,
  ideaId: string,
  visitor: PlanVisitor | null | undefined,
) {
  const queryClient = useQueryClient();
  const sendToJoin = useSendToJoin(plan?.slug ?? undefined);
  useIdeaVoteKind();
  const pending = usePendingActions(plan?.id).find((action) => action.target === voteTarget(ideaId));
  const mutationKey = plan ? planKeys.mutation(plan.id, ideaVotes.name) : undefined;
  // Through the mutation cache too: the plan's live updates wait while a tap is on its way.
  const mutation = useMutation({
    mutationKey,
    // Tapped with no network, it still goes to the outbox (TanStack would hold it back).
    networkMode: 'always',
    mutationFn: ({ planId, voter }: { planId: string; voter: PlanVisitor }) =>
      submitIdeaVote(queryClient, { planId, ideaId, voter, failure: 'Failed to vote on idea' }),
  });
  const isPending = Boolean(pending) || mutation.isPending;
  const vote = () => {
    if (!plan || visitor === undefined || isPending) return;
    if (visitor === null) sendToJoin();
    else mutation.mutate({ planId: plan.id, voter: visitor });
  };
  return { vote, isPending, waiting: pending?.waiting ?? false };
}

import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestIdeaVote } from '../../lib/guest-storage';
import { showErrorMessage, showErrorToast } from '../../lib/toast';
import { guestBody, type PlanVisitor } from '../guests/visitor';
import { planKeys } from '../plans/queries';
import type { Plan } from '../plans/schema';
import { checkWrite, JOIN_TO_VOTE, type IdeaWriter } from './ideas';
import { ideaKeys } from './queries';
import {
  ideaCommentSchema,
  ideaSchema,
  pickIdeaResultSchema,
  voteResultSchema,
  type Idea,
  type IdeaComment,
  type VoteResult,
} from './schema';
import type { Suggestion } from './suggestions';

// The ideas writes (spec §7). Each refetches what it changed; the spec §5
// checks run before any request and answer with their own sentence.

/** A spec §5 check that failed before any request: shown as is. */
class CheckError extends Error {}

function showFailure(error: unknown, fallback: string): void {
  if (error instanceof CheckError) showErrorMessage('Error', error.message);
  else showErrorToast(error, fallback);
}

function writerOf(visitor: PlanVisitor | null | undefined): IdeaWriter {
  if (visitor?.kind === 'guest') return { kind: 'guest', name: visitor.name };
  if (visitor?.kind === 'member') return { kind: 'member', email: visitor.email };
  return null;
}

function assertCanWrite(planId: string | null | undefined, text: string, visitor: PlanVisitor | null | undefined): void {
  const problem = checkWrite({ planId, text, writer: writerOf(visitor) });
  if (problem) throw new CheckError(problem);
}

async function postIdea(planId: string, text: string, visitor: PlanVisitor | null | undefined): Promise<Idea> {
  assertCanWrite(planId, text, visitor);
  const res = await apiRequest('POST', apiPaths.ideas(planId), {
    text: text.trim(),
    authorName: visitor?.name,
    ...guestBody(visitor),
  });
  return ideaSchema.parse(await res.json());
}

async function postVote(ideaId: string, visitor: PlanVisitor): Promise<VoteResult> {
  // A member goes by the token (empty body, spec §7); a guest names itself.
  const body = visitor.kind === 'guest' ? guestBody(visitor) : undefined;
  const res = await apiRequest('POST', apiPaths.idea(ideaId, 'vote'), body);
  return voteResultSchema.parse(await res.json());
}

/** Every ideas list of the plan, and its suggestions (they exclude existing ideas). */
function refreshIdeas(queryClient: QueryClient, planId: string) {
  void queryClient.invalidateQueries({ queryKey: ideaKeys.suggestions(planId) });
  return queryClient.invalidateQueries({ queryKey: ideaKeys.lists(planId) });
}

/**
 * After a vote: the answer's count (and, in this viewer's own list, the
 * voted flag) at once, the guest's local mirror kept equal to the server's
 * answer, then the lists and the idea's voters are refetched.
 */
function applyVote(queryClient: QueryClient, planId: string, ideaId: string, visitor: PlanVisitor, result: VoteResult) {
  const ownGuestId = visitor.kind === 'guest' ? visitor.guestId : null;
  for (const [key, ideas] of queryClient.getQueriesData<Idea[]>({ queryKey: ideaKeys.lists(planId) })) {
    if (!ideas) continue;
    const own = (key[key.length - 1] as { guestId: string | null } | undefined)?.guestId === ownGuestId;
    queryClient.setQueryData<Idea[]>(
      key,
      ideas.map((idea) =>
        idea.id === ideaId
          ? { ...idea, voteCount: result.voteCount, hasUserVoted: own ? result.voted : idea.hasUserVoted }
          : idea,
      ),
    );
  }
  if (visitor.kind === 'guest' && getGuestVotes().planIdeaIds.includes(ideaId) !== result.voted) {
    toggleGuestIdeaVote(ideaId);
  }
  void queryClient.invalidateQueries({ queryKey: ideaKeys.voters(planId, ideaId) });
  return refreshIdeas(queryClient, planId);
}

/** The ideas lists of a plan as they were before an optimistic change. */
type IdeaListsSnapshot = [QueryKey, Idea[] | undefined][];

/**
 * Shows a vote toggle at once (before the server answers): in the visitor's
 * own list the idea flips its voted flag, and in every cached list of the
 * plan its count moves by one. Returns what to put back if the vote fails.
 * Nothing changes when the visitor's own list is not cached (the direction of
 * the toggle is unknown); the answer then fills it in.
 */
function showVoteAtOnce(queryClient: QueryClient, planId: string, ideaId: string, visitor: PlanVisitor): IdeaListsSnapshot {
  const ownGuestId = visitor.kind === 'guest' ? visitor.guestId : null;
  const lists = queryClient.getQueriesData<Idea[]>({ queryKey: ideaKeys.lists(planId) });
  const isOwn = (key: QueryKey) => (key[key.length - 1] as { guestId: string | null } | undefined)?.guestId === ownGuestId;
  const before = lists.find(([key]) => isOwn(key))?.[1]?.find((idea) => idea.id === ideaId);
  if (!before) return [];
  const delta = before.hasUserVoted ? -1 : 1;
  for (const [key, ideas] of lists) {
    if (!ideas) continue;
    queryClient.setQueryData<Idea[]>(
      key,
      ideas.map((idea) =>
        idea.id === ideaId
          ? {
              ...idea,
              voteCount: Math.max(0, idea.voteCount + delta),
              hasUserVoted: isOwn(key) ? !idea.hasUserVoted : idea.hasUserVoted,
            }
          : idea,
      ),
    );
  }
  return lists;
}

/** Spec §5: nobody to vote as → the join page, with the error toast. */
function useSendToJoin(slug: string | undefined) {
  const navigate = useNavigate();
  return () => {
    showErrorMessage('Error', JOIN_TO_VOTE);
    if (slug) navigate(paths.join.getHref(slug));
  };
}

/** Suggest an idea: POST /api/plans/{id}/ideas. */
export function useAddIdea(planId: string, visitor: PlanVisitor | null | undefined, { onAdded }: { onAdded?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'add-idea'),
    mutationFn: (text: string) => postIdea(planId, text, visitor),
    onSuccess: async () => {
      onAdded?.();
      await refreshIdeas(queryClient, planId);
    },
    onError: (error) => showFailure(error, 'Failed to add idea'),
  });
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

/** Post a comment: POST /api/ideas/{id}/comments. */
export function useAddComment(
  planId: string,
  ideaId: string,
  visitor: PlanVisitor | null | undefined,
  { onAdded }: { onAdded?: () => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'comment'),
    mutationFn: async (text: string): Promise<IdeaComment> => {
      assertCanWrite(undefined, text, visitor); // a comment needs no plan id
      const res = await apiRequest('POST', apiPaths.idea(ideaId, 'comments'), {
        text: text.trim(),
        authorName: visitor?.name,
        ...guestBody(visitor),
      });
      return ideaCommentSchema.parse(await res.json());
    },
    onSuccess: async (comment) => {
      onAdded?.();
      queryClient.setQueryData<IdeaComment[]>(ideaKeys.comments(planId, ideaId), (current) =>
        current && !current.some((c) => c.id === comment.id) ? [...current, comment] : current,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ideaKeys.comments(planId, ideaId) }),
        queryClient.invalidateQueries({ queryKey: ideaKeys.lists(planId) }),
      ]);
    },
    onError: (error) => showFailure(error, 'Failed to add comment'),
  });
}

/**
 * Host only: POST /api/plans/{id}/pick-idea (picking the picked idea again
 * un-picks it). The plan is refreshed so the status card shows the idea.
 */
export function usePickIdea(plan: Pick<Plan, 'id' | 'slug'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'pick-idea'),
    mutationFn: async (ideaId: string) => {
      const res = await apiRequest('POST', apiPaths.planAction(plan.id, 'pick-idea'), { ideaId });
      return pickIdeaResultSchema.parse(await res.json());
    },
    onSuccess: async ({ lockedIdeaId }) => {
      queryClient.setQueryData<Plan>(planKeys.detail(plan.id), (current) => (current ? { ...current, lockedIdeaId } : current));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: planKeys.detail(plan.id) }),
        queryClient.invalidateQueries({ queryKey: planKeys.bySlug(plan.slug) }),
        queryClient.invalidateQueries({ queryKey: planKeys.list() }),
      ]);
    },
    onError: (error) => showErrorToast(error, 'Failed to pick idea'),
  });
}

/**
 * The suggestions panel's Add: every selected suggestion, one after the other
 * (so they keep their order): a new text is posted, an existing idea
 * ('popular', with ideaId) gets the visitor's vote. Resolves to how many failed.
 */
export function useAddSuggestions(plan: Pick<Plan, 'id' | 'slug'>, visitor: PlanVisitor | null | undefined) {
  const queryClient = useQueryClient();
  const sendToJoin = useSendToJoin(plan.slug);
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'add-suggestions'),
    mutationFn: async (selected: readonly Suggestion[]) => {
      const failures: unknown[] = [];
      for (const suggestion of selected) {
        try {
          if (suggestion.ideaId) {
            if (!visitor) throw new CheckError(JOIN_TO_VOTE);
            const result = await postVote(suggestion.ideaId, visitor);
            await applyVote(queryClient, plan.id, suggestion.ideaId, visitor, result);
          } else {
            await postIdea(plan.id, suggestion.text, visitor);
          }
        } catch (error) {
          failures.push(error);
        }
      }
      return { failures, total: selected.length };
    },
    onSettled: () => refreshIdeas(queryClient, plan.id),
    onSuccess: ({ failures, total }) => {
      if (failures.length === 0) return;
      const first = failures[0];
      if (first instanceof CheckError && first.message === JOIN_TO_VOTE && failures.length === total) sendToJoin();
      else if (total === 1) showFailure(first, 'Failed to add idea');
      else showErrorMessage('Error', 'Failed to add some ideas');
    },
  });
}

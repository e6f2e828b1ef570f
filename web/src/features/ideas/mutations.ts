import { partialMatchKey, type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import {
  actionIdentity,
  defineOfflineActionKind,
  useOfflineActionKind,
  usePendingActions,
  type ActionOutcome,
  type OfflineAction,
  type PendingAction,
} from '../../lib/offline-actions';
import { showErrorMessage, showErrorToast, showSuccessToast } from '../../lib/toast';
import { guestBody, type PlanVisitor } from '../guests';
import { planKeys } from '../plans';
import type { Plan } from '../plans';
import { checkWrite, JOIN_TO_VOTE, type IdeaWriter } from './ideas';
import { ideaKeys, refreshComments, refreshIdeas } from './queries';
import { type Idea, type IdeaComment, ideaCommentSchema, ideaSchema, pickIdeaResultSchema } from '../../../../supabase/functions/_shared/contract/ideas';
import type { Suggestion } from './suggestions';
import { submitIdeaVote, useIdeaVoteKind, useSendToJoin } from './vote-mutations';

// The ideas writes but the vote toggle (spec §7; the vote is vote-mutations.ts).
// Each refetches what it changed; the spec §5 checks run before any request
// and answer with their own sentence.

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

/** What a comment meant when posted: its idea, and what the thread shows until it is sent. */
interface CommentData {
  ideaId: string;
  text: string;
  authorName: string;
}

/** The ideas lists with the comment counted on its idea (`step` 1), or no longer (-1). */
function commentCounted(key: QueryKey, data: unknown, action: OfflineAction<CommentData>, step: 1 | -1): unknown {
  if (!partialMatchKey(key, ideaKeys.lists(action.planId)) || !Array.isArray(data)) return data;
  const ideas = data as Idea[];
  if (!ideas.some((idea) => idea.id === action.data.ideaId)) return data;
  return ideas.map((idea) => (idea.id === action.data.ideaId ? { ...idea, commentCount: Math.max(0, idea.commentCount + step) } : idea));
}

/**
 * Comments in the outbox: counted on their idea until answered (the thread
 * lists them itself, CommentThread), then added to the thread from the answer.
 */
const comments = defineOfflineActionKind<CommentData>('comment', {
  show: (key, data, action) => commentCounted(key, data, action, 1),
  unshow: (key, data, action) => commentCounted(key, data, action, -1),
  sent: (queryClient, action, answer) => {
    const comment = ideaCommentSchema.parse(answer);
    const { planId, data } = action;
    queryClient.setQueryData<IdeaComment[]>(ideaKeys.comments(planId, data.ideaId), (current) =>
      current && !current.some((c) => c.id === comment.id) ? [...current, comment] : current,
    );
    return refreshComments(queryClient, planId, data.ideaId);
  },
});

/** The visitor's comments on an idea still in the outbox, oldest first. */
export function usePendingComments(planId: string, ideaId: string): PendingAction<CommentData>[] {
  return usePendingActions(planId).filter(
    (action): action is PendingAction<CommentData> => action.kind === comments.name && (action.data as CommentData).ideaId === ideaId,
  );
}

/**
 * Post a comment: POST /api/ideas/{id}/comments, through the device's outbox.
 * `onAdded` (the box empties) once it is sent, or kept on the device until
 * the network is back; a refusal keeps the text.
 */
export function useAddComment(
  planId: string,
  ideaId: string,
  visitor: PlanVisitor | null | undefined,
  { onAdded }: { onAdded?: () => void } = {},
) {
  useOfflineActionKind(comments);
  return useMutation({
    mutationKey: planKeys.mutation(planId, comments.name),
    // Posted with no network, it still goes to the outbox (TanStack would hold it back).
    networkMode: 'always',
    mutationFn: async (text: string): Promise<ActionOutcome> => {
      assertCanWrite(undefined, text, visitor); // a comment needs no plan id
      const author = visitor!;
      return comments.submit({
        planId,
        target: `comment:${ideaId}`,
        path: apiPaths.idea(ideaId, 'comments'),
        body: { text: text.trim(), authorName: author.name, ...guestBody(author) },
        as: actionIdentity(author),
        data: { ideaId, text: text.trim(), authorName: author.name },
        noun: 'comment',
        failure: 'Failed to add comment',
      });
    },
    onSuccess: (outcome) => {
      if (outcome === 'sent' || outcome === 'queued') onAdded?.();
    },
    // Only the spec §5 checks fail here: the outbox toasts the server's refusals.
    onError: (error) => showFailure(error, 'Failed to add comment'),
  });
}

/** What a delete touches: the plan's whole idea side (lists, comments, voters) and the plan (a picked idea unpicks). */
async function refreshAfterDelete(queryClient: QueryClient, plan: Pick<Plan, 'id' | 'slug'>): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ideaKeys.all(plan.id) }),
    queryClient.invalidateQueries({ queryKey: planKeys.detail(plan.id) }),
    plan.slug ? queryClient.invalidateQueries({ queryKey: planKeys.bySlug(plan.slug) }) : undefined,
  ]);
}

/** The author or the host deletes an idea, with its votes and comments: DELETE /api/ideas/{id}. */
export function useDeleteIdea(plan: Pick<Plan, 'id' | 'slug'>, visitor: PlanVisitor | null | undefined, { onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'delete-idea'),
    mutationFn: async (ideaId: string) => {
      await apiRequest('DELETE', apiPaths.deleteIdea(ideaId, guestBody(visitor).guestId));
      return ideaId;
    },
    onSuccess: async (ideaId) => {
      onDeleted?.();
      queryClient.setQueriesData<Idea[]>({ queryKey: ideaKeys.lists(plan.id) }, (current) => current?.filter((idea) => idea.id !== ideaId));
      showSuccessToast('Idea deleted', 'Its votes and comments are gone too');
      await refreshAfterDelete(queryClient, plan);
    },
    onError: (error) => showErrorToast(error, 'Failed to delete idea'),
  });
}

/** The author or the host deletes a comment: DELETE /api/ideas/{id}/comments/{commentId}. */
export function useDeleteComment(planId: string, ideaId: string, visitor: PlanVisitor | null | undefined, { onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'delete-comment'),
    mutationFn: async (commentId: string) => {
      await apiRequest('DELETE', apiPaths.deleteComment(ideaId, commentId, guestBody(visitor).guestId));
      return commentId;
    },
    onSuccess: async (commentId) => {
      onDeleted?.();
      queryClient.setQueryData<IdeaComment[]>(ideaKeys.comments(planId, ideaId), (current) => current?.filter((c) => c.id !== commentId));
      showSuccessToast('Comment deleted', 'It is gone for everyone');
      await refreshComments(queryClient, planId, ideaId);
    },
    onError: (error) => showErrorToast(error, 'Failed to delete comment'),
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
        plan.slug ? queryClient.invalidateQueries({ queryKey: planKeys.bySlug(plan.slug) }) : undefined,
        queryClient.invalidateQueries({ queryKey: planKeys.list() }),
      ]);
    },
    onError: (error) => showErrorToast(error, 'Failed to pick idea'),
  });
}

/**
 * The suggestions panel's Add: every selected suggestion, one after the other
 * (so they keep their order): a new text is posted, an existing idea
 * ('popular', with ideaId) gets the visitor's vote, through the outbox like
 * any vote (shown at once, kept for the network if there is none). Resolves
 * to the failures not yet told (the outbox toasts a refused vote itself).
 */
export function useAddSuggestions(plan: Pick<Plan, 'id' | 'slug'>, visitor: PlanVisitor | null | undefined) {
  const queryClient = useQueryClient();
  const sendToJoin = useSendToJoin(plan.slug ?? undefined);
  useIdeaVoteKind();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'add-suggestions'),
    // A vote with no network still goes to the outbox (TanStack would hold the whole Add back).
    networkMode: 'always',
    mutationFn: async (selected: readonly Suggestion[]) => {
      const failures: unknown[] = [];
      let told = 0;
      for (const suggestion of selected) {
        try {
          if (suggestion.ideaId) {
            if (!visitor) throw new CheckError(JOIN_TO_VOTE);
            const outcome = await submitIdeaVote(queryClient, { planId: plan.id, ideaId: suggestion.ideaId, voter: visitor, failure: 'Failed to add idea' });
            if (outcome === 'refused' || outcome === 'dropped') told += 1;
          } else {
            await postIdea(plan.id, suggestion.text, visitor);
          }
        } catch (error) {
          failures.push(error);
        }
      }
      return { failures, told, total: selected.length };
    },
    onSettled: () => refreshIdeas(queryClient, plan.id),
    onSuccess: ({ failures, told, total }) => {
      if (failures.length === 0) return;
      const first = failures[0];
      if (first instanceof CheckError && first.message === JOIN_TO_VOTE && failures.length === total) sendToJoin();
      else if (total - told === 1) showFailure(first, 'Failed to add idea');
      else showErrorMessage('Error', 'Failed to add some ideas');
    },
  });
}

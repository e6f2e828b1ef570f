// Answering (docs/api-after-the-date.md "Who's coming"): the caller's own answer goes
// through the device's outbox as the kind `answer-rsvp` (a PUT with its
// Idempotency-Key), shown at once and marked "Waiting for connection" with no
// network (docs/offline.md); the host's answer for someone and the host's
// spots are plain writes. Each then refreshes the answers, the plan (its
// `answers` counts) and the home list.
import { partialMatchKey, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import {
  actionIdentity,
  defineOfflineActionKind,
  useOfflineActionKind,
  usePendingActions,
  type ActionIdentity,
  type OfflineAction,
} from '../../lib/offline-actions';
import { planKeys, rsvpKeys } from '../../lib/query-keys';
import { showErrorToast } from '../../lib/toast';
import { isFull } from './rsvps';
import { type RsvpAnswer, rsvpResultSchema, type Rsvps, rsvpsSchema } from '../../../../supabase/functions/_shared/contract/rsvps';

/** Who answers: a member by the token, a guest by its id (the plan page's user, the dashboard's visitor). */
export type Answerer = { kind: 'member'; userId: string; name: string } | { kind: 'guest'; guestId: string; name: string };

type Mine = NonNullable<Rsvps['mine']>;

/** What an answer meant when tapped, and what the caller's answer was before (put back on a refusal). */
interface AnswerData {
  answer: RsvpAnswer;
  plusOnes: number;
  before: Mine | null;
  askedAgain: boolean;
}

const guestIdOf = (as: ActionIdentity) => (as.kind === 'guest' ? as.guestId : null);

const isRsvps = (data: unknown): data is Rsvps => typeof data === 'object' && data !== null && 'people' in data && 'mine' in data;

/** The caller's read of the answers with `mine` replaced (the counts follow when the answer lands). */
function withMine(key: QueryKey, data: unknown, action: OfflineAction<AnswerData>, mine: (rsvps: Rsvps) => Mine | null, askAgain: boolean): unknown {
  if (!partialMatchKey(key, rsvpKeys.list(action.planId, guestIdOf(action.as))) || !isRsvps(data)) return data;
  return { ...data, mine: mine(data), askAgain };
}

/**
 * The answer as shown before the server's: a new Going on a full plan shows
 * as waiting (its place comes with the answer), anything else as tapped.
 */
function tapped({ answer, plusOnes }: AnswerData, rsvps: Rsvps): Mine {
  const joining = answer === 'going' && rsvps.mine?.answer !== 'going' && isFull(rsvps);
  return { answer: joining ? 'waitlist' : answer, plusOnes, position: null, setByHost: false };
}

/** The answers, the plan's counts (by id and by link) and the home list, read again. */
export function refreshAnswers(client: QueryClient, planId: string): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: rsvpKeys.all(planId) }),
    client.invalidateQueries({ queryKey: planKeys.detail(planId) }),
    client.invalidateQueries({
      queryKey: planKeys.bySlugs(),
      predicate: (query) => (query.state.data as { id?: unknown } | undefined)?.id === planId,
    }),
    client.invalidateQueries({ queryKey: planKeys.list() }),
  ]);
}

/** Answers in the outbox: shown as the caller's at once, settled on the server's answer (going may come back waitlist). */
const answers = defineOfflineActionKind<AnswerData>('answer-rsvp', {
  show: (key, data, action) => withMine(key, data, action, (rsvps) => tapped(action.data, rsvps), false),
  unshow: (key, data, action) => withMine(key, data, action, () => action.data.before, action.data.askedAgain),
  sent: (client, action, answer) => {
    const result = rsvpResultSchema.parse(answer);
    client.setQueryData<Rsvps>(rsvpKeys.list(action.planId, guestIdOf(action.as)), (rsvps) =>
      rsvps ? { ...rsvps, askAgain: false, mine: { ...result, setByHost: false } } : rsvps,
    );
    return refreshAnswers(client, action.planId);
  },
});

/** A pending answer as the card shows it. */
export interface PendingAnswer {
  /** Kept on the device until the network is back. */
  waiting: boolean;
}

/**
 * The caller's own answer. Resolves true when it went through or waits on
 * this device for the network; false after a refusal (shown as an 'Error'
 * toast with the server's sentence, the answer put back).
 */
export function useAnswer(planId: string, who: Answerer) {
  const client = useQueryClient();
  useOfflineActionKind(answers);
  const guestId = who.kind === 'guest' ? who.guestId : null;
  const { mutateAsync, isPending } = useMutation({
    // Live updates of the plan wait while it is on its way.
    mutationKey: planKeys.mutation(planId, answers.name),
    // Tapped with no network, it still goes to the outbox.
    networkMode: 'always',
    mutationFn: ({ answer, plusOnes }: { answer: RsvpAnswer; plusOnes: number }) => {
      const before = client.getQueryData<Rsvps>(rsvpKeys.list(planId, guestId));
      return answers.submit({
        planId,
        target: 'rsvp',
        path: apiPaths.rsvp(planId),
        method: 'PUT',
        body: { answer, ...(answer === 'going' ? { plusOnes } : {}), ...(guestId ? { guestId } : {}) },
        as: actionIdentity(who),
        data: { answer, plusOnes: answer === 'going' ? plusOnes : 0, before: before?.mine ?? null, askedAgain: before?.askAgain ?? false },
        noun: 'answer',
        failure: 'Failed to save your answer',
      });
    },
  });
  const inOutbox = usePendingActions(planId).filter((action) => action.kind === answers.name);
  const pending: PendingAnswer | null = inOutbox.length > 0 ? { waiting: inOutbox.some((action) => action.waiting) } : isPending ? { waiting: false } : null;

  async function answer(choice: RsvpAnswer, plusOnes = 0): Promise<boolean> {
    try {
      const outcome = await mutateAsync({ answer: choice, plusOnes });
      return outcome === 'sent' || outcome === 'queued';
    } catch (error) {
      showErrorToast(error, 'Failed to save your answer');
      return false;
    }
  }

  return { answer, pending };
}

/** The host (or a co-host) answers for someone who replied in the chat: PUT rsvps/{participantId}. */
export function useAnswerFor(planId: string, { onDone }: { onDone?: () => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'answer-for'),
    mutationFn: async ({ participantId, answer, plusOnes }: { participantId: string; answer: RsvpAnswer; plusOnes: number }) => {
      const body = { answer, ...(answer === 'going' ? { plusOnes } : {}) };
      const res = await apiRequest('PUT', apiPaths.rsvpFor(planId, participantId), body);
      return rsvpResultSchema.parse(await res.json());
    },
    onSuccess: () => {
      onDone?.();
      return refreshAnswers(client, planId);
    },
    onError: (error) => showErrorToast(error, 'Failed to save the answer'),
  });
}

/** The host's spots (null: no limit) and how many friends each may bring: POST capacity → the answers. */
export function useSetCapacity(planId: string, { onDone }: { onDone?: () => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'capacity'),
    mutationFn: async (settings: { capacity: number | null; maxPlusOnes: number }) => {
      const res = await apiRequest('POST', apiPaths.capacity(planId), settings);
      return rsvpsSchema.parse(await res.json());
    },
    onSuccess: (rsvps) => {
      // The host reads the answers by the token.
      client.setQueryData(rsvpKeys.list(planId, null), rsvps);
      onDone?.();
      return refreshAnswers(client, planId);
    },
    onError: (error) => showErrorToast(error, 'Failed to save the spots'),
  });
}

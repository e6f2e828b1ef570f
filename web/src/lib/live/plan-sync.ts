// From a plan's change to the caches it touched (docs/live-updates.md). Only
// what changed is invalidated (active queries refetch, mostly answered 304), never a query whose ETag already names that version or a
// newer one, and nothing while the visitor's own write to that plan is still
// pending (a tap, or a vote or comment the device's outbox is sending): the
// write refreshes what it touched when it lands, then the waiting changes are
// applied.
import { partialMatchKey, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { queryVersion } from '../api';
import { ApiError } from '../api-error';
import { isSendingOfflineAction, watchOfflineActions } from '../offline-actions';
import { dateKeys, guestKeys, ideaKeys, planKeys, previewKeys, rsvpKeys } from '../query-keys';
import type { MyPlansLiveEvent, PlanChange, PlanLiveEvent, PlanPart } from './types';

export interface LivePlan {
  id: string;
  /** The public link's slug, when the page reads the plan by it (null: not shown to this reader). */
  slug?: string | null;
}

const planIdOf = (data: unknown) =>
  typeof data === 'object' && data !== null && 'id' in data ? (data as { id: unknown }).id : undefined;

/** A guest session's plan (its data names it). */
const guestPlanIdOf = (data: unknown) =>
  typeof data === 'object' && data !== null && 'planId' in data ? (data as { planId: unknown }).planId : undefined;

/** Whether `key` is `prefix` or lies under it (TanStack's own prefix match, as `invalidateQueries` uses). */
const under = (key: QueryKey, prefix: QueryKey) => partialMatchKey(key, prefix);

/** A read by slug: the page's own slug, or one whose answer is the plan. */
const isSlugReadOf = (key: QueryKey, data: unknown, planId: string, slug?: string | null) =>
  under(key, planKeys.bySlugs()) && ((typeof slug === 'string' && under(key, planKeys.bySlug(slug))) || planIdOf(data) === planId);

/** Everything cached about the plan: under `planKeys.plan(id)`, and its reads by slug. */
function belongsToPlan(key: QueryKey, data: unknown, planId: string, slug?: string | null): boolean {
  return under(key, planKeys.plan(planId)) || isSlugReadOf(key, data, planId, slug);
}

/** Whether `key` is one of `ids`' keys (null: any of them; absent: `absent`). */
const listed = (key: QueryKey, ids: string[] | null | undefined, keyOf: (id: string) => QueryKey, absent: boolean) =>
  ids === null || (ids === undefined ? absent : ids.some((id) => under(key, keyOf(id))));

/**
 * Which cached queries a change touches (keys in lib/query-keys):
 * plan → detail, by slug, home list; participants → those, the participants
 * and the host's list of who was removed;
 * ideas → idea lists, suggestions, voters of `ideaIds`; comments → comments of
 * `ideaIds` and the idea lists (their counts); dates → slots, my votes, voters
 * of `slotIds`; rsvps → the answers, and the plan's reads and the home list
 * (their `answers` counts); the link preview's card follows the plan's reads
 * (its title, status, host and going count). An id list that is null means all of them. A participants
 * change also re-reads the plan's guest sessions on this device, so a guest
 * the host removed finds out at once (and is sent to the join page).
 */
function touchedBy(change: PlanChange, slug?: string | null): (key: QueryKey, data: unknown) => boolean {
  const has = (part: PlanPart) => change.parts.includes(part);
  const planRow = has('plan') || has('participants');
  // The plan JSON carries the answers' counts.
  const planRead = planRow || has('rsvps');
  const id = change.planId;
  return (key, data) => {
    if (under(key, planKeys.list())) return planRead;
    if (under(key, planKeys.bySlugs())) return planRead && isSlugReadOf(key, data, id, slug);
    if (under(key, planKeys.detail(id))) return planRead;
    if (under(key, previewKeys.all(id))) return planRead;
    // Answers name people: someone leaving or renamed changes them too.
    if (under(key, rsvpKeys.all(id))) return has('rsvps') || has('participants');
    if (under(key, planKeys.participants(id)) || under(key, planKeys.removals(id))) return has('participants');
    if (under(key, guestKeys.all)) return has('participants') && guestPlanIdOf(data) === id;
    if (under(key, ideaKeys.lists(id))) return has('ideas') || has('comments');
    if (under(key, ideaKeys.suggestions(id))) return has('ideas');
    if (under(key, ideaKeys.allVoters(id))) return has('ideas') && listed(key, change.ideaIds, (idea) => ideaKeys.voters(id, idea), false);
    // A comments change that names no idea is taken as "any".
    if (under(key, ideaKeys.allComments(id))) return has('comments') && listed(key, change.ideaIds, (idea) => ideaKeys.comments(id, idea), true);
    if (under(key, dateKeys.timeSlots(id)) || under(key, dateKeys.allMyVotes(id))) return has('dates');
    if (under(key, dateKeys.allVoters(id))) return has('dates') && listed(key, change.slotIds, (slot) => dateKeys.voters(id, slot), false);
    return false;
  };
}

/** Whether the query's data may predate `version` (its ETag names an older version, or none). */
function behind(client: QueryClient, query: Query, version: number): boolean {
  const known = queryVersion(client, query.queryHash);
  return known === undefined || known < version;
}

/** Apply one change: invalidate what it touched (or forget a deleted plan). */
export function applyPlanChange(client: QueryClient, change: PlanChange, slug?: string | null): Promise<void> {
  if (change.parts.includes('deleted')) return forgetDeletedPlan(client, change.planId, slug);
  const touched = touchedBy(change, slug);
  return client.invalidateQueries({
    predicate: (query) => touched(query.queryKey, query.state.data) && behind(client, query, change.version),
  });
}

const isNotFound = (query: Query) => query.state.error instanceof ApiError && query.state.error.status === 404;

/**
 * "The plan was deleted" is only a hint (a Realtime broadcast is public and
 * can be forged, decision 0089): the plan's reads are asked again first, and
 * only when the API answers 404 is the plan forgotten: what nobody shows is
 * dropped, the plan itself is read once more (a 404 with no data, so the page
 * shows its "Plan not found" instead of failing on the next tap). The home
 * list refetches either way. A plan the API still answers stays as it is
 * (its reads are fresh, nothing else is touched).
 */
async function forgetDeletedPlan(client: QueryClient, planId: string, slug?: string | null): Promise<void> {
  const ofPlan = (query: Query) => belongsToPlan(query.queryKey, query.state.data, planId, slug);
  const unseen = (query: Query) => ofPlan(query) && query.getObserversCount() === 0;
  const isPlanRead = (query: Query) =>
    ofPlan(query) && (under(query.queryKey, planKeys.bySlugs()) || under(query.queryKey, planKeys.detail(planId)));
  void client.invalidateQueries({ queryKey: planKeys.list() });
  const shown = client.getQueryCache().findAll({ predicate: isPlanRead });
  if (shown.length === 0) return; // nothing of the plan on screen to check or forget (the home list)
  await client.refetchQueries({ predicate: (query) => shown.includes(query) });
  if (!shown.some(isNotFound)) return;
  await client.cancelQueries({ predicate: ofPlan });
  client.removeQueries({ predicate: unseen });
  await client.resetQueries({ predicate: (query) => shown.includes(query) });
  // The pages that showed it have now unmounted their parts.
  client.removeQueries({ predicate: (query) => unseen(query) && !shown.includes(query) });
}

/**
 * On `ready`: refetch, once, what the feed cannot vouch for: queries whose
 * ETag names an older version, and (`byAge`) data without a version read
 * before this subscription started (a plan shown again after a while).
 */
function refetchBehind(
  client: QueryClient,
  plan: LivePlan,
  { version, byAge }: { version: number | null; byAge: boolean },
  startedAt: number,
): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => {
      if (query.state.data === undefined || !belongsToPlan(query.queryKey, query.state.data, plan.id, plan.slug)) return false;
      const known = queryVersion(client, query.queryHash);
      if (known !== undefined && version !== null) return known < version;
      return byAge && query.state.dataUpdatedAt < startedAt;
    },
  });
}

function mergeIds(a: string[] | null | undefined, b: string[] | null | undefined) {
  if (a === null || b === null) return null;
  if (a === undefined || b === undefined) return a ?? b;
  return [...new Set([...a, ...b])];
}

/** Two changes waiting together: every part and id of both, at the newer version. */
function mergeChanges(a: PlanChange, b: PlanChange): PlanChange {
  const merged: PlanChange = {
    planId: a.planId,
    version: Math.max(a.version, b.version),
    parts: [...new Set([...a.parts, ...b.parts])],
  };
  const ideaIds = mergeIds(a.ideaIds, b.ideaIds);
  const slotIds = mergeIds(a.slotIds, b.slotIds);
  if (ideaIds !== undefined) merged.ideaIds = ideaIds;
  if (slotIds !== undefined) merged.slotIds = slotIds;
  return merged;
}

interface PlanSync {
  handle(event: PlanLiveEvent): void;
  /** Drop what is waiting and stop watching the writes (the sync can be used again). */
  dispose(): void;
}

/** The listener of one plan's feed for one QueryClient. */
export function createPlanSync(client: QueryClient, plan: LivePlan, { now = Date.now }: { now?: () => number } = {}): PlanSync {
  const startedAt = now();
  const mutationKey = planKeys.plan(plan.id);
  let queued: PlanChange | null = null;
  let catchUp: { version: number | null; byAge: boolean } | null = null;
  let heardReady = false;
  let stopWaiting: (() => void) | null = null;
  // A write of the visitor's on its way: a tap, or a vote or comment the
  // device's outbox is sending (lib/offline-actions/).
  const busy = () => client.isMutating({ mutationKey }) > 0 || isSendingOfflineAction(plan.id);

  function flush() {
    if (busy()) {
      if (!stopWaiting) {
        const check = () => {
          if (busy()) return;
          stopWaiting?.();
          stopWaiting = null;
          queueMicrotask(flush);
        };
        const stopMutations = client.getMutationCache().subscribe(check);
        const stopOutbox = watchOfflineActions(check);
        stopWaiting = () => {
          stopMutations();
          stopOutbox();
        };
      }
      return;
    }
    const change = queued;
    const ready = catchUp;
    queued = null;
    catchUp = null;
    if (change) void applyPlanChange(client, change, plan.slug);
    if (ready && !change?.parts.includes('deleted')) void refetchBehind(client, plan, ready, startedAt);
  }

  return {
    handle(event) {
      if (event.type === 'change') {
        queued = queued ? mergeChanges(queued, event.change) : event.change;
        flush();
      } else if (event.type === 'ready') {
        const byAge = !heardReady || Boolean(catchUp?.byAge);
        heardReady = true;
        catchUp = { version: event.version, byAge };
        flush();
      }
    },
    dispose() {
      stopWaiting?.();
      stopWaiting = null;
      queued = null;
      catchUp = null;
    },
  };
}

interface MyPlansSync {
  handle(event: MyPlansLiveEvent): void;
  dispose(): void;
}

/** The home list's listener: each plan's changes as above; the list itself on every reconnect. */
export function createMyPlansSync(client: QueryClient, { now = Date.now }: { now?: () => number } = {}): MyPlansSync {
  const startedAt = now();
  const plans = new Map<string, PlanSync>();
  let heardReady = false;

  return {
    handle(event) {
      if (event.type === 'change') {
        const { planId } = event.change;
        let sync = plans.get(planId);
        if (!sync) plans.set(planId, (sync = createPlanSync(client, { id: planId }, { now })));
        sync.handle(event);
      } else if (event.type === 'ready') {
        const first = !heardReady;
        heardReady = true;
        if (event.replayed && !first) return; // the same connection, merely joined again
        const list = client.getQueryState<Array<{ id: string }>>(planKeys.list());
        if (list?.data === undefined) return; // still on its way: it is read after the feed opened
        const shown = new Set(list.data.map((plan) => plan.id));
        const differs = event.planIds.length !== shown.size || event.planIds.some((id) => !shown.has(id));
        // No resume on this feed: after a reconnect the list is read once again.
        if (!first || list.dataUpdatedAt < startedAt || differs) void client.invalidateQueries({ queryKey: planKeys.list() });
      }
    },
    dispose() {
      plans.forEach((sync) => sync.dispose());
      plans.clear();
    },
  };
}

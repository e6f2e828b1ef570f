// Forgetting the API answers the service worker saved (docs/offline.md
// "Offline and updates"; docs/decisions/0082-nothing-kept-too-long.md): what
// a person may no longer see must not stay on the phone. Both sides run this
// file: the worker when an answer says someone or a plan is gone
// (offline.ts savedReadsToForget), the page when its person leaves or deletes
// a plan. Signing out deletes the whole cache (lib/offline-reads.ts).
//
// A plan's answers are found by what their paths name: the plan's id
// (plans/{id}, plans/{id}/...), its slug (plans/slug/{slug}), and its ideas'
// and date slots' ids (ideas/{id}/..., timeslots/{id}/...), which the plan's
// own saved answers list (its read, its ideas, its slots).
import type { CachesLike } from './background-sync';
import { IDENTITY_PARAM, READS_CACHE } from './offline';

/** A saved answer: its cache key, its path under the API prefix ('plans/p1/ideas'), who asked. */
export interface SavedRead {
  key: string;
  path: string;
  identity: string;
}

/** The saved answer a cache key stands for, or null for a key of another URL. */
export function savedReadOf(key: string, prefix: string): SavedRead | null {
  const url = new URL(key);
  const identity = url.searchParams.get(IDENTITY_PARAM);
  if (!identity) return null;
  url.search = '';
  if (!url.href.startsWith(prefix)) return null;
  return { key, path: url.href.slice(prefix.length), identity };
}

/** What names one plan in a path. */
export interface PlanFootprint {
  planId: string;
  slugs: ReadonlySet<string>;
  ideaIds: ReadonlySet<string>;
  slotIds: ReadonlySet<string>;
}

/** Whether a saved read's path is about the plan. The list of the member's plans is not (it is saved anew when read). */
export function isReadOfPlan(path: string, plan: PlanFootprint): boolean {
  const [kind, first, second] = path.split('/').map((part) => decodeURIComponent(part));
  if (kind === 'plans' && first === 'slug') return second !== undefined && plan.slugs.has(second);
  if (kind === 'plans') return first === plan.planId;
  if (kind === 'ideas') return first !== undefined && plan.ideaIds.has(first);
  if (kind === 'timeslots') return first !== undefined && plan.slotIds.has(first);
  return false;
}

type Cache = Awaited<ReturnType<CachesLike['open']>>;

async function savedJson(cache: Cache, key: string): Promise<unknown> {
  try {
    return await (await cache.match(key))?.json();
  } catch {
    return undefined;
  }
}

const idsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap((item: unknown) => (item && typeof item === 'object' && 'id' in item && typeof item.id === 'string' ? [item.id] : [])) : [];

/** The plan's slug and its ideas' and slots' ids, from its answers saved for anyone. */
async function footprintOf(cache: Cache, reads: SavedRead[], planId: string): Promise<PlanFootprint> {
  const slugs = new Set<string>();
  const ideaIds = new Set<string>();
  const slotIds = new Set<string>();
  await Promise.all(
    reads.map(async ({ key, path }) => {
      const [kind, first, second] = path.split('/').map((part) => decodeURIComponent(part));
      if (kind !== 'plans' || first === undefined) return;
      const named = first === planId && (second === undefined || second === 'ideas' || second === 'timeslots');
      if (!named && first !== 'slug') return;
      const body = await savedJson(cache, key);
      if (first === 'slug') {
        if (body && typeof body === 'object' && 'id' in body && body.id === planId && second) slugs.add(second);
      } else if (second === undefined) {
        if (body && typeof body === 'object' && 'slug' in body && typeof body.slug === 'string') slugs.add(body.slug);
      } else {
        for (const id of idsOf(body)) (second === 'ideas' ? ideaIds : slotIds).add(id);
      }
    }),
  );
  return { planId, slugs, ideaIds, slotIds };
}

/**
 * Deletes saved answers: every one of `identity` (when given), or only those
 * about `planIds` (of `identity`, or of anyone without one). Answers how many
 * went. Never fails: a cache that cannot be read keeps nothing new either.
 */
export async function forgetSavedReads(
  caches: CachesLike,
  prefix: string,
  what: { identity?: string; planIds?: readonly string[] },
): Promise<number> {
  try {
    const cache = await caches.open(READS_CACHE);
    const reads = (await cache.keys()).flatMap((request) => savedReadOf(request.url, prefix) ?? []);
    let doomed = what.identity === undefined ? reads : reads.filter((read) => read.identity === what.identity);
    if (what.planIds) {
      const plans = await Promise.all(what.planIds.map((planId) => footprintOf(cache, reads, planId)));
      doomed = doomed.filter((read) => plans.some((plan) => isReadOfPlan(read.path, plan)));
    }
    await Promise.all(doomed.map((read) => cache.delete(read.key)));
    return doomed.length;
  } catch {
    return 0;
  }
}

/** The ids of a saved or new answer of the member's plan list (GET /api/plans). */
export function planIdsOf(body: unknown): string[] {
  return idsOf(body);
}

/** The plan a slug named, from an answer saved for anyone; null when none was saved. */
export async function planIdOfSlug(caches: CachesLike, prefix: string, slug: string): Promise<string | null> {
  try {
    const cache = await caches.open(READS_CACHE);
    for (const request of await cache.keys()) {
      const read = savedReadOf(request.url, prefix);
      if (!read || read.path !== `plans/slug/${encodeURIComponent(slug)}`) continue;
      const body = await savedJson(cache, read.key);
      if (body && typeof body === 'object' && 'id' in body && typeof body.id === 'string') return body.id;
    }
    return null;
  } catch {
    return null;
  }
}

/** An answer saved under `key`, as JSON (undefined when none, or not JSON). */
export async function savedAnswer(caches: CachesLike, key: string): Promise<unknown> {
  try {
    return await savedJson(await caches.open(READS_CACHE), key);
  } catch {
    return undefined;
  }
}

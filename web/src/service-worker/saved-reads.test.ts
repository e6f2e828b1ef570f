// Forgetting saved answers (saved-reads.ts): a person's, or a plan's (its own
// reads, its slug's, its ideas' and slots'), as the worker and the page do.
import { describe, expect, it } from 'vitest';
import { MemoryCaches } from '../test/memory-caches';
import { READS_CACHE, savedReadKey } from './offline';
import { forgetSavedReads, isReadOfPlan, planIdOfSlug, savedReadOf } from './saved-reads';

const ORIGIN = 'https://hangplan.app';
const PREFIX = `${ORIGIN}/api/`;
const api = (path: string) => `${PREFIX}${path}`;

/** Saves `body` as the answer to `path` for `identity`. */
async function save(caches: MemoryCaches, identity: string, path: string, body: unknown) {
  await (await caches.open(READS_CACHE)).put(savedReadKey(api(path), identity), Response.json(body));
}

/** What is still saved: `identity path`, sorted. */
async function saved(caches: MemoryCaches): Promise<string[]> {
  const keys = await (await caches.open(READS_CACHE)).keys();
  return keys.map((request) => savedReadOf(request.url, PREFIX)!).map((read) => `${read.identity} ${read.path}`).sort();
}

/** Ana (a member) saw plans p1 (slug one) and p2; Gus (a guest of p1) saw p1 by its slug. */
async function world() {
  const caches = new MemoryCaches(ORIGIN);
  await save(caches, 'ana', 'plans', [{ id: 'p1' }, { id: 'p2' }]);
  await save(caches, 'ana', 'plans/p1', { id: 'p1', slug: 'one' });
  await save(caches, 'ana', 'plans/p1/ideas', [{ id: 'i1' }, { id: 'i2' }]);
  await save(caches, 'ana', 'plans/p1/timeslots', [{ id: 't1' }]);
  await save(caches, 'ana', 'ideas/i1/comments', []);
  await save(caches, 'ana', 'ideas/i2/voters', []);
  await save(caches, 'ana', 'timeslots/t1/voters', []);
  await save(caches, 'ana', 'plans/p2', { id: 'p2', slug: 'two' });
  await save(caches, 'ana', 'plans/p2/ideas', [{ id: 'i9' }]);
  await save(caches, 'ana', 'ideas/i9/comments', []);
  await save(caches, 'gus', 'plans/slug/one', { id: 'p1', slug: 'one' });
  await save(caches, 'gus', 'plans/p1/ideas?guestId=g1', [{ id: 'i1' }]);
  await save(caches, 'gus', 'guest-session/g1', { id: 'g1' });
  return caches;
}

describe('savedReadOf and isReadOfPlan', () => {
  it('read a key back into its path and identity; only keys of the API', () => {
    expect(savedReadOf(savedReadKey(api('plans/p1/ideas?guestId=g1'), 'gus'), PREFIX)).toEqual({
      key: savedReadKey(api('plans/p1/ideas?guestId=g1'), 'gus'),
      path: 'plans/p1/ideas',
      identity: 'gus',
    });
    expect(savedReadOf(`${ORIGIN}/assets/app.js`, PREFIX)).toBeNull();
    expect(savedReadOf(savedReadKey(`${ORIGIN}/other/plans`, 'gus'), PREFIX)).toBeNull();
  });

  it('tell a plan’s reads by its id, slug, ideas and slots; the list of plans is none of them', () => {
    const plan = { planId: 'p1', slugs: new Set(['one']), ideaIds: new Set(['i1']), slotIds: new Set(['t1']) };
    for (const path of ['plans/p1', 'plans/p1/participants', 'plans/slug/one', 'ideas/i1/comments', 'timeslots/t1/voters']) {
      expect(isReadOfPlan(path, plan), path).toBe(true);
    }
    for (const path of ['plans', 'plans/p2', 'plans/slug/two', 'ideas/i2/voters', 'timeslots/t2/voters', 'guest-session/g1']) {
      expect(isReadOfPlan(path, plan), path).toBe(false);
    }
  });
});

describe('forgetSavedReads', () => {
  it("a person's: every answer saved for them, nobody else's", async () => {
    const caches = await world();
    expect(await forgetSavedReads(caches, PREFIX, { identity: 'gus' })).toBe(3);
    expect((await saved(caches)).filter((read) => read.startsWith('gus '))).toEqual([]);
    expect((await saved(caches)).filter((read) => read.startsWith('ana '))).toHaveLength(10);
  });

  it("a plan's, for everyone: its reads, its slug's, its ideas' and slots'; other plans and the list stay", async () => {
    const caches = await world();
    expect(await forgetSavedReads(caches, PREFIX, { planIds: ['p1'] })).toBe(8);
    expect(await saved(caches)).toEqual([
      'ana ideas/i9/comments',
      'ana plans',
      'ana plans/p2',
      'ana plans/p2/ideas',
      'gus guest-session/g1',
    ]);
  });

  it("a plan's, for one person: the others' stay", async () => {
    const caches = await world();
    expect(await forgetSavedReads(caches, PREFIX, { identity: 'ana', planIds: ['p1'] })).toBe(6);
    expect((await saved(caches)).filter((read) => read.startsWith('gus '))).toHaveLength(3);
  });

  it('a plan known only by a slug its guest read', async () => {
    const caches = await world();
    expect(await planIdOfSlug(caches, PREFIX, 'one')).toBe('p1');
    expect(await planIdOfSlug(caches, PREFIX, 'nope')).toBeNull();
  });
});

import { MutationObserver, QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../api';
import { sendOfflineActionsNow } from '../offline-actions';
import { authKeys, dateKeys, guestKeys, ideaKeys, planKeys, previewKeys, rsvpKeys } from '../query-keys';
import { applyPlanChange, createMyPlansSync, createPlanSync } from './plan-sync';
import type { PlanChange } from './types';

// A QueryClient seeded with every kind of query a plan's screens cache, each
// read through apiGet with an ETag naming a version (or none), then changes.

const identity = (body: unknown) => body;

const keys = {
  list: planKeys.list(),
  detail: planKeys.detail('p1'),
  participants: planKeys.participants('p1'),
  removals: planKeys.removals('p1'),
  bySlug: planKeys.bySlug('s-one'),
  ideas: ideaKeys.list('p1', null),
  guestIdeas: ideaKeys.list('p1', 'g1'),
  suggestions: ideaKeys.suggestions('p1'),
  commentsI1: ideaKeys.comments('p1', 'i1'),
  commentsI2: ideaKeys.comments('p1', 'i2'),
  votersI1: ideaKeys.voters('p1', 'i1'),
  votersI2: ideaKeys.voters('p1', 'i2'),
  slots: dateKeys.timeSlots('p1'),
  myVotes: dateKeys.myVotes('p1', undefined),
  guestVotes: dateKeys.myVotes('p1', 'g1'),
  slotVotersS1: dateKeys.voters('p1', 's1'),
  slotVotersS2: dateKeys.voters('p1', 's2'),
  rsvps: rsvpKeys.list('p1', null),
  guestRsvps: rsvpKeys.list('p1', 'g1'),
  otherRsvps: rsvpKeys.list('p2', null),
  preview: previewKeys.card('p1', 's-one'),
  otherPreview: previewKeys.card('p2', 's-two'),
  otherDetail: planKeys.detail('p2'),
  otherIdeas: ideaKeys.list('p2', null),
  me: authKeys.me(),
  guestSession: guestKeys.session('g1'),
  otherGuestSession: guestKeys.session('g2'),
} satisfies Record<string, QueryKey>;
type Name = keyof typeof keys;

let client: QueryClient;

function answer(data: unknown, etag?: string) {
  vi.stubGlobal('fetch', vi.fn(async () => Response.json(data, { headers: etag ? { ETag: etag } : {} })));
}

async function seed(name: Name, version: number | 'none' = 10) {
  const guests: Partial<Record<Name, object>> = {
    guestSession: { id: 'g1', name: 'Gus', planId: 'p1' },
    otherGuestSession: { id: 'g2', name: 'Olga', planId: 'p2' },
  };
  const data = name === 'bySlug' ? { id: 'p1', slug: 's-one' } : name === 'list' ? [{ id: 'p1' }] : (guests[name] ?? { name });
  answer(data, name === 'list' ? 'W/"labc"' : version === 'none' ? undefined : `W/"v${version}.ab12"`);
  await client.fetchQuery({ queryKey: keys[name], queryFn: apiGet(`/x/${name}`, identity), staleTime: 0 });
}

const invalidated = () =>
  (Object.keys(keys) as Name[]).filter((name) => client.getQueryState(keys[name])?.isInvalidated).sort();

const change = (parts: PlanChange['parts'], extra: Partial<PlanChange> = {}): PlanChange => ({
  planId: 'p1',
  version: 11,
  parts,
  ...extra,
});

beforeEach(async () => {
  client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const name of Object.keys(keys) as Name[]) await seed(name);
});
afterEach(() => client.clear());

describe('applyPlanChange: each part invalidates exactly its queries', () => {
  it.each<[string, PlanChange, Name[]]>([
    ['plan', change(['plan']), ['bySlug', 'detail', 'list', 'preview']],
    // The guest sessions of this plan too: a guest the host removed learns it at once.
    ['participants', change(['participants']), ['bySlug', 'detail', 'guestRsvps', 'guestSession', 'list', 'participants', 'preview', 'removals', 'rsvps']],
    ['ideas (no idea named)', change(['ideas']), ['guestIdeas', 'ideas', 'suggestions']],
    ['ideas of i1', change(['ideas'], { ideaIds: ['i1'] }), ['guestIdeas', 'ideas', 'suggestions', 'votersI1']],
    ['ideas, all', change(['ideas'], { ideaIds: null }), ['guestIdeas', 'ideas', 'suggestions', 'votersI1', 'votersI2']],
    ['comments of i2', change(['comments'], { ideaIds: ['i2'] }), ['commentsI2', 'guestIdeas', 'ideas']],
    ['comments, all', change(['comments'], { ideaIds: null }), ['commentsI1', 'commentsI2', 'guestIdeas', 'ideas']],
    ['dates (no slot named)', change(['dates']), ['guestVotes', 'myVotes', 'slots']],
    ['dates of s1', change(['dates'], { slotIds: ['s1'] }), ['guestVotes', 'myVotes', 'slotVotersS1', 'slots']],
    ['dates, all', change(['dates'], { slotIds: null }), ['guestVotes', 'myVotes', 'slotVotersS1', 'slotVotersS2', 'slots']],
    // Every view of the answers, and the plan's reads and the home list: their `answers` counts.
    ['rsvps', change(['rsvps']), ['bySlug', 'detail', 'guestRsvps', 'list', 'preview', 'rsvps']],
  ])('%s', async (_label, planChange, expected) => {
    await applyPlanChange(client, planChange);
    expect(invalidated()).toEqual([...expected].sort());
  });

  it('finds the read by slug through its data when the slug is not given, or by the slug given', async () => {
    client.removeQueries({ queryKey: keys.bySlug });
    answer({ id: 'p1' }, 'W/"v10"');
    await client.fetchQuery({ queryKey: planKeys.bySlug('s-one'), queryFn: apiGet('/x', identity) });
    await applyPlanChange(client, change(['plan']));
    expect(client.getQueryState(planKeys.bySlug('s-one'))!.isInvalidated).toBe(true);

    await client.fetchQuery({ queryKey: planKeys.bySlug('s-two'), queryFn: async () => null });
    await applyPlanChange(client, change(['plan']), 's-two');
    expect(client.getQueryState(planKeys.bySlug('s-two'))!.isInvalidated).toBe(true);
  });

  it('skips a query whose ETag already names the change version or a newer one', async () => {
    await seed('detail', 12);
    await seed('participants', 11);
    await seed('bySlug', 'none');
    await applyPlanChange(client, change(['participants'], { version: 11 }));
    expect(invalidated()).toEqual(['bySlug', 'guestRsvps', 'guestSession', 'list', 'preview', 'removals', 'rsvps']);
    await applyPlanChange(client, change(['participants'], { version: 13 }));
    expect(invalidated()).toEqual(['bySlug', 'detail', 'guestRsvps', 'guestSession', 'list', 'participants', 'preview', 'removals', 'rsvps']);
  });

  it('refetches what is on screen, and only that', async () => {
    const fetchMock = vi.fn(async () => Response.json({ fresh: true }, { headers: { ETag: 'W/"v11"' } }));
    vi.stubGlobal('fetch', fetchMock);
    const observer = new QueryObserver(client, { queryKey: keys.slots, queryFn: apiGet('/x/slots', identity) });
    const stop = observer.subscribe(() => {});
    await applyPlanChange(client, change(['dates']));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(keys.slots)).toEqual({ fresh: true });
    stop();
  });
});

describe('a deleted plan', () => {
  it('is forgotten, its shown read answers 404 (the page says "Plan not found"), the home list refetches', async () => {
    const detail = new QueryObserver(client, { queryKey: keys.detail, queryFn: apiGet('/api/plans/p1', identity) });
    const stop = detail.subscribe(() => {});
    const listRefetch = vi.spyOn(client, 'invalidateQueries');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('Plan not found', { status: 404 })));
    await applyPlanChange(client, change(['deleted']));

    expect(client.getQueryState(keys.detail)).toMatchObject({ status: 'error', data: undefined });
    expect((client.getQueryState(keys.detail)!.error as Error).message).toBe('404: Plan not found');
    for (const name of ['participants', 'ideas', 'commentsI1', 'slots', 'bySlug'] as const) {
      expect(client.getQueryState(keys[name])).toBeUndefined();
    }
    expect(client.getQueryState(keys.otherDetail)).toBeDefined();
    expect(client.getQueryState(keys.me)).toBeDefined();
    expect(listRefetch).toHaveBeenCalledWith({ queryKey: planKeys.list() });
    stop();
  });

  it('a forged "deleted" (a Realtime broadcast is public) is only a hint: the plan the server still answers stays on screen', async () => {
    const detail = new QueryObserver(client, { queryKey: keys.detail, queryFn: apiGet('/api/plans/p1', identity) });
    const seen: unknown[] = [];
    const stop = detail.subscribe((result) => seen.push(result.data));
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ id: 'p1', title: 'Still here' }, { headers: { ETag: 'W/"v12"' } })));
    await applyPlanChange(client, change(['deleted'], { version: Number.MAX_SAFE_INTEGER }));
    await vi.waitFor(() => expect(client.getQueryData(keys.detail)).toEqual({ id: 'p1', title: 'Still here' }));
    expect(client.getQueryState(keys.detail)!.status).toBe('success');
    // Never emptied on the way (no "Plan not found", no spinner), and nothing else of the plan forgotten.
    expect(seen).not.toContain(undefined);
    for (const name of ['participants', 'ideas', 'commentsI1', 'slots', 'bySlug'] as const) {
      expect(client.getQueryState(keys[name])?.data).toBeDefined();
    }
    stop();
  });
});

describe('createPlanSync', () => {
  it("waits while a write to the plan is pending, then applies what arrived meanwhile", async () => {
    let finish!: () => void;
    const write = new MutationObserver(client, {
      mutationKey: planKeys.mutation('p1', 'vote-idea'),
      mutationFn: () => new Promise<void>((resolve) => (finish = resolve)),
    });
    const otherPlanWrite = new MutationObserver(client, {
      mutationKey: planKeys.mutation('p2', 'comment'),
      mutationFn: () => new Promise<void>(() => {}),
    });
    void write.mutate();
    void otherPlanWrite.mutate();
    await vi.waitFor(() => expect(finish).toBeTypeOf('function'));
    expect(client.isMutating()).toBe(2);
    const sync = createPlanSync(client, { id: 'p1', slug: 's-one' });

    sync.handle({ type: 'change', change: change(['ideas'], { ideaIds: ['i1'] }) });
    sync.handle({ type: 'change', change: change(['dates'], { version: 12 }) });
    expect(invalidated()).toEqual([]);

    finish();
    await vi.waitFor(() =>
      expect(invalidated()).toEqual(['guestIdeas', 'guestVotes', 'ideas', 'myVotes', 'slots', 'suggestions', 'votersI1']),
    );
    sync.dispose();
  });

  it('waits while the device\'s outbox sends a vote of the plan made offline, then applies what arrived meanwhile', async () => {
    // A vote kept from an earlier visit, sent now (lib/offline-actions/).
    localStorage.setItem('authToken', 'test-token');
    const action = {
      key: 'k-0000-1111',
      kind: 'vote-idea',
      planId: 'p1',
      target: 'idea:i1',
      path: '/api/ideas/i1/vote',
      as: { kind: 'member', userId: 'u1', name: 'Ada' },
      data: { ideaId: 'i1', voted: true },
      noun: 'vote',
      failure: 'Failed to vote on idea',
      at: 1,
      seq: 1,
      attempts: 1,
      waiting: true,
      retryAt: 0,
    };
    localStorage.setItem(`offlineAction:${action.key}`, JSON.stringify(action));
    let release!: () => void;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (release = () => resolve(Response.json({ voted: true, voteCount: 1 }))))));
    sendOfflineActionsNow();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    const sync = createPlanSync(client, { id: 'p1', slug: 's-one' });

    sync.handle({ type: 'change', change: change(['ideas'], { ideaIds: ['i1'] }) });
    expect(invalidated()).toEqual([]);
    release();
    await vi.waitFor(() => expect(invalidated()).toEqual(['guestIdeas', 'ideas', 'suggestions', 'votersI1']));
    expect(localStorage.getItem(`offlineAction:${action.key}`)).toBeNull();
    sync.dispose();
  });

  it("does not wait for another plan's writes", () => {
    void new MutationObserver(client, {
      mutationKey: planKeys.mutation('p2', 'comment'),
      mutationFn: () => new Promise<void>(() => {}),
    }).mutate();
    const sync = createPlanSync(client, { id: 'p1' });
    sync.handle({ type: 'change', change: change(['participants']) });
    expect(invalidated()).toContain('participants');
  });

  it('on ready, refetches once what predates it: older versions, and unversioned data read before it opened', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const opened = Date.now() + 10_000;
    vi.setSystemTime(opened - 5);
    await seed('detail', 9);
    await seed('ideas', 'none');
    const sync = createPlanSync(client, { id: 'p1', slug: 's-one' }, { now: () => opened });
    vi.setSystemTime(opened + 5);
    await seed('slots', 'none'); // read after the subscription started: current
    vi.useRealTimers();

    sync.handle({ type: 'ready', version: 10 });
    expect(invalidated()).toEqual(['detail', 'ideas']);

    // A later ready (a resumed stream) only compares versions.
    await seed('detail', 10);
    await seed('ideas', 'none');
    sync.handle({ type: 'ready', version: 10 });
    expect(invalidated()).toEqual([]);
    sync.handle({ type: 'ready', version: 11, replayed: true });
    expect(invalidated()).toEqual([
      ...['bySlug', 'commentsI1', 'commentsI2', 'detail', 'guestIdeas', 'guestRsvps', 'guestVotes', 'myVotes', 'participants', 'preview'],
      ...['removals', 'rsvps', 'slotVotersS1', 'slotVotersS2', 'suggestions', 'votersI1', 'votersI2'],
    ]);
  });

  it('on ready without versions (Realtime), goes by age', () => {
    const sync = createPlanSync(client, { id: 'p1' }, { now: () => Date.now() + 1000 });
    sync.handle({ type: 'ready', version: null });
    expect(invalidated()).toContain('detail');
    expect(invalidated()).not.toContain('otherDetail');
    expect(invalidated()).not.toContain('list');
  });
});

describe('createMyPlansSync', () => {
  it("applies each plan's changes and refetches the list after every reconnect, not on a replay", () => {
    const sync = createMyPlansSync(client, { now: () => 0 });
    sync.handle({ type: 'ready', planIds: ['p1'] });
    expect(invalidated()).toEqual([]);

    sync.handle({ type: 'change', change: change(['plan']) });
    expect(invalidated()).toEqual(['bySlug', 'detail', 'list', 'preview']);
    client.clear();
  });

  it('refetches the list on a reconnect or when the server lists other plans', async () => {
    const sync = createMyPlansSync(client, { now: () => 0 });
    sync.handle({ type: 'ready', planIds: ['p1'] });
    sync.handle({ type: 'ready', planIds: ['p1'], replayed: true });
    expect(invalidated()).toEqual([]);
    sync.handle({ type: 'ready', planIds: ['p1'] });
    expect(invalidated()).toEqual(['list']);

    await seed('list');
    const other = createMyPlansSync(client, { now: () => 0 });
    other.handle({ type: 'ready', planIds: ['p1', 'p9'] });
    expect(invalidated()).toEqual(['list']);
  });
});

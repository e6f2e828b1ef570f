import { afterEach, describe, expect, it, vi } from 'vitest';
import { planBySlugQueryOptions } from '../features/plans/queries';
import { planJson } from '../features/plans/test-fixtures';
import { createQueryClient } from '../lib/query-client';
import { deferred, json, mockFetch } from '../test/mock-fetch';
import { loadFirstData } from './first-data';

describe('loadFirstData', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("signed out on a join page: the plan is in the cache when it resolves, so the first render is the page", async () => {
    const plan = planJson({ slug: 'abc' });
    const { calls } = mockFetch({ 'GET /api/plans/slug/abc': () => json(plan) });
    const queryClient = createQueryClient();
    await loadFirstData(queryClient, '/l/abc', { signedIn: false });
    expect(calls('GET', '/api/plans/slug/abc')).toHaveLength(1);
    expect(queryClient.getQueryData(planBySlugQueryOptions('abc').queryKey)).toEqual(plan);
  });

  it('a missing plan resolves too (the page shows "Plan not found")', async () => {
    mockFetch({});
    const queryClient = createQueryClient();
    await loadFirstData(queryClient, '/l/gone', { signedIn: false });
    expect(queryClient.getQueryState(planBySlugQueryOptions('gone').queryKey)?.status).toBe('error');
  });

  it('waits at most waitAtMostMs for a slow answer', async () => {
    vi.useFakeTimers();
    const slow = deferred();
    mockFetch({ 'GET /api/plans/slug/abc': () => slow.promise });
    let done = false;
    void loadFirstData(createQueryClient(), '/l/abc', { signedIn: false, waitAtMostMs: 3000 }).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('asks for nothing on other pages, or signed in (the session decides what the join page shows)', async () => {
    const { requests } = mockFetch({});
    await loadFirstData(createQueryClient(), '/', { signedIn: false });
    await loadFirstData(createQueryClient(), '/l/abc/dashboard', { signedIn: false });
    await loadFirstData(createQueryClient(), '/l/abc', { signedIn: true });
    expect(requests).toHaveLength(0);
  });
});

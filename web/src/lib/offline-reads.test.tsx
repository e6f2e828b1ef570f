import { act, screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAVED_AT_HEADER } from '../service-worker/offline';
import { json, mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/test-utils';
import { apiGet } from './api';
import { resetOfflineReads, RETRY_SAVED_MS } from './offline-reads';

const savedAt = new Date(2026, 10, 26, 19, 42).getTime();
const saved = (data: unknown) => Response.json(data, { headers: { [SAVED_AT_HEADER]: String(savedAt) } });

function Plan() {
  const { data } = useQuery({ queryKey: ['test-plan'], queryFn: apiGet('/api/plans/p1', (body) => body as { title: string }) });
  return <p>{data?.title ?? 'Loading'}</p>;
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 21, 5));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  resetOfflineReads();
});

describe('answers the service worker saved', () => {
  it("say \"You're offline: showing what you saw at 7:42 PM\", and are fetched again when the browser is back online", async () => {
    let online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    const { calls } = mockFetch({ 'GET /api/plans/p1': () => (online ? json({ title: 'Friday (now)' }) : saved({ title: 'Friday' })) });
    renderWithProviders(<Plan />);
    expect(await screen.findByText('Friday')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent("You're offline: showing what you saw at 7:42 PM");

    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('Friday (now)')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(calls('GET', '/api/plans/p1')).toHaveLength(2);
  });

  it('while the browser says online (the worker not yet), asked again after a while until the network answers', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date(2026, 10, 26, 21, 5));
    let answers = 0;
    const { calls } = mockFetch({
      // The first two answers are the worker's saved copy, then the network's.
      'GET /api/plans/p1': () => (++answers <= 2 ? saved({ title: 'Friday' }) : json({ title: 'Friday (now)' })),
    });
    renderWithProviders(<Plan />);
    await vi.waitFor(() => expect(screen.getByText('Friday')).toBeInTheDocument());
    expect(calls('GET', '/api/plans/p1')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(RETRY_SAVED_MS[0]!));
    await vi.waitFor(() => expect(calls('GET', '/api/plans/p1')).toHaveLength(2));
    expect(screen.getByRole('status')).toHaveTextContent("You're offline");
    // Backing off: not again after the first wait, but after the second.
    await act(() => vi.advanceTimersByTimeAsync(RETRY_SAVED_MS[0]!));
    expect(calls('GET', '/api/plans/p1')).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(RETRY_SAVED_MS[1]! - RETRY_SAVED_MS[0]!));
    await vi.waitFor(() => expect(screen.getByText('Friday (now)')).toBeInTheDocument());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // Nothing saved is shown any more: no more asking.
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(calls('GET', '/api/plans/p1')).toHaveLength(3);
  });

  it('a saved answer from yesterday says so', async () => {
    vi.setSystemTime(new Date(2026, 10, 27, 8, 0));
    mockFetch({ 'GET /api/plans/p1': () => saved({ title: 'Friday' }) });
    renderWithProviders(<Plan />);
    expect(await screen.findByRole('status')).toHaveTextContent("You're offline: showing what you saw yesterday at 7:42 PM");
  });
});

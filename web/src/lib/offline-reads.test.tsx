import { act, screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAVED_AT_HEADER } from '../service-worker/offline';
import { json, mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/test-utils';
import { apiGet } from './api';
import { resetOfflineReads } from './offline-reads';

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
  resetOfflineReads();
});

describe('answers the service worker saved', () => {
  it("say \"You're offline: showing what you saw at 7:42 PM\", and are fetched again when the browser is back online", async () => {
    let online = false;
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

  it('a saved answer from yesterday says so', async () => {
    vi.setSystemTime(new Date(2026, 10, 27, 8, 0));
    mockFetch({ 'GET /api/plans/p1': () => saved({ title: 'Friday' }) });
    renderWithProviders(<Plan />);
    expect(await screen.findByRole('status')).toHaveTextContent("You're offline: showing what you saw yesterday at 7:42 PM");
  });
});

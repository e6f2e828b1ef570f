import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePlanLiveUpdates } from '../lib/live';
import { renderWithProviders } from '../test/test-utils';

function Watching() {
  usePlanLiveUpdates({ id: 'p1' });
  return <p>Plan</p>;
}

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('LiveStatusSign', () => {
  it('says "Reconnecting…" only after the connection has been down for 3 s, and goes when it is back', async () => {
    const { live } = renderWithProviders(<Watching />);
    expect(live.isOpen('p1')).toBe(true);
    act(() => live.send('p1', { type: 'status', status: 'reconnecting' }));
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    // A quick reconnect (the server's normal close) shows nothing.
    act(() => live.send('p1', { type: 'status', status: 'live' }));
    act(() => live.send('p1', { type: 'status', status: 'reconnecting' }));
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting…');

    act(() => live.send('p1', { type: 'status', status: 'live' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

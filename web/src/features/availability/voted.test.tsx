import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearGuest, setGuestSession, setGuestVotes } from '../../lib/guest-storage';
import { json, meRoute, mockFetch, text } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/test-utils';
import { myAnswersJson } from './test-fixtures';
import { useHasVotedOnDates } from './voted';

function Probe() {
  return <div data-testid="voted">{String(useHasVotedOnDates('p1'))}</div>;
}

const voted = () => screen.getByTestId('voted').textContent;

beforeEach(() => clearGuest());

describe('useHasVotedOnDates (the dashboard green dot)', () => {
  it("is true once a member's my-votes lists a slot (an if-need-be one too)", async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({
      'GET /api/auth/me': meRoute({ id: 'u2', email: 'ben@example.com', firstName: 'Ben', lastName: null }),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([], ['s1'])),
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(voted()).toBe('true'));
  });

  it('is true for a guest who said none of the dates work (an answer too)', async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([], [], true)),
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(voted()).toBe('true'));
  });

  it('is false with no votes, and for a visitor who has not joined', async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    const { calls } = mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson()),
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(calls('GET', '/api/plans/p1/my-votes')).toHaveLength(1));
    expect(voted()).toBe('false');
  });

  it("falls back to a guest's mirrored votes on this plan's slots", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    setGuestVotes({ planIdeaIds: [], timeSlotIds: ['s1'] });
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/p1/my-votes': () => new Response(null, { status: 500 }),
      'GET /api/plans/p1/timeslots': () => json([{ id: 's1', date: '2026-03-14', period: null, voteCount: 1 }]),
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(voted()).toBe('true'));
  });
});

import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/app-routes';
import { clearGuest, getGuestSession, getGuestVotes, setGuestSession, setGuestVotes } from '../../lib/guest-storage';
import { createQueryClient } from '../../lib/query-client';
import { json, meRoute, mockFetch, text } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/test-utils';
import { planKeys } from '../plans/queries';
import { afterSignIn, transferredVotesMessage } from './after-sign-in';

const sam = { id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' };
const votes = { planIdeaIds: ['i1'], timeSlotIds: ['s1', 's2'] };
const transferred = (ideas: number, times: number) => () =>
  json({ transferredIdeaVotes: ideas, transferredTimeVotes: times });

beforeEach(() => {
  clearGuest();
  localStorage.setItem('authToken', 'test-token');
});
afterEach(() => vi.restoreAllMocks());

describe('transferredVotesMessage', () => {
  it('counts the votes, singular for one, plain welcome for none', () => {
    expect(transferredVotesMessage(1)).toBe('Welcome! Your 1 previous vote has been saved to your account.');
    expect(transferredVotesMessage(3)).toBe('Welcome! Your 3 previous votes have been saved to your account.');
    expect(transferredVotesMessage(0)).toBe("You're now signed in");
  });
});

describe('afterSignIn', () => {
  it('says "signed in" and calls nothing without a guest session', async () => {
    const { requests } = mockFetch({});
    expect(await afterSignIn(createQueryClient())).toEqual({ welcomeMessage: "You're now signed in" });
    expect(requests).toHaveLength(0);
  });

  it('moves the guest votes, clears the guest items and refreshes the plans list', async () => {
    setGuestSession(sam);
    setGuestVotes(votes);
    const { calls } = mockFetch({ 'POST /api/auth/transfer-guest-votes': transferred(1, 2) });
    const queryClient = createQueryClient();
    queryClient.setQueryData(planKeys.list(), []);

    expect(await afterSignIn(queryClient)).toEqual({
      welcomeMessage: 'Welcome! Your 3 previous votes have been saved to your account.',
    });
    const [call] = calls('POST', '/api/auth/transfer-guest-votes');
    expect(call!.body).toEqual({ guestId: 'g1' });
    expect(call!.headers.get('Authorization')).toBe('Bearer test-token');
    // The guest's device secret proves the takeover; it travels in a header, not the body.
    expect(call!.headers.get('X-Guest-Secret')).toBe('device-secret');
    expect(getGuestSession()).toBeNull();
    expect(getGuestVotes()).toEqual({ planIdeaIds: [], timeSlotIds: [] });
    expect(localStorage.getItem('guestSession')).toBeNull();
    expect(localStorage.getItem('guestVotes')).toBeNull();
    expect(queryClient.getQueryState(planKeys.list())!.isInvalidated).toBe(true);
  });

  it('uses the singular for one vote', async () => {
    setGuestSession(sam);
    mockFetch({ 'POST /api/auth/transfer-guest-votes': transferred(0, 1) });
    expect((await afterSignIn(createQueryClient())).welcomeMessage).toBe(
      'Welcome! Your 1 previous vote has been saved to your account.',
    );
  });

  it('says "signed in" when nothing moved, and still clears the guest', async () => {
    setGuestSession(sam);
    mockFetch({ 'POST /api/auth/transfer-guest-votes': transferred(0, 0) });
    expect((await afterSignIn(createQueryClient())).welcomeMessage).toBe("You're now signed in");
    expect(getGuestSession()).toBeNull();
  });

  it.each([
    ['an error answer', () => text('Guest not found', 404)],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a malformed answer', () => json({ moved: 'all' })],
  ])('only logs %s and keeps the guest items', async (_case, answer) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setGuestSession(sam);
    setGuestVotes(votes);
    mockFetch({ 'POST /api/auth/transfer-guest-votes': answer });
    expect(await afterSignIn(createQueryClient())).toEqual({ welcomeMessage: "You're now signed in" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(getGuestSession()).toEqual(sam);
    expect(getGuestVotes()).toEqual(votes);
  });

  it("says why when the server refuses the move (a device that continued by name), and keeps the guest items", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    setGuestSession(sam);
    setGuestVotes(votes);
    mockFetch({
      'POST /api/auth/transfer-guest-votes': () => text('This can only be done from the device that joined as Sam', 403),
    });
    expect(await afterSignIn(createQueryClient())).toEqual({
      welcomeMessage: "You're now signed in, but your votes were not moved: this can only be done from the device that joined as Sam.",
    });
    expect(getGuestSession()).toEqual(sam);
    expect(getGuestVotes()).toEqual(votes);
  });

  it('asks nothing for a guest session kept without a secret (it cannot prove it is that guest), and keeps it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('guestSession', JSON.stringify({ id: 'g1', name: 'Sam', planId: 'p1' }));
    const { requests } = mockFetch({});
    expect(await afterSignIn(createQueryClient())).toEqual({ welcomeMessage: "You're now signed in" });
    expect(requests).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1' });
  });
});

describe('signing in as a guest', () => {
  it('shows the transfer in the welcome toast and returns to the dashboard', async () => {
    localStorage.removeItem('authToken');
    setGuestSession(sam);
    const ada = { id: 'u1', email: 'sam@example.com', firstName: 'Sam', lastName: 'Lee' };
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'POST /api/auth/verify-otp': () => json({ token: 'test-token' }),
      'POST /api/auth/transfer-guest-votes': transferred(2, 0),
      'GET /api/plans/slug/abcDEF12': () => text('Plan not found', 404),
    });
    const { user, location } = renderWithProviders(<AppRoutes />, {
      route: { pathname: '/auth', search: '?returnTo=/l/abcDEF12/dashboard', state: { email: 'sam@example.com' } },
    });
    await user.click((await screen.findAllByRole('textbox', { name: /^Digit \d of 6$/ }))[0]!);
    await user.keyboard('123456');

    expect(await screen.findByText('Welcome!')).toBeInTheDocument();
    expect(screen.getByText('Welcome! Your 2 previous votes have been saved to your account.')).toBeInTheDocument();
    expect(calls('POST', '/api/auth/transfer-guest-votes')).toHaveLength(1);
    expect(getGuestSession()).toBeNull();
    await waitFor(() => expect(location()).toBe('/l/abcDEF12/dashboard'));
  });
});

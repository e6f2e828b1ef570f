import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, json, meRoute, mockFetch, text } from '../test/mock-fetch';
import { renderWithProviders } from '../test/test-utils';
import { AppRoutes } from './app-routes';

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: null };
const signedOut = { 'GET /api/auth/me': () => text('Not signed in', 401) };
const signedIn = () => {
  localStorage.setItem('authToken', 'test-token');
  return { 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json([]) };
};

describe('app routes', () => {
  it('shows the splash while the session loads', async () => {
    localStorage.setItem('authToken', 'test-token');
    const me = deferred();
    mockFetch({ 'GET /api/auth/me': () => me.promise });
    renderWithProviders(<AppRoutes />, { route: '/' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading Hangplan...');
    me.resolve(text('Not signed in', 401));
    expect(await screen.findByRole('button', { name: 'Start Planning' })).toBeInTheDocument();
    expect(screen.queryByText('Loading Hangplan...')).not.toBeInTheDocument();
  });

  it('treats a 401 from me as signed out and drops the refused token', async () => {
    localStorage.setItem('authToken', 'expired');
    const { calls } = mockFetch(signedOut);
    renderWithProviders(<AppRoutes />, { route: '/' });
    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    expect(calls('GET', '/api/auth/me')).toHaveLength(1);
    expect(calls('GET', '/api/auth/me')[0]!.headers.get('Authorization')).toBe('Bearer expired');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('offers a retry when the session cannot be loaded', async () => {
    localStorage.setItem('authToken', 'test-token');
    let answer = text('Something went wrong', 500);
    const { calls } = mockFetch({ 'GET /api/auth/me': () => answer });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/' });
    expect(await screen.findByRole('heading', { name: "Can't reach Hangplan" })).toBeInTheDocument();
    answer = text('Not signed in', 401);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Start Planning' })).toBeInTheDocument();
    expect(calls('GET', '/api/auth/me')).toHaveLength(2);
  });

  it('asks nothing of the server without a stored token: signed out at once', async () => {
    const { calls } = mockFetch(signedOut);
    renderWithProviders(<AppRoutes />, { route: '/' });
    expect(screen.queryByText('Loading Hangplan...')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Start Planning' })).toBeInTheDocument();
    expect(calls('GET', '/api/auth/me')).toHaveLength(0);
  });

  it('sends a signed-in visitor from / to /home', async () => {
    mockFetch(signedIn());
    const { location } = renderWithProviders(<AppRoutes />, { route: '/' });
    await waitFor(() => expect(location()).toBe('/home'));
    expect(await screen.findByRole('heading', { name: 'Your Plans' })).toBeInTheDocument();
  });

  it.each(['/home', '/create-plan', '/plan/p1/share', '/plan/p1', '/plan/p1/ideas', '/plan/p1/availability', '/profile', '/interests', '/interests/manage'])(
    'sends a signed-out visitor from %s to sign in with returnTo',
    async (path) => {
      mockFetch(signedOut);
      const { location } = renderWithProviders(<AppRoutes />, { route: path });
      expect(await screen.findByRole('button', { name: 'Send Verification Code' })).toBeInTheDocument();
      expect(location()).toBe(`/auth?returnTo=${path}`);
    },
  );

  it('keeps the query string in returnTo', async () => {
    mockFetch(signedOut);
    const { location } = renderWithProviders(<AppRoutes />, { route: '/plan/p1?tab=ideas' });
    await screen.findByRole('button', { name: 'Send Verification Code' });
    expect(location()).toBe('/auth?returnTo=/plan/p1%3Ftab%3Dideas');
  });

  it('opens the availability page at /plan/p1/availability when signed in', async () => {
    mockFetch(signedIn());
    const { location } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/availability' });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
    expect(location()).toBe('/plan/p1/availability');
  });

  it.each([
    ['/create-plan', 'Create New Plan'],
    ['/plan/p1/share', 'Plan not found'],
    ['/plan/p1', 'Plan not found'],
    ['/plan/p1/ideas', 'Plan not found'],
    ['/interests', 'Interests'],
    ['/interests/manage', 'Manage Interests'],
  ])('opens the screen at %s when signed in', async (path, heading) => {
    mockFetch(signedIn());
    const { location } = renderWithProviders(<AppRoutes />, { route: path });
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(location()).toBe(path);
  });

  it.each([
    ['signed out', () => signedOut],
    ['signed in', signedIn],
  ])('opens the unsubscribe page at /unsubscribe/{token} %s, with no redirect', async (_, session) => {
    const token = 'A1-_'.repeat(16);
    const { calls } = mockFetch({ ...session(), [`GET /api/unsubscribe/${token}`]: () => json({ planTitle: 'Picnic', emails: true }) });
    const { location } = renderWithProviders(<AppRoutes />, { route: `/unsubscribe/${token}` });
    expect(await screen.findByRole('heading', { name: 'Stop e-mails about Picnic?' })).toBeInTheDocument();
    expect(location()).toBe(`/unsubscribe/${token}`);
    expect(calls('GET', `/api/unsubscribe/${token}`)).toHaveLength(1);
  });

  it('sends a visitor with neither a user nor a guest session from /l/{slug}/availability to the join page', async () => {
    mockFetch(signedOut);
    const { location } = renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/availability' });
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
  });

  it('shows the 404 card with a way home for unknown paths', async () => {
    mockFetch(signedOut);
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go Home' }));
    expect(location()).toBe('/');
    expect(await screen.findByRole('button', { name: 'Start Planning' })).toBeInTheDocument();
  });
});

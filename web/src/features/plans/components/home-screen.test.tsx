import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

describe('home', () => {
  it('shows the shell, the welcome line and the empty state while /api/plans is missing (404)', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => text('Not found', 404) });
    renderWithProviders(<AppRoutes />, { route: '/home' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Your Plans' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Ada Lovelace!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hangplan home' })).toHaveAttribute('href', '/');
    const avatar = screen.getByRole('link', { name: 'Profile of Ada Lovelace' });
    expect(avatar).toHaveAttribute('href', '/profile');
    expect(avatar).toHaveTextContent('AL');

    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Your First Plan' })).toHaveAttribute('href', '/create-plan');
    expect(screen.getByRole('link', { name: 'Create Plan' })).toHaveAttribute('href', '/create-plan');

    const nav = screen.getByRole('navigation', { name: 'Main' });
    const tabs = within(nav).getAllByRole('link');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['Profile', '/profile'],
      ['Interests', '/interests'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it('shows the empty state for an empty list', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json([]) });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
  });

  it('lists plans linking to their page', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans': () =>
        json([
          { id: 'p1', title: 'Friday night', status: 'planning', lockedIdeaText: null },
          { id: 'p2', title: 'Picnic', status: 'planning', lockedIdeaText: 'Park by the lake' },
        ]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    const friday = await screen.findByRole('link', { name: /Friday night/ });
    expect(friday).toHaveAttribute('href', '/plan/p1');
    expect(friday).toHaveTextContent('TBD');
    expect(screen.getByRole('link', { name: /Picnic/ })).toHaveTextContent('Park by the lake');
    expect(screen.queryByText('Ready to make plans?')).not.toBeInTheDocument();
  });

  it('says so when the plans cannot be loaded, and retries', async () => {
    let answer = text('Something went wrong', 500);
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => answer });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByText("Couldn't load your plans")).toBeInTheDocument();
    answer = json([]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
  });

  it('greets by e-mail and uses its initials without a name', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute({ id: 'u2', email: 'zoe@example.com', firstName: null, lastName: null }),
      'GET /api/plans': () => json([]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByText('Welcome back, zoe!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile of zoe' })).toHaveTextContent('ZO');
  });
});

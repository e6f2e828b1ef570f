import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { reloadAt } from '../../../lib/browser-location';
import { json, meRoute, mockFetch, noContent, text, type RecordedRequest } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

// jsdom cannot navigate; the full page load is the one thing not exercised.
vi.mock('../../../lib/browser-location', () => ({ reloadAt: vi.fn() }));

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

beforeEach(() => {
  localStorage.setItem('authToken', 'test-token');
  vi.mocked(reloadAt).mockClear();
});

describe('profile', () => {
  it('saves the profile, confirms it and shows what the server stored', async () => {
    let stored = ada;
    const { calls } = mockFetch({
      'GET /api/auth/me': (request) => meRoute(stored)(request),
      'PATCH /api/auth/profile': (request: RecordedRequest) => {
        const body = request.body as typeof ada;
        stored = { ...stored, ...body, email: body.email.toLowerCase() };
        return json(stored);
      },
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });

    const first = await screen.findByRole('textbox', { name: 'First Name' });
    expect(first).toHaveValue('Ada');
    expect(screen.getByRole('textbox', { name: 'Last Name' })).toHaveValue('Lovelace');
    const email = screen.getByRole('textbox', { name: /Email Address/ });
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();

    await user.clear(first);
    await user.type(first, ' Augusta ');
    await user.clear(email);
    await user.type(email, 'Augusta@Example.com');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(calls('PATCH', '/api/auth/profile')[0]!.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      email: 'Augusta@Example.com',
    });
    expect(calls('GET', '/api/auth/me')).toHaveLength(2);
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Email Address/ })).toHaveValue('augusta@example.com'));
    expect(screen.getByText('Augusta Lovelace · augusta@example.com')).toBeInTheDocument();
  });

  it("shows the server's sentence when saving fails", async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'PATCH /api/auth/profile': () => text('That email is already used by another account', 409),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('That email is already used by another account')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('falls back to "Failed to update profile"', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'PATCH /api/auth/profile': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update profile')).toBeInTheDocument();
  });

  it('requires an e-mail', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'PATCH /api/auth/profile': noContent });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.clear(await screen.findByRole('textbox', { name: /Email Address/ }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Enter your email address')).toBeInTheDocument();
    expect(calls('PATCH', '/api/auth/profile')).toHaveLength(0);
  });

  it('signs out locally: forgets the token and the cache, and reloads at /', async () => {
    const { requests } = mockFetch({ 'GET /api/auth/me': meRoute(ada) });
    const { user, queryClient } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    expect(await screen.findByRole('heading', { name: 'Account Settings' })).toBeInTheDocument();
    const before = requests.length;

    await user.click(screen.getByRole('button', { name: 'Sign Out' }));

    expect(localStorage.getItem('authToken')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(reloadAt).toHaveBeenCalledWith('/');
    // Local only: no call to the server.
    expect(requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

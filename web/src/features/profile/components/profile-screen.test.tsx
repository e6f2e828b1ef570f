import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { reloadAt } from '../../../lib/browser-location';
import { deferred, json, meRoute, mockFetch, noContent, text, type RecordedRequest } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { planSummaryJson } from '../../plans/test-fixtures';

// jsdom cannot navigate; the full page load is the one thing not exercised.
vi.mock('../../../lib/browser-location', () => ({ reloadAt: vi.fn() }));

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

beforeEach(() => {
  localStorage.setItem('authToken', 'test-token');
  vi.mocked(reloadAt).mockClear();
});

describe('profile', () => {
  it('saves the names, confirms it and shows what the server stored', async () => {
    let stored = ada;
    const { calls } = mockFetch({
      'GET /api/auth/me': (request) => meRoute(stored)(request),
      'PATCH /api/auth/profile': (request: RecordedRequest) => {
        const body = request.body as typeof ada;
        stored = { ...stored, firstName: body.firstName, lastName: body.lastName };
        return json({ ...stored, pendingEmail: null });
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
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(calls('PATCH', '/api/auth/profile')[0]!.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(calls('GET', '/api/auth/me')).toHaveLength(2);
    expect(await screen.findByText('Augusta Lovelace · ada@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Confirm your new email' })).not.toBeInTheDocument();
  });

  it('changes the e-mail only with the code sent to the new address, entered like the sign-in code', async () => {
    let stored = ada;
    const { calls } = mockFetch({
      'GET /api/auth/me': (request) => meRoute(stored)(request),
      // The server keeps the old address until the code is confirmed.
      'PATCH /api/auth/profile': () => json({ ...stored, pendingEmail: 'augusta@example.com' }),
      'POST /api/auth/confirm-email': (request: RecordedRequest) => {
        if ((request.body as { code: string }).code !== '123456') return text('Invalid or expired code', 400);
        stored = { ...stored, email: 'augusta@example.com' };
        return json(stored);
      },
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const email = await screen.findByRole('textbox', { name: /Email Address/ });
    await user.clear(email);
    await user.type(email, 'Augusta@Example.com');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const step = within(await screen.findByRole('region', { name: 'Confirm your new email' }));
    expect(await screen.findByText('Code sent!')).toBeInTheDocument();
    expect(step.getByRole('heading', { level: 2, name: 'Check your email' })).toBeInTheDocument();
    expect(step.getByText('augusta@example.com')).toBeInTheDocument();
    expect(calls('PATCH', '/api/auth/profile')[0]!.body).toMatchObject({ email: 'Augusta@Example.com' });
    expect(screen.getByText('Ada Lovelace · ada@example.com')).toBeInTheDocument();

    // A wrong code: the server's sentence, the entry is cleared for another try.
    await user.type(step.getByRole('textbox', { name: 'Digit 1 of 6' }), '654321');
    expect(await screen.findByText('Invalid or expired code')).toBeInTheDocument();
    await waitFor(() => expect(step.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveValue(''));

    // The sixth digit submits by itself.
    await user.type(step.getByRole('textbox', { name: 'Digit 1 of 6' }), '123456');
    expect(await screen.findByText('Email updated')).toBeInTheDocument();
    expect(calls('POST', '/api/auth/confirm-email').map((r) => r.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
    expect(await screen.findByText('Ada Lovelace · augusta@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Confirm your new email' })).not.toBeInTheDocument();
  });

  it('resends the code, or keeps the current e-mail', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'PATCH /api/auth/profile': () => json({ ...ada, pendingEmail: 'new@example.com' }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const email = await screen.findByRole('textbox', { name: /Email Address/ });
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const step = within(await screen.findByRole('region', { name: 'Confirm your new email' }));
    await user.click(step.getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(calls('PATCH', '/api/auth/profile')).toHaveLength(2));
    expect(calls('PATCH', '/api/auth/profile')[1]!.body).toEqual({ email: 'new@example.com' });
    await user.click(step.getByRole('button', { name: 'Keep my current email' }));
    expect(screen.queryByRole('region', { name: 'Confirm your new email' })).not.toBeInTheDocument();
  });

  it('shows the 409 of a taken address only once the right code is in', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'PATCH /api/auth/profile': () => json({ ...ada, pendingEmail: 'bob@example.com' }),
      'POST /api/auth/confirm-email': () => text('That e-mail address is already used by another account', 409),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const email = await screen.findByRole('textbox', { name: /Email Address/ });
    await user.clear(email);
    await user.type(email, 'bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const step = within(await screen.findByRole('region', { name: 'Confirm your new email' }));
    await user.type(step.getByRole('textbox', { name: 'Digit 1 of 6' }), '123456');
    expect(await screen.findByText('That e-mail address is already used by another account')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it("shows the server's sentence when saving fails", async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'PATCH /api/auth/profile': () => text('Please wait 30 seconds before asking for another code', 429),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please wait 30 seconds before asking for another code')).toBeInTheDocument();
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

  it('signs out: the server ends the session, then the token, the cache and the imported calendars are forgotten and the app reloads at /', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'POST /api/auth/sign-out': noContent });
    localStorage.setItem('calendarImport:p1', '{"fileName":"work.ics"}');
    localStorage.setItem('calendarImport:p2', '{"fileName":"home.ics"}');
    localStorage.setItem('colorScheme', 'dark');
    const { user, queryClient } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    expect(await screen.findByRole('heading', { name: 'Account Settings' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign Out' }));

    await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
    expect(calls('POST', '/api/auth/sign-out')).toHaveLength(1);
    expect(calls('POST', '/api/auth/sign-out')[0]!.headers.get('Authorization')).toBe('Bearer test-token');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(localStorage.getItem('calendarImport:p1')).toBeNull();
    expect(localStorage.getItem('calendarImport:p2')).toBeNull();
    // What is the device's, not the person's, stays.
    expect(localStorage.getItem('colorScheme')).toBe('dark');
  });

  it('signs out on this device even when the server cannot be reached', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'POST /api/auth/sign-out': () => Promise.reject(new TypeError('offline')) });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('"Sign out everywhere" ends every session on the server and signs this device out too', async () => {
    const everywhere = deferred();
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'POST /api/auth/sign-out-everywhere': () => everywhere.promise });
    const { user, queryClient } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(screen.getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeDisabled();
    expect(localStorage.getItem('authToken')).toBe('test-token');

    everywhere.resolve(noContent());
    await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
    expect(calls('POST', '/api/auth/sign-out-everywhere')).toHaveLength(1);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('"Sign out everywhere" that fails keeps the visitor signed in and says so', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'POST /api/auth/sign-out-everywhere': () => new Response('', { status: 503 }) });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Failed to sign out everywhere')).toBeInTheDocument();
    expect(localStorage.getItem('authToken')).toBe('test-token');
    expect(reloadAt).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeEnabled();
  });

  describe('Delete account', () => {
    // Ada hosts "Board games" (Ben has an account there) and "Just us" (a guest only); Ben hosts "Book club".
    const plans = [
      planSummaryJson({ id: 'p1', title: 'Board games', hostId: 'u1', participants: [
        { id: 'a', name: 'Ada Lovelace', isGuest: false }, { id: 'b', name: 'Ben', isGuest: false }] }),
      planSummaryJson({ id: 'p2', title: 'Just us', hostId: 'u1', participants: [
        { id: 'c', name: 'Ada Lovelace', isGuest: false }, { id: 'd', name: 'Gus', isGuest: true }] }),
      planSummaryJson({ id: 'p3', title: 'Book club', hostId: 'u2', participants: [
        { id: 'e', name: 'Ben', isGuest: false }, { id: 'f', name: 'Ada Lovelace', isGuest: false }] }),
    ];

    it('asks first, saying what will happen and which hosted plans will be deleted; Cancel sends nothing', async () => {
      const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json(plans) });
      const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
      const card = within(await screen.findByRole('region', { name: 'Delete account' }));
      expect(card.getByText("Deletes your account and signs you out on every device. This can't be undone.")).toBeInTheDocument();
      await user.click(card.getByRole('button', { name: 'Delete account' }));

      const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
      expect(dialog.getByText(/Your account, interests and calendar link are deleted, and every device is signed out\./)).toBeInTheDocument();
      expect(dialog.getByText(/your ideas and comments stay, signed "Deleted account"/)).toBeInTheDocument();
      expect(await dialog.findByText('No one else in these plans has an account, so they will be deleted for everyone:')).toBeInTheDocument();
      expect(dialog.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Just us']);
      // Focus starts on the safe answer.
      expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await user.click(dialog.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls('DELETE', '/api/auth/account')).toHaveLength(0);
      expect(localStorage.getItem('authToken')).toBe('test-token');
    });

    it('deletes the account, then signs this device out (token, cache, imported calendars) and opens the landing page', async () => {
      const deleted = deferred();
      const { calls } = mockFetch({
        'GET /api/auth/me': meRoute(ada),
        'GET /api/plans': () => json(plans.slice(0, 1)),
        'DELETE /api/auth/account': () => deleted.promise,
      });
      localStorage.setItem('calendarImport:p1', '{"fileName":"work.ics"}');
      const { user, queryClient } = renderWithProviders(<AppRoutes />, { route: '/profile' });
      await user.click(within(await screen.findByRole('region', { name: 'Delete account' })).getByRole('button', { name: 'Delete account' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
      await waitFor(() => expect(calls('GET', '/api/plans')).toHaveLength(1));
      expect(dialog.queryByRole('list')).not.toBeInTheDocument();
      await user.click(dialog.getByRole('button', { name: 'Delete account' }));
      expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
      expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();

      deleted.resolve(noContent());
      await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
      expect(calls('DELETE', '/api/auth/account')).toHaveLength(1);
      expect(calls('DELETE', '/api/auth/account')[0]!.headers.get('Authorization')).toBe('Bearer test-token');
      expect(localStorage.getItem('authToken')).toBeNull();
      expect(localStorage.getItem('calendarImport:p1')).toBeNull();
      // Nothing of the person is kept (the open question's list may ask again until the reload).
      expect(queryClient.getQueryCache().getAll().filter((query) => query.state.dataUpdatedAt > 0 && query.state.data !== undefined).map((q) => q.queryKey))
        .toEqual([]);
    });

    it("a refusal keeps the visitor signed in and shows the server's sentence", async () => {
      mockFetch({
        'GET /api/auth/me': meRoute(ada),
        'GET /api/plans': () => Promise.reject(new TypeError('offline')),
        'DELETE /api/auth/account': () => text('Something went wrong on our side', 503),
      });
      const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
      await user.click(within(await screen.findByRole('region', { name: 'Delete account' })).getByRole('button', { name: 'Delete account' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
      // Without the list, the question says what happens to such plans in general.
      expect(await dialog.findByText(/A plan you host where no one else has an account is deleted\./)).toBeInTheDocument();
      await user.click(dialog.getByRole('button', { name: 'Delete account' }));
      expect(await screen.findByText('Something went wrong on our side')).toBeInTheDocument();
      expect(localStorage.getItem('authToken')).toBe('test-token');
      expect(reloadAt).not.toHaveBeenCalled();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('button', { name: 'Delete account' })).toBeEnabled();
    });
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, noContent, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

/**
 * Lets promises, zero-delay (fake) timers and React renders run, without moving
 * the fake clock, until `done` holds.
 */
async function settle(done: () => boolean) {
  for (let turn = 0; turn < 100 && !done(); turn++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
      await new Promise((resolve) => setImmediate(resolve));
    });
  }
  expect(done()).toBe(true);
}

const digitInputs = () => screen.getAllByRole('textbox', { name: /^Digit \d of 6$/ });

async function reachCodeStep(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
  await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
  await screen.findByRole('heading', { name: 'Check your email' });
}

describe('sign-in screen', () => {
  it('sends the code, verifies it and redirects to returnTo about 100 ms later', async () => {
    const send = deferred();
    const verify = deferred();
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'POST /api/auth/send-otp': () => send.promise,
      'POST /api/auth/verify-otp': () => verify.promise,
    });
    // A returnTo with a query string, which must survive the redirect.
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/auth?returnTo=/plan/p1?tab=ideas' });

    // Step 1, with its pending label.
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), '  ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    // The code is asked for and used by this browser's sign-in key (lib/sign-in-device.ts), one and the same.
    const device = localStorage.getItem('signInDevice');
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(calls('POST', '/api/auth/send-otp')[0]!.body).toEqual({ email: 'ada@example.com', device });
    send.resolve(noContent());

    // Step 2.
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(screen.getByText('Code sent!')).toBeInTheDocument();
    expect(screen.getByText('Check your email for the verification code')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    const verifyButton = screen.getByRole('button', { name: 'Verify & Continue' });
    expect(verifyButton).toBeDisabled();
    expect(screen.getByRole('group', { name: 'Verification code' })).toBeInTheDocument();
    expect(digitInputs()).toHaveLength(6);
    expect(digitInputs()[0]).toHaveAttribute('autocomplete', 'one-time-code');
    expect(digitInputs()[0]).toHaveAttribute('inputmode', 'numeric');

    await user.click(digitInputs()[0]!);
    await user.keyboard('12345');
    expect(verifyButton).toBeDisabled();
    expect(calls('POST', '/api/auth/verify-otp')).toHaveLength(0);

    // The 6th digit submits on its own.
    await user.keyboard('6');
    expect(await screen.findByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(calls('POST', '/api/auth/verify-otp')[0]!.body).toEqual({ email: 'ada@example.com', code: '123456', device });
    // From here the clock is ours: only zero-delay timers run until we move it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      verify.resolve(json({ token: 'test-token' }));
      await settle(() => screen.queryByText('Welcome!') !== null);
      expect(screen.getByText("You're now signed in")).toBeInTheDocument();
      expect(localStorage.getItem('authToken')).toBe('test-token');
      // `me` was fetched again, now with the token.
      expect(calls('GET', '/api/auth/me').at(-1)!.headers.get('Authorization')).toBe('Bearer test-token');

      await act(() => vi.advanceTimersByTimeAsync(99));
      expect(location()).toBe('/auth?returnTo=/plan/p1?tab=ideas');
      await act(() => vi.advanceTimersByTimeAsync(1));
      // The target screen is lazy: the router commits once its chunk has
      // loaded, which needs the real clock.
      vi.useRealTimers();
      await waitFor(() => expect(location()).toBe('/plan/p1?tab=ideas'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not send an empty e-mail', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': () => text('Not signed in', 401) });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Enter your email address')).toBeInTheDocument();
    expect(calls('POST', '/api/auth/send-otp')).toHaveLength(0);
  });

  it("shows the server's sentence when sending fails, and stays on step 1", async () => {
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': () => text('Please wait 30 seconds before asking for another code', 429),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Please wait 30 seconds before asking for another code')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Verification Code' })).toBeEnabled();
  });

  it('falls back to "Failed to send code" without a server sentence', async () => {
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Failed to send code')).toBeInTheDocument();
  });

  it('titles a rejected code "Invalid code", clears it and stays signed out', async () => {
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': noContent,
      'POST /api/auth/verify-otp': () => text('Invalid or expired code', 400),
    });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await reachCodeStep(user);
    await user.click(digitInputs()[0]!);
    await user.keyboard('999999');
    expect(await screen.findByText('Invalid code')).toBeInTheDocument();
    expect(screen.getByText('Invalid or expired code')).toBeInTheDocument();
    await waitFor(() => digitInputs().forEach((input) => expect(input).toHaveValue('')));
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(location()).toBe('/auth');
  });

  it('falls back to "Please check your code and try again"', async () => {
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': noContent,
      'POST /api/auth/verify-otp': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await reachCodeStep(user);
    await user.click(digitInputs()[0]!);
    await user.keyboard('123456');
    expect(await screen.findByText('Please check your code and try again')).toBeInTheDocument();
  });

  it('does not submit an incomplete code with Enter', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': noContent,
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await reachCodeStep(user);
    await user.click(digitInputs()[0]!);
    await user.keyboard('123{Enter}');
    const verifyButton = screen.getByRole('button', { name: 'Verify & Continue' });
    expect(verifyButton).toBeDisabled();
    // Even a submit that bypasses the disabled button (e.g. assistive tech) is ignored.
    fireEvent.submit(verifyButton.closest('form')!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('button', { name: 'Verify & Continue' })).toBeInTheDocument();
    expect(calls('POST', '/api/auth/verify-otp')).toHaveLength(0);
  });

  it('resends the code and lets the user change the e-mail', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/auth/send-otp': noContent,
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/auth' });
    await reachCodeStep(user);
    expect(screen.getByText("Didn't receive the code?")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(calls('POST', '/api/auth/send-otp')).toHaveLength(2));
    expect(calls('POST', '/api/auth/send-otp')[1]!.body).toEqual(calls('POST', '/api/auth/send-otp')[0]!.body);

    await user.click(screen.getByRole('button', { name: 'Use a different email' }));
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
  });

  it('opens on step 2 with the e-mail the landing page sent the code to', async () => {
    mockFetch({ 'GET /api/auth/me': () => text('Not signed in', 401) });
    renderWithProviders(<AppRoutes />, {
      route: { pathname: '/auth', search: '?returnTo=/home', state: { email: 'ada@example.com' } },
    });
    const heading = await screen.findByRole('heading', { name: 'Check your email' });
    expect(within(heading.parentElement!).getByText('ada@example.com')).toBeInTheDocument();
  });

  it('sends a signed-in visitor straight to returnTo', async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({ 'GET /api/auth/me': meRoute(ada) });
    const { location } = renderWithProviders(<AppRoutes />, { route: '/auth?returnTo=/profile' });
    await waitFor(() => expect(location()).toBe('/profile'));
  });

  it('ignores a returnTo that leaves the site', async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json([]) });
    const { location } = renderWithProviders(<AppRoutes />, { route: '/auth?returnTo=//evil.example/x' });
    await waitFor(() => expect(location()).toBe('/home'));
  });
});

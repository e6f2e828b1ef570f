import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

// 68 bytes in base64url (91 characters), like the links the API mails.
const TOKEN = `${'aB3_-'.repeat(18)}x`;
const API = `/api/unsubscribe/${TOKEN}`;
const planTitle = 'Friday dinner';
const on = () => json({ planTitle, emails: true });
const off = () => json({ planTitle, emails: false });

const open = () => renderWithProviders(<AppRoutes />, { route: `/unsubscribe/${TOKEN}` });

describe('unsubscribe page', () => {
  it('loads, then asks to stop the e-mails about the plan (the GET asks for JSON)', async () => {
    const answer = deferred();
    const { calls } = mockFetch({ [`GET ${API}`]: () => answer.promise });
    open();
    expect((await screen.findByText('Loading...')).closest('[role="status"]')).toBeInTheDocument();
    answer.resolve(on());
    expect(await screen.findByRole('heading', { level: 1, name: 'Stop e-mails about Friday dinner?' })).toBeInTheDocument();
    expect(
      screen.getByText("You'll still see everything in the app. Notifications on your phone are set separately."),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeEnabled();
    expect(screen.queryByText(/are on again/)).not.toBeInTheDocument();
    expect(calls('GET', API)).toHaveLength(1);
    expect(calls('GET', API)[0]!.headers.get('Accept')).toBe('application/json');
    expect(calls('POST', API)).toHaveLength(0);
  });

  it('Unsubscribe sends POST with no body, shows it is pending, then the unsubscribed state', async () => {
    const answer = deferred();
    const { calls } = mockFetch({ [`GET ${API}`]: on, [`POST ${API}`]: () => answer.promise });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    const button = screen.getByRole('button', { name: 'Unsubscribe' });
    expect(button).toHaveAttribute('data-loading', 'true');
    expect(button).toBeDisabled();
    answer.resolve(off());

    const heading = await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" });
    expect(screen.getByText("You won't get e-mails about Friday dinner any more.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn e-mails back on' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
    // The pressed button is gone: focus moves to the new state's heading.
    expect(heading).toHaveFocus();
    expect(calls('POST', API)).toHaveLength(1);
    expect(calls('POST', API)[0]!.body).toBeUndefined();
    expect(calls('GET', API)).toHaveLength(1);
  });

  it('Turn e-mails back on sends DELETE and returns to the first state with a confirmation', async () => {
    const answer = deferred();
    const { calls } = mockFetch({ [`GET ${API}`]: on, [`POST ${API}`]: off, [`DELETE ${API}`]: () => answer.promise });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    await user.click(await screen.findByRole('button', { name: 'Turn e-mails back on' }));
    expect(screen.getByRole('button', { name: 'Turn e-mails back on' })).toHaveAttribute('data-loading', 'true');
    answer.resolve(on());

    const heading = await screen.findByRole('heading', { level: 1, name: 'Stop e-mails about Friday dinner?' });
    expect(screen.getByRole('status')).toHaveTextContent('E-mails about Friday dinner are on again.');
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeEnabled();
    expect(heading).toHaveFocus();
    expect(calls('DELETE', API)).toHaveLength(1);
    expect(calls('DELETE', API)[0]!.body).toBeUndefined();

    // Unsubscribing again leaves no stale confirmation behind.
    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" })).toBeInTheDocument();
    expect(screen.queryByText(/are on again/)).not.toBeInTheDocument();
    expect(calls('POST', API)).toHaveLength(2);
  });

  it('shows the unsubscribed state at once when the e-mails are already off', async () => {
    const { calls } = mockFetch({ [`GET ${API}`]: off });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" })).toBeInTheDocument();
    expect(screen.getByText("You won't get e-mails about Friday dinner any more.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn e-mails back on' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
    expect(calls('POST', API)).toHaveLength(0);
  });

  it.each(['This unsubscribe link is not valid', 'This plan no longer exists'])(
    "a 404 shows the server's sentence (%s) and a way to Hangplan",
    async (sentence) => {
      mockFetch({ [`GET ${API}`]: () => text(sentence, 404) });
      const { user, location } = open();
      expect(await screen.findByRole('heading', { level: 1, name: sentence })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
      const link = screen.getByRole('link', { name: 'Go to Hangplan' });
      expect(link).toHaveAttribute('href', '/');
      await user.click(link);
      expect(location()).toBe('/');
    },
  );

  const EXPIRED = 'This unsubscribe link has expired, please sign in to change the e-mails about this plan';

  it.each([
    [410, EXPIRED],
    [401, 'Your session has expired, please sign in again'],
  ])('a %s (a link past its days; a session that ended) asks its member to sign in and come back here', async (status, sentence) => {
    mockFetch({ [`GET ${API}`]: () => text(sentence, status) });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: sentence })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/auth?returnTo=/unsubscribe/${TOKEN}`);
    expect(screen.getByRole('link', { name: 'Go to Hangplan' })).toHaveAttribute('href', '/');
  });

  it("a 410 to someone signed in (the page asked as them) says the link is another account's", async () => {
    localStorage.setItem('authToken', 'a.b.c');
    const { calls } = mockFetch({ [`GET ${API}`]: () => text(EXPIRED, 410), 'GET /api/auth/me': () => json({ id: 'u1', email: 'x@example.com' }) });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: EXPIRED })).toBeInTheDocument();
    expect(screen.getByText('This link was sent to another account.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(calls('GET', API)[0]!.headers.get('Authorization')).toBe('Bearer a.b.c');
  });

  it('another failure of the read offers Try again', async () => {
    let answer = text('Something went wrong', 500);
    const { calls } = mockFetch({ [`GET ${API}`]: () => answer });
    const { user } = open();
    expect(await screen.findByRole('heading', { level: 1, name: "Couldn't load this page" })).toBeInTheDocument();
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Hangplan' })).toHaveAttribute('href', '/');
    answer = on();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Stop e-mails about Friday dinner?' })).toBeInTheDocument();
    expect(calls('GET', API)).toHaveLength(2);
  });

  it("a refused change shows the server's sentence and keeps the page as it was", async () => {
    mockFetch({ [`GET ${API}`]: on, [`POST ${API}`]: () => text('This plan no longer exists', 404) });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('This plan no longer exists')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Stop e-mails about Friday dinner?' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeEnabled());
  });

  it.each([
    ['Unsubscribe', 'Failed to unsubscribe', on, 'POST'],
    ['Turn e-mails back on', 'Failed to turn e-mails back on', off, 'DELETE'],
  ] as const)("%s falls back to '%s' when no sentence comes back", async (button, fallback, state, method) => {
    mockFetch({ [`GET ${API}`]: state, [`${method} ${API}`]: () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: button }));
    expect(await screen.findByText(fallback)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: button })).toBeEnabled());
  });
});

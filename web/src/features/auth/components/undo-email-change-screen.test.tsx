import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

const TOKEN = 'a'.repeat(43);
const open = (hash: string) => renderWithProviders(<AppRoutes />, { route: `/account/undo-email-change${hash}` });

describe('undo e-mail change page', () => {
  it('explains, undoes with one tap (the token from the fragment), and forgets this device\'s session', async () => {
    localStorage.setItem('authToken', 'stolen-or-not');
    const { calls } = mockFetch({
      'GET /api/auth/me': () => text('Your session has expired, please sign in again', 401),
      'POST /api/auth/undo-email-change': () => json({ email: 'ada@example.com' }),
    });
    const { user } = open(`#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Undo the e-mail change?' })).toBeInTheDocument();
    expect(calls('POST', '/api/auth/undo-email-change')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('heading', { name: 'Your e-mail address is back' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(calls('POST', '/api/auth/undo-email-change')[0]!.body).toEqual({ token: TOKEN });
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it("shows the server's sentence when the link is used up", async () => {
    mockFetch({ 'POST /api/auth/undo-email-change': () => text('This link has expired or was already used', 400) });
    const { user } = open(`#token=${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByText('This link has expired or was already used')).toBeInTheDocument();
  });

  it('without a token says the link is incomplete and offers no button', async () => {
    mockFetch({});
    open('');
    expect(await screen.findByText('This link is incomplete')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo the change' })).not.toBeInTheDocument();
  });
});

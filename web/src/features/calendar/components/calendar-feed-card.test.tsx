import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

const ada = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const FIRST = `http://localhost:5173/api/calendar/feed/${'a'.repeat(43)}.ics`;
const SECOND = `http://localhost:5173/api/calendar/feed/${'b'.repeat(43)}.ics`;

beforeEach(() => {
  localStorage.setItem('authToken', 'test-token');
});

const card = async () => within(await screen.findByRole('region', { name: 'Subscribe in your calendar' }));

describe('Subscribe in your calendar (profile)', () => {
  it('shows the member\'s feed URL with Copy, a webcal:// Subscribe link and how each app takes it', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/calendar/feed': () => json({ url: FIRST }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const region = await card();
    expect(await region.findByRole('textbox', { name: 'Your calendar link' })).toHaveValue(FIRST);
    expect(region.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', `webcal://localhost:5173/api/calendar/feed/${'a'.repeat(43)}.ics`);
    const steps = within(region.getByRole('list', { name: 'How to subscribe' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).toEqual([
      'Apple Calendar: tap Subscribe.',
      'Google Calendar: in Settings, choose Add calendar, then From URL, and paste the link.',
      'Outlook: choose Add calendar, then Subscribe from web, and paste the link.',
    ]);
    // The token goes with the request: the feed is the member's own.
    expect(calls('GET', '/api/calendar/feed')[0]!.headers.get('Authorization')).toBe('Bearer test-token');

    await user.click(region.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(FIRST);
  });

  it('resets the link only after asking, then shows the new one', async () => {
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/calendar/feed': () => json({ url: FIRST }),
      'POST /api/calendar/feed/rotate': () => json({ url: SECOND }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const region = await card();
    await region.findByDisplayValue(FIRST);

    await user.click(region.getByRole('button', { name: 'Reset link' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reset your calendar link?' }));
    expect(dialog.getByText(/The old link stops working at once/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('POST', '/api/calendar/feed/rotate')).toHaveLength(0);

    await user.click(region.getByRole('button', { name: 'Reset link' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset your calendar link?' })).getByRole('button', { name: 'Reset link' }));
    expect(await screen.findByText('Calendar link reset')).toBeInTheDocument();
    expect(await region.findByDisplayValue(SECOND)).toBeInTheDocument();
    expect(region.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', `webcal://localhost:5173/api/calendar/feed/${'b'.repeat(43)}.ics`);
    expect(calls('POST', '/api/calendar/feed/rotate')).toHaveLength(1);
    // The new URL came with the answer: not asked for again.
    expect(calls('GET', '/api/calendar/feed')).toHaveLength(1);
  });

  it('says when the link could not be loaded, and tries again', async () => {
    let fail = true;
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/calendar/feed': () => (fail ? text('The server is busy, please try again', 503) : json({ url: FIRST })),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const region = await card();
    expect(region.getByRole('status')).toHaveTextContent('Loading your calendar link...');
    expect(await region.findByText('Your calendar link could not be loaded.', {}, { timeout: 10_000 })).toBeInTheDocument();
    fail = false;
    await user.click(region.getByRole('button', { name: 'Try again' }));
    expect(await region.findByDisplayValue(FIRST)).toBeInTheDocument();
  }, 20_000);

  it('shows a refusal of the reset as the server\'s sentence, and keeps the link', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/calendar/feed': () => json({ url: FIRST }),
      'POST /api/calendar/feed/rotate': () => text('Something this refers to was changed or removed at the same moment, please try again', 409),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    const region = await card();
    await region.findByDisplayValue(FIRST);
    await user.click(region.getByRole('button', { name: 'Reset link' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset link' }));
    expect(await screen.findByText('Something this refers to was changed or removed at the same moment, please try again')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(region.getByRole('textbox', { name: 'Your calendar link' })).toHaveValue(FIRST);
  });
});

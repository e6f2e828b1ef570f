import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { renderWithProviders } from '../../../test/test-utils';
import { catalog, interestsApi } from '../test-server';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

describe('/interests', () => {
  it("lists the user's interests and the catalogue with icons and 'Added' badges", async () => {
    interestsApi([
      { id: 'x1', freeFormText: 'Coffee', catalogId: catalog[4]!.id },
      { id: 'x2', freeFormText: 'Salsa dancing', catalogId: null },
    ]);
    renderWithProviders(<AppRoutes />, { route: '/interests' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Interests' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage' })).toHaveAttribute('href', '/interests/manage');
    const mine = await screen.findByRole('list', { name: 'Your interests' });
    expect(within(mine).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Coffee', 'Salsa dancing']);

    const tiles = await screen.findByRole('list', { name: 'Suggested interests' });
    expect(within(tiles).getAllByRole('listitem')).toHaveLength(8);
    expect(within(tiles).getByRole('button', { name: 'Coffee, added' })).toHaveTextContent('Added');
    expect(within(tiles).getByRole('button', { name: 'Add Board Games' })).not.toHaveTextContent('Added');
    // Each tile draws its icon.
    expect(within(tiles).getAllByRole('button').every((b) => b.querySelector('svg'))).toBe(true);
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('adds a catalogue interest with a tap, and a free-text one with Add', async () => {
    const { calls } = interestsApi([]);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests' });
    expect(await screen.findByText(/No interests yet/)).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Add Board Games' }));
    expect(await screen.findByRole('button', { name: 'Board Games, added' })).toBeInTheDocument();
    expect(calls('POST', '/api/users/me/interests')[0]!.body).toEqual({ catalogId: catalog[0]!.id, freeFormText: 'Board Games' });
    // An added tile does nothing when tapped again.
    await user.click(screen.getByRole('button', { name: 'Board Games, added' }));
    expect(calls('POST', '/api/users/me/interests')).toHaveLength(1);

    const input = screen.getByRole('textbox', { name: 'Add an interest' });
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.type(input, '   ');
    expect(add).toBeDisabled();
    await user.type(input, ' Pottery {Enter}');
    const mine = await screen.findByRole('list', { name: 'Your interests' });
    expect(await within(mine).findByText('Pottery')).toBeInTheDocument();
    expect(calls('POST', '/api/users/me/interests')[1]!.body).toEqual({ freeFormText: 'Pottery' });
    expect(input).toHaveValue('');
  });

  it('removes an interest from the list', async () => {
    const { calls } = interestsApi([{ id: 'x1', freeFormText: 'Pottery', catalogId: null }]);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests' });
    await user.click(await screen.findByRole('button', { name: 'Remove Pottery' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Your interests' })).not.toBeInTheDocument());
    expect(calls('DELETE', '/api/users/me/interests/x1')).toHaveLength(1);
  });

  it("shows the server's sentence, or 'Failed to add interest' / 'Failed to remove interest'", async () => {
    interestsApi([{ id: 'x1', freeFormText: 'Pottery', catalogId: null }], {
      'DELETE /api/users/me/interests/x1': () => new Response('', { status: 500 }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests' });
    const input = await screen.findByRole('textbox', { name: 'Add an interest' });
    await user.type(input, 'pottery{Enter}');
    expect(await screen.findByText('You already have that interest')).toBeInTheDocument();
    expect(input).toHaveValue('pottery');

    await user.click(screen.getByRole('button', { name: 'Remove Pottery' }));
    expect(await screen.findByText('Failed to remove interest')).toBeInTheDocument();
  });

  it("falls back to 'Failed to add interest'", async () => {
    interestsApi([], { 'POST /api/users/me/interests': () => new Response('', { status: 502 }) });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests' });
    await user.type(await screen.findByRole('textbox', { name: 'Add an interest' }), 'Chess{Enter}');
    expect(await screen.findByText('Failed to add interest')).toBeInTheDocument();
  });
});

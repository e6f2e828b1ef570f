import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { renderWithProviders } from '../../../test/test-utils';
import { interestsApi } from '../test-server';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const seeded = [
  { id: 'x1', freeFormText: 'Board Games', catalogId: null },
  { id: 'x2', freeFormText: 'Sushi', catalogId: null },
  { id: 'x3', freeFormText: 'Hiking', catalogId: null },
];

const control = (name: string) => screen.findByRole('button', { name: new RegExp(`^${name}`) });

describe('/interests/manage', () => {
  it('groups the interests by category with count badges, in the spec order', async () => {
    interestsApi(seeded);
    renderWithProviders(<AppRoutes />, { route: '/interests/manage' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Manage Interests' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Interests' })).toHaveAttribute('href', '/interests');
    await control('Indoor Activities');
    const controls = screen.getAllByRole('button', { expanded: false });
    expect(controls.map((b) => b.getAttribute('aria-expanded') !== null && b.textContent)).toEqual([
      'Indoor Activities1, 1 interest',
      'Dining1, 1 interest',
      'Outdoor Activities1, 1 interest',
      'Online Activities0, 0 interests',
      'Other0, 0 interests',
    ]);
    // The count badge is for the eyes; screen readers hear the count in words.
    expect(screen.getByRole('button', { name: /^Dining\s*, 1 interest$/ })).toBeInTheDocument();
  });

  it('adds in a category and opens the category it lands in', async () => {
    const { calls } = interestsApi(seeded);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests/manage' });
    await user.click(await control('Online Activities'));
    const input = await screen.findByRole('textbox', { name: 'Add to Online Activities' });
    await user.type(input, 'Online chess{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: /^Online Activities/ })).toHaveTextContent('Online Activities1, 1 interest'));
    expect(calls('POST', '/api/users/me/interests')[0]!.body).toEqual({ freeFormText: 'Online chess' });
    expect(screen.getByText('Online chess')).toBeVisible();

    // Typed in Other, but the keywords say Dining: Dining opens too.
    await user.click(await control('Other'));
    await user.type(await screen.findByRole('textbox', { name: 'Add to Other' }), 'Tapas{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: /^Dining/ })).toHaveAttribute('aria-expanded', 'true'));
    expect(screen.getByRole('button', { name: /^Dining/ })).toHaveTextContent('Dining2, 2 interests');
  });

  it("removes after the confirm 'Remove interest?', and keeps it on Cancel", async () => {
    const { calls } = interestsApi(seeded);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/interests/manage' });
    await user.click(await control('Dining'));
    await user.click(await screen.findByRole('button', { name: 'Remove Sushi' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove interest?' });
    expect(within(dialog).getByText('This will permanently remove this interest from your profile.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('DELETE', '/api/users/me/interests/x2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove Sushi' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove interest?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('DELETE', '/api/users/me/interests/x2')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Dining/ })).toHaveTextContent('Dining0, 0 interests'));
    expect(screen.queryByText('Sushi')).not.toBeInTheDocument();
  });
});

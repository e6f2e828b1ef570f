import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearGuest } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import { ideaJson } from '../test-fixtures';
import { fakeIdeasServer, type FakeIdeasOptions } from '../test-server';
import { DashboardIdeasTab } from './dashboard-ideas-tab';

beforeEach(() => {
  clearGuest();
  localStorage.setItem('authToken', 'test-token');
});

function openPanel({ server = {}, routes = {} }: { server?: Partial<FakeIdeasOptions>; routes?: Routes } = {}) {
  const fake = fakeIdeasServer({ caller: { id: ada.id, name: 'Ada Lovelace', isGuest: false }, ...server });
  const network = mockFetch(fake.routes({ 'GET /api/auth/me': meRoute(ada), ...routes }));
  const rendered = renderWithProviders(<DashboardIdeasTab plan={planJson()} />, { route: '/l/abcDEF12/dashboard' });
  const open = async () => {
    const button = await screen.findByRole('button', { name: 'Suggest Idea' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await rendered.user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = await screen.findByRole('region', { name: 'Ideas based on common interests' });
    await within(panel).findByRole('list', { name: 'Suggestions' });
    return within(panel);
  };
  return { ...network, ...rendered, fake, open };
}

const texts = (panel: ReturnType<typeof within>) =>
  panel.getAllByRole('button', { pressed: false }).map((b: HTMLElement) => b.textContent);

describe('Suggest Idea panel', () => {
  it("shows at most 3 of the server's suggestions, minus existing ideas, and adds the selected ones", async () => {
    const { user, calls, open } = openPanel({
      server: {
        ideas: [ideaJson({ id: 'i1', text: 'Go Bowling ' })],
        suggestions: ['Go bowling', 'Host a board game night', 'Go on a day hike', 'Go dancing', 'See a movie'],
      },
    });
    const panel = await open();
    const choices = panel.getAllByRole('button', { pressed: false });
    expect(choices.map((b) => b.textContent)).toEqual(['Host a board game night', 'Go on a day hike', 'Go dancing']);

    const add = panel.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.click(choices[0]!);
    await user.click(choices[2]!);
    await user.click(choices[1]!);
    await user.click(choices[1]!); // tapping again unselects
    expect(panel.getAllByRole('button', { pressed: true }).map((b) => b.textContent)).toEqual([
      'Host a board game night',
      'Go dancing',
    ]);
    await user.click(add);

    await waitFor(() => expect(screen.queryByRole('region', { name: 'Ideas based on common interests' })).not.toBeInTheDocument());
    expect(calls('POST', '/api/plans/p1/ideas').map((c) => (c.body as { text: string }).text)).toEqual([
      'Host a board game night',
      'Go dancing',
    ]);
    expect(await screen.findByRole('article', { name: 'Go dancing' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Host a board game night' })).toBeInTheDocument();
  });

  it("says 'Failed to add some ideas' when only some could be added", async () => {
    let posts = 0;
    const { user, open } = openPanel({
      server: { suggestions: ['Go dancing', 'Go bowling'] },
      routes: {
        'POST /api/plans/p1/ideas': () =>
          ++posts === 1 ? json(ideaJson({ id: 'i9', text: 'Go dancing' }), 201) : new Response('', { status: 500 }),
      },
    });
    const panel = await open();
    for (const choice of panel.getAllByRole('button', { pressed: false })) await user.click(choice);
    await user.click(panel.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Failed to add some ideas')).toBeInTheDocument();
    // The panel stays open for another try.
    expect(screen.getByRole('region', { name: 'Ideas based on common interests' })).toBeInTheDocument();
  });

  it('falls back silently to the most-voted ideas by others, then the generic ones; adding one of those votes for it', async () => {
    const { user, open, calls } = openPanel({
      server: {
        ideas: [
          ideaJson({ id: 'mine', text: 'Karaoke', userId: ada.id, voteCount: 5 }),
          ideaJson({ id: 'theirs', text: 'Escape room', userId: 'u2', authorName: 'Ben', voteCount: 2 }),
        ],
        suggestions: () => text('Something went wrong', 500),
      },
    });
    const panel = await open();
    expect(texts(panel)).toEqual(['Escape room2 votes', 'Grab coffee and catch upPopular', 'Try a new restaurantPopular']);
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();

    await user.click(panel.getByRole('button', { name: /Escape room/ }));
    await user.click(panel.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls('POST', '/api/ideas/theirs/vote')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/ideas')).toHaveLength(0);
    expect(
      await within(await screen.findByRole('article', { name: 'Escape room' })).findByRole('button', {
        name: 'Vote for Escape room (3 votes)',
      }),
    ).toHaveAttribute('aria-pressed', 'true');
  });

  it('offers the 5 generic ideas (3 shown) when the server has none', async () => {
    const { open } = openPanel({ server: { suggestions: [] } });
    const panel = await open();
    expect(texts(panel)).toEqual([
      'Grab coffee and catch upPopular',
      'Try a new restaurantPopular',
      'Go for a walk in the parkPopular',
    ]);
  });

  it('closes with Close', async () => {
    const { user, open } = openPanel({ server: { suggestions: ['Go dancing'] } });
    const panel = await open();
    await user.click(panel.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Ideas based on common interests' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Suggest Idea' })).toHaveAttribute('aria-expanded', 'false');
  });
});

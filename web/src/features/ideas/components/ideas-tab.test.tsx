import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, planJson, planSummaryJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { commentJson, ideaJson } from '../test-fixtures';
import { fakeIdeasServer, type FakeIdeasOptions } from '../test-server';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const adaCaller = { id: ada.id, name: 'Ada Lovelace', isGuest: false };

function openPlan({
  plan = planJson(),
  user = ada,
  server = {},
  routes = {},
}: { plan?: Plan; user?: object; server?: Partial<FakeIdeasOptions>; routes?: Routes } = {}) {
  let current = plan;
  const fake = fakeIdeasServer({ caller: adaCaller, ...server });
  const network = mockFetch(
    fake.routes({
      'GET /api/auth/me': meRoute(user),
      'GET /api/plans/p1': () => json({ ...current, lockedIdeaId: fake.lockedIdeaId ?? current.lockedIdeaId }),
      'GET /api/plans/p1/participants': () => json([]),
      'GET /api/plans': () => {
        const picked = fake.ideas.find((idea) => idea.id === fake.lockedIdeaId);
        return json([planSummaryJson({ ...current, lockedIdeaId: picked?.id ?? null, lockedIdeaText: picked?.text ?? null })]);
      },
      ...routes,
    }),
  );
  const rendered = renderWithProviders(<AppRoutes />, { route: '/plan/p1' });
  return { ...network, ...rendered, fake, setPlan: (next: Plan) => (current = next) };
}

const card = (name: string) => screen.findByRole('article', { name });
const statusWhat = async () => {
  const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
  return status.getByText("What we're doing", { selector: 'dt' }).nextElementSibling as HTMLElement;
};

describe('plan page Ideas tab', () => {
  it("shows 'No ideas yet' and adds an idea from 'Add New Idea'", async () => {
    const { user, calls } = openPlan();
    expect(await screen.findByText('No ideas yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to suggest an idea!')).toBeInTheDocument();

    const form = within(screen.getByRole('region', { name: 'Add New Idea' }));
    const box = form.getByRole('textbox', { name: 'Add New Idea' });
    expect(box).toHaveAttribute('placeholder', 'Share your idea');
    const add = form.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.type(box, '   ');
    expect(add).toBeDisabled();
    await user.clear(box);
    await user.type(box, '  Bowling night ');
    await user.click(add);

    expect(await card('Bowling night')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/ideas')[0]!.body).toEqual({ text: 'Bowling night', authorName: 'Ada Lovelace' });
    expect(box).toHaveValue('');
    expect(screen.queryByText('No ideas yet')).not.toBeInTheDocument();
  });

  it("sorts by votes, marks the 'Top Idea' and toggles the visitor's vote", async () => {
    const { user, calls } = openPlan({
      server: {
        ideas: [
          ideaJson({ id: 'i1', text: 'Bowling', voteCount: 0, createdAt: '2026-03-01T09:00:00.000Z' }),
          ideaJson({ id: 'i2', text: 'Karaoke', voteCount: 2, authorName: 'Ben', createdAt: '2026-03-01T10:00:00.000Z' }),
        ],
      },
    });
    const karaoke = await card('Karaoke');
    const articles = screen.getAllByRole('article');
    expect(articles.map((a) => within(a).getByText(/^(Bowling|Karaoke)$/).textContent)).toEqual(['Karaoke', 'Bowling']);
    expect(within(karaoke).getByText('Top Idea')).toBeInTheDocument();
    // A badge colour with AA contrast under white text (orange 9 is 4.3:1).
    expect(within(karaoke).getByText('Top Idea').closest('.mantine-Badge-root')).toHaveStyle({ '--badge-bg': '#c2410c' });
    expect(within(karaoke).getByText('by Ben')).toBeInTheDocument();
    const bowling = await card('Bowling');
    expect(within(bowling).queryByText('Top Idea')).not.toBeInTheDocument();

    // Voters are fetched only for ideas with votes.
    await waitFor(() => expect(calls('GET', '/api/ideas/i2/voters')).toHaveLength(1));
    expect(calls('GET', '/api/ideas/i1/voters')).toHaveLength(0);

    const vote = within(bowling).getByRole('button', { name: 'Vote for Bowling (0 votes)' });
    expect(vote).toHaveAttribute('aria-pressed', 'false');
    await user.click(vote);
    await waitFor(() =>
      expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true'),
    );
    // A member votes by token: no body.
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.body).toBeUndefined();
    expect(await within(bowling).findByRole('img', { name: '1 vote: Ada Lovelace' })).toBeInTheDocument();

    await user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (1 vote)' }));
    await waitFor(() =>
      expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (0 votes)' })).toHaveAttribute('aria-pressed', 'false'),
    );
    expect(within(bowling).queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows a vote at once, before the server answers, and settles on its count', async () => {
    const gate = deferred();
    const opened = openPlan({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling', voteCount: 2 })] },
      routes: {
        // The fake server's own vote, answered when the test says so.
        'POST /api/ideas/i1/vote': async (request) => {
          await gate.promise;
          return opened.fake.routes({})['POST /api/ideas/i1/vote']!(request);
        },
      },
    });
    const bowling = await card('Bowling');
    await opened.user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (2 votes)' }));
    // The server has not answered yet.
    const shown = within(bowling).getByRole('button', { name: 'Vote for Bowling (3 votes)' });
    expect(shown).toHaveAttribute('aria-pressed', 'true');
    expect(shown).toHaveAttribute('aria-busy', 'true');
    expect(shown).toBeEnabled();
    // Someone else voted meanwhile: the server's count wins.
    opened.fake.voters.i1!.push({ id: 'x', name: 'Xena', isGuest: true });
    gate.resolve(new Response());
    await waitFor(() =>
      expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (4 votes)' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (4 votes)' })).not.toHaveAttribute('aria-busy');
  });

  it('puts a refused vote back as it was, with the toast', async () => {
    const answer = deferred();
    const { user } = openPlan({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling', voteCount: 2 })] },
      routes: { 'POST /api/ideas/i1/vote': () => answer.promise },
    });
    const bowling = await card('Bowling');
    await user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (2 votes)' }));
    expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (3 votes)' })).toHaveAttribute('aria-pressed', 'true');
    answer.resolve(text('Too many votes in a minute, please wait 30 seconds', 429));
    expect(await screen.findByText('Too many votes in a minute, please wait 30 seconds')).toBeInTheDocument();
    const back = within(bowling).getByRole('button', { name: 'Vote for Bowling (2 votes)' });
    expect(back).toHaveAttribute('aria-pressed', 'false');
    expect(back).not.toHaveAttribute('aria-busy');
  });

  it("shows 3 voter avatars, then '+N', named for screen readers", async () => {
    openPlan({
      server: {
        ideas: [ideaJson({ id: 'i1', text: 'Picnic', voteCount: 5 })],
        voters: { i1: ['Ada Lovelace', 'Ben', 'Cy Young', 'Dee', 'Hal'].map((name, i) => ({ id: `v${i}`, name, isGuest: name === 'Hal' })) },
      },
    });
    const voters = await within(await card('Picnic')).findByRole('img', {
      name: '5 votes: Ada Lovelace, Ben, Cy Young, Dee, Hal (Guest)',
    });
    expect(within(voters).getByText('AL')).toBeInTheDocument();
    expect(within(voters).getByText('CY')).toBeInTheDocument();
    expect(within(voters).queryByText('DE')).not.toBeInTheDocument();
    expect(within(voters).getByText('+2')).toBeInTheDocument();
  });

  it('lets the host pick an idea, shows it in the status card, and un-pick it', async () => {
    const { user, calls } = openPlan({ server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    const bowling = await card('Bowling');
    expect(await statusWhat()).toHaveTextContent('TBD');
    // Teal's outline colour: teal 9 in light (AA on white; teal 7 is 2.9:1), teal 3 in dark (app/theme.ts).
    expect(within(bowling).getByRole('button', { name: 'Pick' })).toHaveStyle({ '--button-color': 'var(--mantine-color-teal-outline)' });
    await user.click(within(bowling).getByRole('button', { name: 'Pick' }));
    expect(await within(bowling).findByRole('button', { name: 'Picked' })).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/pick-idea')[0]!.body).toEqual({ ideaId: 'i1' });
    await waitFor(async () => expect(await statusWhat()).toHaveTextContent('Bowling'));

    await user.click(within(bowling).getByRole('button', { name: 'Picked' }));
    expect(await within(bowling).findByRole('button', { name: 'Pick' })).toBeInTheDocument();
    await waitFor(async () => expect(await statusWhat()).toHaveTextContent('TBD'));
  });

  it("shows no Pick to other members, and 'Host's Pick' on the picked idea", async () => {
    openPlan({
      user: ben,
      plan: planJson({ lockedIdeaId: 'i1' }),
      server: { caller: { id: ben.id, name: 'Ben', isGuest: false }, ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] },
    });
    const bowling = await card('Bowling');
    expect(within(bowling).getByText("Host's Pick")).toBeInTheDocument();
    expect(within(bowling).queryByRole('button', { name: /Pick/ })).not.toBeInTheDocument();
  });

  it('opens the comments oldest first, keeps them cached, and posts with Enter', async () => {
    const { user, calls } = openPlan({
      server: {
        ideas: [ideaJson({ id: 'i1', text: 'Bowling', commentCount: 2 })],
        comments: {
          i1: [
            commentJson({ id: 'c1', text: 'First!', authorName: 'Ben' }),
            commentJson({ id: 'c2', text: 'Second', authorName: 'Cy', createdAt: '2026-03-01T12:00:00.000Z' }),
          ],
        },
      },
    });
    const bowling = await card('Bowling');
    const toggle = within(bowling).getByRole('button', { name: '2 comments' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const list = await within(bowling).findByRole('list', { name: 'Comments on Bowling' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('First!'),
      expect.stringContaining('Second'),
    ]);

    // Closing and opening again reads the cache (comments are kept 5 minutes).
    await user.click(toggle);
    await user.click(toggle);
    const reopened = await within(bowling).findByRole('list', { name: 'Comments on Bowling' });
    expect(calls('GET', '/api/ideas/i1/comments')).toHaveLength(1);

    const input = within(bowling).getByRole('textbox', { name: 'Add a comment on Bowling' });
    expect(within(bowling).getByRole('button', { name: 'Post comment' })).toBeDisabled();
    await user.type(input, ' See you there {Enter}');
    expect(await within(reopened).findByText('See you there')).toBeInTheDocument();
    expect(calls('POST', '/api/ideas/i1/comments')[0]!.body).toEqual({ text: 'See you there', authorName: 'Ada Lovelace' });
    expect(input).toHaveValue('');
    expect(await within(bowling).findByRole('button', { name: '3 comments' })).toBeInTheDocument();
  });

  it('the host deletes an idea after confirming; Cancel keeps it', async () => {
    const { user, calls } = openPlan({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling', userId: ben.id }), ideaJson({ id: 'i2', text: 'Karaoke', userId: ben.id })] },
    });
    const bowling = await card('Bowling');
    await user.click(within(bowling).getByRole('button', { name: 'Delete idea Bowling' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this idea?' });
    expect(dialog).toHaveTextContent('"Bowling" will be deleted for everyone, with its votes and comments.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', '/api/ideas/i1')).toHaveLength(0);

    await user.click(within(bowling).getByRole('button', { name: 'Delete idea Bowling' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this idea?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Bowling' })).not.toBeInTheDocument());
    expect(await screen.findByText('Idea deleted')).toBeInTheDocument();
    expect(await card('Karaoke')).toBeInTheDocument();
  });

  it('a member deletes only what they wrote: their idea and their comment, not others\'', async () => {
    const benCaller = { id: ben.id, name: 'Ben', isGuest: false };
    const { user, calls } = openPlan({
      user: ben,
      server: {
        caller: benCaller,
        ideas: [ideaJson({ id: 'i1', text: 'Bowling', userId: ada.id }), ideaJson({ id: 'i2', text: 'Karaoke', userId: ben.id })],
        comments: {
          i1: [
            commentJson({ id: 'c1', text: 'Mine', authorName: 'Ben', userId: ben.id }),
            commentJson({ id: 'c2', text: 'Ada says', authorName: 'Ada Lovelace', userId: ada.id }),
          ],
        },
      },
    });
    const bowling = await card('Bowling');
    expect(within(bowling).queryByRole('button', { name: 'Delete idea Bowling' })).not.toBeInTheDocument();
    expect(within(await card('Karaoke')).getByRole('button', { name: 'Delete idea Karaoke' })).toBeInTheDocument();

    await user.click(within(bowling).getByRole('button', { name: '2 comments' }));
    const list = await within(bowling).findByRole('list', { name: 'Comments on Bowling' });
    expect(within(list).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Delete comment by Ben']);
    await user.click(within(list).getByRole('button', { name: 'Delete comment by Ben' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this comment?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(list).queryByText('Mine')).not.toBeInTheDocument());
    expect(within(list).getByText('Ada says')).toBeInTheDocument();
    expect(calls('DELETE', '/api/ideas/i1/comments/c1')).toHaveLength(1);
  });

  it("says 'Add comment' when there are none", async () => {
    openPlan({ server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    expect(within(await card('Bowling')).getByRole('button', { name: 'Add comment' })).toBeInTheDocument();
  });

  it.each([
    ['adding an idea', 'POST /api/plans/p1/ideas', 'Failed to add idea'],
    ['voting', 'POST /api/ideas/i1/vote', 'Failed to vote on idea'],
    ['commenting', 'POST /api/ideas/i1/comments', 'Failed to add comment'],
  ])('falls back to the spec message when %s fails without a sentence', async (_what, route, message) => {
    const { user } = openPlan({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] },
      routes: { [route]: () => new Response('', { status: 500, statusText: 'Internal Server Error' }) },
    });
    const bowling = await card('Bowling');
    if (route.endsWith('/ideas')) {
      await user.type(screen.getByRole('textbox', { name: 'Add New Idea' }), 'Karaoke');
      await user.click(screen.getByRole('button', { name: 'Add' }));
    } else if (route.endsWith('/vote')) {
      await user.click(within(bowling).getByRole('button', { name: /Vote for Bowling/ }));
    } else {
      await user.click(within(bowling).getByRole('button', { name: 'Add comment' }));
      await user.type(await within(bowling).findByRole('textbox', { name: 'Add a comment on Bowling' }), 'Hi{Enter}');
    }
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it("shows the server's sentence when adding fails with one, and keeps the text", async () => {
    const { user } = openPlan({
      routes: { 'POST /api/plans/p1/ideas': () => text('Idea text must be at most 280 characters', 400) },
    });
    const box = await screen.findByRole('textbox', { name: 'Add New Idea' });
    await user.type(box, 'Karaoke');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Idea text must be at most 280 characters')).toBeInTheDocument();
    expect(box).toHaveValue('Karaoke');
  });

  it("toasts 'Failed to fetch voters' when the voters cannot be read", async () => {
    openPlan({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling', voteCount: 1 })] },
      routes: { 'GET /api/ideas/i1/voters': () => new Response('', { status: 500 }) },
    });
    expect(await screen.findByText('Failed to fetch voters')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import { clearGuest, getGuestVotes, setGuestSession, setGuestVotes } from '../../../lib/guest-storage';
import { meRoute, mockFetch, text, type Routes as RouteTable } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { commentJson, ideaJson } from '../test-fixtures';
import { fakeIdeasServer, fetchedUrls, type FakeIdeasOptions } from '../test-server';
import { useHasVotedOnIdeas } from '../voted';
import { DashboardIdeasTab } from './dashboard-ideas-tab';

const hal = { id: '0e9c2f4a-1111-4222-8333-444455556666', name: 'Hal Guest', isGuest: true };

function VotedProbe({ planId }: { planId: string }) {
  return <output aria-label="voted">{String(useHasVotedOnIdeas(planId))}</output>;
}

function openDashboard({
  plan = planJson(),
  as = 'guest',
  server = {},
  routes = {},
}: { plan?: Plan; as?: 'guest' | 'member' | 'nobody'; server?: Partial<FakeIdeasOptions>; routes?: RouteTable } = {}) {
  if (as === 'guest') setGuestSession({ id: hal.id, name: hal.name, planId: 'p1', secret: 'device-secret' });
  if (as === 'member') localStorage.setItem('authToken', 'test-token');
  const caller = as === 'guest' ? hal : as === 'member' ? { id: ada.id, name: 'Ada Lovelace', isGuest: false } : null;
  const fake = fakeIdeasServer({ caller, ...server });
  const network = mockFetch(
    fake.routes({
      'GET /api/auth/me': as === 'member' ? meRoute(ada) : () => text('Not signed in', 401),
      ...routes,
    }),
  );
  const rendered = renderWithProviders(
    <Routes>
      <Route
        path="/l/:slug/dashboard"
        element={
          <>
            <VotedProbe planId={plan.id} />
            <DashboardIdeasTab plan={plan} />
          </>
        }
      />
      <Route path="/l/:slug" element={<p>Join page</p>} />
    </Routes>,
    { route: `/l/${plan.slug}/dashboard` },
  );
  return { ...network, ...rendered, fake };
}

// guest-storage caches what it read; start every test from a clean device.
beforeEach(() => clearGuest());

const card = (name: string) => screen.findByRole('article', { name });

describe('guest dashboard Ideas tab', () => {
  it("lists the ideas with counts and 'Host's Pick', read with the guest's id", async () => {
    openDashboard({
      plan: planJson({ lockedIdeaId: 'i2' }),
      server: {
        ideas: [
          ideaJson({ id: 'i1', text: 'Bowling', voteCount: 3 }),
          ideaJson({ id: 'i2', text: 'Karaoke', voteCount: 1, commentCount: 1 }),
        ],
      },
    });
    const karaoke = await card('Karaoke');
    expect(within(karaoke).getByText("Host's Pick")).toBeInTheDocument();
    expect(within(karaoke).getByRole('button', { name: 'Vote for Karaoke (1 vote)' })).toBeInTheDocument();
    expect(within(karaoke).getByRole('button', { name: '1 comment' })).toBeInTheDocument();
    const bowling = await card('Bowling');
    expect(within(bowling).queryByText("Host's Pick")).not.toBeInTheDocument();
    expect(within(bowling).getByRole('button', { name: 'Add comment' })).toBeInTheDocument();
    // The dashboard has no 'Top Idea' (plan page and ideas page only).
    expect(screen.queryByText('Top Idea')).not.toBeInTheDocument();
    expect(fetchedUrls()).toContain(`/api/plans/p1/ideas?guestId=${hal.id}`);
  });

  it('votes as the guest, mirrors the vote locally, and toggles it off again', async () => {
    const { user, calls } = openDashboard({ server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    const bowling = await card('Bowling');
    expect(screen.getByRole('status', { name: 'voted' })).toHaveTextContent('false');

    await user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (0 votes)' }));
    await waitFor(() =>
      expect(within(bowling).getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.body).toEqual({ guestId: hal.id });
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.headers.get('Authorization')).toBeNull();
    expect(getGuestVotes().planIdeaIds).toEqual(['i1']);
    expect(screen.getByRole('status', { name: 'voted' })).toHaveTextContent('true');
    expect(await within(bowling).findByRole('img', { name: '1 vote: Hal Guest (Guest)' })).toBeInTheDocument();

    await user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (1 vote)' }));
    await waitFor(() => expect(getGuestVotes().planIdeaIds).toEqual([]));
    await waitFor(() => expect(screen.getByRole('status', { name: 'voted' })).toHaveTextContent('false'));
  });

  it('counts a vote mirrored on this device as voted (useHasVotedOnIdeas)', async () => {
    setGuestVotes({ planIdeaIds: ['i1'], timeSlotIds: [] });
    openDashboard({ server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    await card('Bowling');
    await waitFor(() => expect(screen.getByRole('status', { name: 'voted' })).toHaveTextContent('true'));
  });

  it('lets a member vote by token', async () => {
    const { user, calls } = openDashboard({ as: 'member', server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    await user.click(within(await card('Bowling')).getByRole('button', { name: /Vote for Bowling/ }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'voted' })).toHaveTextContent('true'));
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.body).toBeUndefined();
    expect(getGuestVotes().planIdeaIds).toEqual([]);
    expect(fetchedUrls()).toContain('/api/plans/p1/ideas');
  });

  it("suggests a new idea with 'Suggest a new idea...' and Add", async () => {
    const { user, calls } = openDashboard();
    expect(await screen.findByText('No ideas yet')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Suggest a new idea' });
    expect(input).toHaveAttribute('placeholder', 'Suggest a new idea...');
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.type(input, 'Escape room{Enter}');
    expect(await card('Escape room')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/ideas')).toHaveLength(1);
    expect(calls('POST', '/api/plans/p1/ideas')[0]!.body).toEqual({ text: 'Escape room', authorName: 'Hal Guest', guestId: hal.id });
    expect(input).toHaveValue('');
  });

  it('comments as the guest', async () => {
    const { user, calls } = openDashboard({
      server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling', commentCount: 1 })], comments: { i1: [commentJson()] } },
    });
    const bowling = await card('Bowling');
    await user.click(within(bowling).getByRole('button', { name: '1 comment' }));
    expect(await within(bowling).findByText('Count me in')).toBeInTheDocument();
    await user.type(within(bowling).getByRole('textbox', { name: 'Add a comment on Bowling' }), 'Me too{Enter}');
    expect(await within(bowling).findByText('Me too')).toBeInTheDocument();
    expect(calls('POST', '/api/ideas/i1/comments')[0]!.body).toEqual({ text: 'Me too', authorName: 'Hal Guest', guestId: hal.id });
  });

  it("sends a visitor who is nobody to the join page with 'Please join the plan first to vote'", async () => {
    const { user, location, calls } = openDashboard({ as: 'nobody', server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    await user.click(within(await card('Bowling')).getByRole('button', { name: /Vote for Bowling/ }));
    expect(await screen.findByText('Please join the plan first to vote')).toBeInTheDocument();
    expect(location()).toBe('/l/abcDEF12');
    expect(calls('POST', '/api/ideas/i1/vote')).toHaveLength(0);
  });

  it("refuses to add an idea or a comment for nobody: 'User authentication required'", async () => {
    const { user, calls } = openDashboard({ as: 'nobody', server: { ideas: [ideaJson({ id: 'i1', text: 'Bowling' })] } });
    const bowling = await card('Bowling');
    await user.type(screen.getByRole('textbox', { name: 'Suggest a new idea' }), 'Karaoke{Enter}');
    expect(await screen.findByText('User authentication required')).toBeInTheDocument();
    await user.click(within(bowling).getByRole('button', { name: 'Add comment' }));
    await user.type(await within(bowling).findByRole('textbox', { name: 'Add a comment on Bowling' }), 'Hi{Enter}');
    await waitFor(() => expect(screen.getAllByText('User authentication required')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/ideas')).toHaveLength(0);
    expect(calls('POST', '/api/ideas/i1/comments')).toHaveLength(0);
  });

  it("says 'Plan ID and idea text required' when the plan has no id", async () => {
    const { user, calls } = openDashboard({ plan: planJson({ id: '' }) });
    await user.type(await screen.findByRole('textbox', { name: 'Suggest a new idea' }), 'Karaoke{Enter}');
    expect(await screen.findByText('Plan ID and idea text required')).toBeInTheDocument();
    expect(calls('POST', '/api/plans//ideas')).toHaveLength(0);
  });
});

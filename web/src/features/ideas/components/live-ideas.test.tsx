import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import type { PlanChange } from '../../../lib/live';
import { deferred, json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { ada, participantJson, planJson, planSummaryJson } from '../../plans/test-fixtures';
import { commentJson, ideaJson } from '../test-fixtures';
import { fakeIdeasServer } from '../test-server';

// The plan page follows the group live: another participant's idea, comment or
// join shows without a reload, and what the visitor is typing survives it.

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

function openPlan({ routes = {} }: { routes?: Routes } = {}) {
  const fake = fakeIdeasServer({
    caller: { id: ada.id, name: 'Ada Lovelace', isGuest: false },
    ideas: [ideaJson({ id: 'i1', text: 'Bowling', commentCount: 1 })],
    comments: { i1: [commentJson({ id: 'c1', text: 'First!' })] },
  });
  let participants = [participantJson('Ada Lovelace', 0)];
  let plan: Plan | null = planJson();
  const network = mockFetch(
    fake.routes({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/p1': () => (plan ? json(plan) : text('Plan not found', 404)),
      'GET /api/plans/p1/participants': () => json(participants),
      'GET /api/plans': () => json(plan ? [planSummaryJson(plan)] : []),
      ...routes,
    }),
  );
  const rendered = renderWithProviders(<AppRoutes />, { route: '/plan/p1' });
  const send = (change: Omit<PlanChange, 'planId'>) => act(() => rendered.live.change({ planId: 'p1', ...change }));
  return {
    ...network,
    ...rendered,
    fake,
    send,
    setParticipants: (next: typeof participants) => (participants = next),
    setPlan: (next: Plan | null) => (plan = next),
  };
}

const card = (name: string) => screen.findByRole('article', { name });

describe('plan page, live', () => {
  it('subscribes once to the plan it shows', async () => {
    const { live } = openPlan();
    await card('Bowling');
    expect(live.opened).toEqual(['p1']);
  });

  it("shows another participant's idea and comment, keeping the open thread and the typed texts", async () => {
    const { user, fake, send, calls } = openPlan();
    const bowling = await card('Bowling');
    await user.click(within(bowling).getByRole('button', { name: '1 comment' }));
    const thread = await within(bowling).findByRole('list', { name: 'Comments on Bowling' });
    const commentBox = within(bowling).getByRole('textbox', { name: 'Add a comment on Bowling' });
    await user.type(commentBox, 'Half a thou');
    const ideaBox = within(screen.getByRole('region', { name: 'Add New Idea' })).getByRole('textbox');
    await user.type(ideaBox, 'Karaoke, or');

    // Ben, elsewhere: a new idea and a comment on Bowling.
    fake.ideas.push(ideaJson({ id: 'i2', text: 'Escape room', authorName: 'Ben', createdAt: '2026-03-02T10:00:00.000Z' }));
    fake.comments.i1!.push(commentJson({ id: 'c2', text: 'Me too', authorName: 'Ben' }));
    await send({ version: 2, parts: ['ideas', 'comments'], ideaIds: ['i1'] });

    expect(await card('Escape room')).toBeInTheDocument();
    expect(await within(thread).findByText('Me too')).toBeInTheDocument();
    expect(within(bowling).getByRole('button', { name: '2 comments' })).toHaveAttribute('aria-expanded', 'true');
    expect(commentBox).toHaveValue('Half a thou');
    expect(commentBox).toBeInTheDocument();
    expect(ideaBox).toHaveValue('Karaoke, or');
    expect(calls('GET', '/api/ideas/i1/comments')).toHaveLength(2);
    expect(calls('GET', '/api/plans/p1')).toHaveLength(1); // the plan row did not change
  });

  it("shows who joined, and the host's pick, without a reload", async () => {
    const { send, setParticipants, setPlan } = openPlan();
    const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
    const definition = (term: string) => status.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(definition("Who's coming")).toHaveTextContent('1 person joined');

    setParticipants([participantJson('Ada Lovelace', 0), participantJson('Ben', 1)]);
    setPlan(planJson({ participantCount: 2, lockedIdeaId: 'i1', lockedIdeaText: 'Bowling' }));
    await send({ version: 3, parts: ['participants', 'plan'] });
    await waitFor(() => expect(definition("Who's coming")).toHaveTextContent('2 people joined'));
    expect(definition("What we're doing")).toHaveTextContent('Bowling');
    expect(await screen.findByRole('button', { name: 'See everyone coming (2)' })).toBeInTheDocument();
  });

  it("waits for the visitor's own vote to land before applying a change", async () => {
    const vote = deferred();
    const { user, fake, send, calls } = openPlan({ routes: { 'POST /api/ideas/i1/vote': () => vote.promise } });
    const bowling = await card('Bowling');
    await user.click(within(bowling).getByRole('button', { name: /Vote for Bowling/ }));
    await waitFor(() => expect(calls('POST', '/api/ideas/i1/vote')).toHaveLength(1));

    fake.ideas.push(ideaJson({ id: 'i2', text: 'Escape room', createdAt: '2026-03-02T10:00:00.000Z' }));
    await send({ version: 2, parts: ['ideas'] });
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(calls('GET', '/api/plans/p1/ideas')).toHaveLength(1);
    expect(screen.queryByRole('article', { name: 'Escape room' })).not.toBeInTheDocument();

    vote.resolve(json({ voted: true, voteCount: 1 }));
    expect(await card('Escape room')).toBeInTheDocument();
  });

  it('says "Plan not found" once the plan is deleted', async () => {
    const { send, setPlan } = openPlan();
    await card('Bowling');
    setPlan(null);
    await send({ version: 9, parts: ['deleted'] });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
  });
});

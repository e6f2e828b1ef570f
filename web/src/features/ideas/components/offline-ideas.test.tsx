import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../../../../supabase/functions/_shared/contract/idempotency';
import { clearGuest, getGuestVotes, setGuestSession } from '../../../lib/guest-storage';
import { resetOfflineActions } from '../../../lib/offline-actions';
import { mockFetch, text, type RecordedRequest } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { planJson } from '../../plans/test-fixtures';
import { ideaJson } from '../test-fixtures';
import { fakeIdeasServer } from '../test-server';
import { DashboardIdeasTab } from './dashboard-ideas-tab';

// Votes and comments made with no network (docs/offline.md "Offline votes and
// comments"): shown at once, marked "Waiting for connection", kept on the
// device across a reload, sent once, in order, with the key of their first
// attempt, when the network is back. The fake API honours Idempotency-Key as
// the real one does: a repeat is answered from its first time.

const hal = { id: '0e9c2f4a-1111-4222-8333-444455556666', name: 'Hal Guest', isGuest: true };

/** The device's network: `down` makes every write fail as fetch does with no network. */
function device() {
  const state = { down: false };
  return {
    state,
    /** The browser says so too (navigator.onLine), as with airplane mode. */
    offline() {
      state.down = true;
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
    },
    online() {
      state.down = false;
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
    },
  };
}

function openDashboard({ ideas = [ideaJson({ id: 'i1', text: 'Bowling' })] }: { ideas?: ReturnType<typeof ideaJson>[] } = {}) {
  setGuestSession({ id: hal.id, name: hal.name, planId: 'p1', secret: 'device-secret' });
  // No activity suggestions: the Suggest Idea panel offers the most-voted ideas of others.
  const fake = fakeIdeasServer({ caller: hal, ideas, suggestions: () => text('Something went wrong', 500) });
  const net = device();
  const answered = new Map<string, { status: number; body: string }>();
  /** Lets a test refuse or lose the next answers. */
  const server = { refuse: null as Response | null, loseAnswers: false };

  // The fake API's writes behind the device's network, with its idempotency keys.
  const write = (request: RecordedRequest) => {
    if (net.state.down) throw new TypeError('Failed to fetch');
    const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
    const known = key ? answered.get(key) : undefined;
    if (known) {
      return new Response(known.body, { status: known.status, headers: { 'Content-Type': 'application/json', [IDEMPOTENT_REPLAYED_HEADER]: 'true' } });
    }
    if (server.refuse) return server.refuse.clone();
    const routes = fake.routes({});
    const res = routes[`${request.method} ${request.path}`]!(request) as Response;
    return res
      .clone()
      .text()
      .then((body) => {
        if (key && res.ok) answered.set(key, { status: res.status, body });
        // The server did it, but the answer never reached the phone.
        if (server.loseAnswers) throw new TypeError('Failed to fetch');
        return res;
      });
  };
  const network = mockFetch(
    fake.routes({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'POST /api/ideas/i1/vote': write,
      'POST /api/ideas/i2/vote': write,
      'POST /api/ideas/i1/comments': write,
      // A thread never read before cannot be read with no network either.
      'GET /api/ideas/i1/comments': (request) => {
        if (net.state.down) throw new TypeError('Failed to fetch');
        return fake.routes({})['GET /api/ideas/i1/comments']!(request);
      },
    }),
  );
  const render = () =>
    renderWithProviders(
      <Routes>
        <Route path="/l/:slug/dashboard" element={<DashboardIdeasTab plan={planJson()} />} />
      </Routes>,
      { route: '/l/abcDEF12/dashboard' },
    );
  return { ...network, ...render(), fake, net, server, render };
}

const card = (name: string) => screen.findByRole('article', { name });
const voteButton = (article: HTMLElement, idea: string, votes: string) => within(article).getByRole('button', { name: `Vote for ${idea} (${votes})` });
const waitingVote = (article: HTMLElement, idea: string) => within(article).queryByRole('status', { name: `Your vote for ${idea} is waiting for connection` });
const storedActions = () => Object.keys(localStorage).filter((name) => name.startsWith('offlineAction:'));
const keysOf = (requests: RecordedRequest[]) => requests.map((r) => r.headers.get(IDEMPOTENCY_KEY_HEADER));

beforeEach(() => clearGuest());
afterEach(() => vi.restoreAllMocks());

describe('offline idea votes and comments', () => {
  it('a vote tapped in a dead zone shows at once, waits on the device through a reload, and is sent once with the same key', async () => {
    const opened = openDashboard();
    const { user, calls, net, fake } = opened;
    let bowling = await card('Bowling');
    net.state.down = true; // no network, though the browser does not know yet

    await user.click(voteButton(bowling, 'Bowling', '0 votes'));
    // Shown at once, then marked: the attempt found no network.
    expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true');
    expect(await within(bowling).findByRole('status', { name: 'Your vote for Bowling is waiting for connection' })).toHaveTextContent(
      'Waiting for connection',
    );
    expect(screen.queryByText('Error')).not.toBeInTheDocument(); // no error: it is not lost
    expect(storedActions()).toHaveLength(1);
    const [firstKey] = keysOf(calls('POST', '/api/ideas/i1/vote'));
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);

    // A reload: a new page (its own cache and outbox), the same device.
    opened.unmount();
    resetOfflineActions();
    opened.render();
    bowling = await card('Bowling');
    // The server's list says 0 votes; the vote waiting on the device is shown over it.
    await waitFor(() => expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true'));
    expect(waitingVote(bowling, 'Bowling')).toBeInTheDocument();

    net.online();
    await waitFor(() => expect(waitingVote(bowling, 'Bowling')).not.toBeInTheDocument());
    expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true');
    // Every attempt carried the key of the first; the server counted one vote.
    expect(new Set(keysOf(calls('POST', '/api/ideas/i1/vote')))).toEqual(new Set([firstKey]));
    expect(fake.voters.i1).toEqual([{ id: hal.id, name: hal.name, isGuest: true }]);
    expect(getGuestVotes().planIdeaIds).toEqual(['i1']);
    expect(storedActions()).toEqual([]);
  });

  it('a vote an earlier build kept under the kind\'s old name is shown and sent once by the build that takes over', async () => {
    const opened = openDashboard();
    const { user, calls, net, fake } = opened;
    net.offline();
    await user.click(voteButton(await card('Bowling'), 'Bowling', '0 votes'));
    // The earlier build named the kind noun first ('idea-vote'; 'vote-idea' now).
    const [name] = storedActions();
    localStorage.setItem(name!, JSON.stringify({ ...JSON.parse(localStorage.getItem(name!)!), kind: 'idea-vote' }));

    // The new build takes over: a reload, the same device.
    opened.unmount();
    resetOfflineActions();
    opened.render();
    const bowling = await card('Bowling');
    await waitFor(() => expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true'));
    expect(waitingVote(bowling, 'Bowling')).toBeInTheDocument();

    net.online();
    await waitFor(() => expect(storedActions()).toEqual([]));
    expect(calls('POST', '/api/ideas/i1/vote')).toHaveLength(1);
    expect(fake.voters.i1).toEqual([{ id: hal.id, name: hal.name, isGuest: true }]);
    expect(getGuestVotes().planIdeaIds).toEqual(['i1']);
    await waitFor(() => expect(waitingVote(bowling, 'Bowling')).not.toBeInTheDocument());
    expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true');
  });

  it('sends what was done offline in the order it was done, once each, when the browser is back online', async () => {
    const { user, calls, net, fake, requests } = openDashboard({
      ideas: [ideaJson({ id: 'i1', text: 'Bowling', voteCount: 1 }), ideaJson({ id: 'i2', text: 'Karaoke', createdAt: '2026-03-01T11:00:00.000Z' })],
    });
    const bowling = await card('Bowling');
    const karaoke = await card('Karaoke');
    net.offline();

    await user.click(voteButton(bowling, 'Bowling', '1 vote'));
    await user.click(within(bowling).getByRole('button', { name: 'Add comment' }));
    const box = await within(bowling).findByRole('textbox', { name: 'Add a comment on Bowling' });
    await user.type(box, 'See you there{Enter}');
    await user.click(voteButton(karaoke, 'Karaoke', '0 votes'));

    // Nothing was tried; everything shows, marked.
    expect(calls('POST', '/api/ideas/i1/vote')).toEqual([]);
    expect(voteButton(bowling, 'Bowling', '2 votes')).toHaveAttribute('aria-pressed', 'true');
    expect(voteButton(karaoke, 'Karaoke', '1 vote')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(box).toHaveValue(''));
    // The thread could not be read offline; the comment waiting to be sent shows anyway.
    expect(within(bowling).getByText("Couldn't load the comments.")).toBeInTheDocument();
    const pending = within(within(bowling).getByRole('list', { name: 'Comments on Bowling' })).getByRole('listitem');
    expect(pending).toHaveTextContent('See you there');
    expect(within(pending).getByRole('status', { name: 'Your comment is waiting for connection' })).toBeInTheDocument();
    expect(within(bowling).getByRole('button', { name: '1 comment' })).toBeInTheDocument();
    // A second tap on a vote still waiting is ignored (one toggle at a time).
    await user.click(voteButton(karaoke, 'Karaoke', '1 vote'));
    expect(storedActions()).toHaveLength(3);

    net.online();
    await waitFor(() => expect(storedActions()).toEqual([]));
    const writes = requests.filter((r) => r.method === 'POST');
    expect(writes.map((r) => r.path)).toEqual(['/api/ideas/i1/vote', '/api/ideas/i1/comments', '/api/ideas/i2/vote']);
    expect(new Set(keysOf(writes)).size).toBe(3);
    expect(writes[1]!.body).toEqual({ text: 'See you there', authorName: 'Hal Guest', guestId: hal.id });
    await waitFor(() => expect(within(bowling).queryByRole('status', { name: 'Your comment is waiting for connection' })).not.toBeInTheDocument());
    // Read again once sent: the thread now comes from the server, the comment in it.
    await waitFor(() => expect(within(bowling).queryByText("Couldn't load the comments.")).not.toBeInTheDocument());
    expect(within(bowling).getByText('See you there')).toBeInTheDocument();
    expect(waitingVote(karaoke, 'Karaoke')).not.toBeInTheDocument();
    expect(fake.voters.i1!.filter((v) => v.id === hal.id)).toHaveLength(1);
    expect(fake.voters.i2!.filter((v) => v.id === hal.id)).toHaveLength(1);
  });

  it('puts a vote the server refuses when it arrives back as it was, with the server\'s sentence', async () => {
    const { user, net, server } = openDashboard({ ideas: [ideaJson({ id: 'i1', text: 'Bowling', voteCount: 2 })] });
    const bowling = await card('Bowling');
    net.offline();
    await user.click(voteButton(bowling, 'Bowling', '2 votes'));
    expect(voteButton(bowling, 'Bowling', '3 votes')).toHaveAttribute('aria-pressed', 'true');

    // The host locked the plan meanwhile.
    server.refuse = text('Voting is closed: the host locked the plan', 409);
    net.online();
    expect(await screen.findByText('Voting is closed: the host locked the plan')).toBeInTheDocument();
    expect(voteButton(bowling, 'Bowling', '2 votes')).toHaveAttribute('aria-pressed', 'false');
    expect(waitingVote(bowling, 'Bowling')).not.toBeInTheDocument();
    expect(storedActions()).toEqual([]);
    expect(getGuestVotes().planIdeaIds).toEqual([]);
  });

  it('applies a replayed answer like a first one: a vote whose answer was lost is not toggled back', async () => {
    const { user, calls, net, server, fake } = openDashboard();
    const bowling = await card('Bowling');
    server.loseAnswers = true;
    await user.click(voteButton(bowling, 'Bowling', '0 votes'));
    expect(await within(bowling).findByRole('status', { name: 'Your vote for Bowling is waiting for connection' })).toBeInTheDocument();
    expect(fake.voters.i1).toHaveLength(1); // the server has it

    server.loseAnswers = false;
    net.online();
    await waitFor(() => expect(waitingVote(bowling, 'Bowling')).not.toBeInTheDocument());
    expect(voteButton(bowling, 'Bowling', '1 vote')).toHaveAttribute('aria-pressed', 'true');
    const sent = calls('POST', '/api/ideas/i1/vote');
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keysOf(sent)).size).toBe(1);
    expect(fake.voters.i1).toEqual([{ id: hal.id, name: hal.name, isGuest: true }]);
  });

  it('does not send a vote as someone else: the guest is gone from this device, so it is dropped with a toast', async () => {
    const { user, calls, net } = openDashboard();
    const bowling = await card('Bowling');
    net.offline();
    await user.click(voteButton(bowling, 'Bowling', '0 votes'));
    expect(storedActions()).toHaveLength(1);

    clearGuest(); // e.g. the guest signed in and the device forgot the guest
    net.online();
    expect(await screen.findByText("Your vote wasn't sent: this device is no longer signed in as Hal Guest.")).toBeInTheDocument();
    expect(calls('POST', '/api/ideas/i1/vote')).toEqual([]);
    expect(storedActions()).toEqual([]);
  });
  it("backs an idea from the Suggest Idea panel with no network: shown at once, waiting, sent once when back", async () => {
    const { user, calls, net, fake } = openDashboard({
      ideas: [ideaJson({ id: 'i1', text: 'Bowling', userId: 'u2', authorName: 'Ben', voteCount: 2 })],
    });
    fake.voters.i1 = [
      { id: 'u2', name: 'Ben', isGuest: false },
      { id: 'u3', name: 'Cy', isGuest: false },
    ];
    const bowling = await card('Bowling');
    net.offline();

    await user.click(screen.getByRole('button', { name: 'Suggest Idea' }));
    const panel = within(await screen.findByRole('region', { name: 'Ideas based on common interests' }));
    await user.click(await panel.findByRole('button', { name: /Bowling/ }));
    await user.click(panel.getByRole('button', { name: 'Add' }));

    // The panel closes as after any Add; the vote shows, marked, and waits on the device.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Ideas based on common interests' })).not.toBeInTheDocument());
    expect(voteButton(bowling, 'Bowling', '3 votes')).toHaveAttribute('aria-pressed', 'true');
    expect(waitingVote(bowling, 'Bowling')).toBeInTheDocument();
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
    expect(calls('POST', '/api/ideas/i1/vote')).toEqual([]);
    expect(storedActions()).toHaveLength(1);

    net.online();
    await waitFor(() => expect(storedActions()).toEqual([]));
    await waitFor(() => expect(waitingVote(bowling, 'Bowling')).not.toBeInTheDocument());
    const sent = calls('POST', '/api/ideas/i1/vote');
    expect(sent).toHaveLength(1);
    expect(keysOf(sent)[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.voters.i1!.filter((v) => v.id === hal.id)).toHaveLength(1);
    expect(voteButton(bowling, 'Bowling', '3 votes')).toHaveAttribute('aria-pressed', 'true');
  });
});

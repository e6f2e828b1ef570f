import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { GUEST_SECRET_WRONG } from '../../../../../supabase/functions/_shared/contract/guest-secret';
import { clearGuest, getGuestSession, setGuestSession } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, participantJson, planJson } from '../../plans/test-fixtures';

const DASHBOARD = '/l/abcDEF12/dashboard';
const signedOut = { 'GET /api/auth/me': () => text('Not signed in', 401) };
const sam = { id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' };

const idea = (hasUserVoted: boolean) => ({
  id: 'i1',
  text: 'Board games',
  authorName: 'Ada Lovelace',
  userId: 'u1',
  guestId: null,
  voteCount: hasUserVoted ? 1 : 0,
  hasUserVoted,
  commentCount: 0,
  createdAt: '2026-03-01T10:00:00Z',
});

interface Options {
  route?: string;
  signedIn?: boolean;
  routes?: Routes;
}

function openDashboard({ route = DASHBOARD, signedIn = false, routes = {} }: Options = {}) {
  if (signedIn) localStorage.setItem('authToken', 'test-token');
  const network = mockFetch({
    ...(signedIn ? { 'GET /api/auth/me': meRoute(ada) } : signedOut),
    'GET /api/plans/slug/abcDEF12': () => json(planJson({ participantCount: 3 })),
    'GET /api/plans/p1/ideas': () => json([idea(false)]),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/participants': () =>
      json([participantJson('Ada Lovelace', 0), participantJson('Sam', 1, true), participantJson('Ben', 2)]),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route }) };
}

beforeEach(() => clearGuest());
afterEach(() => vi.restoreAllMocks());

describe('guest dashboard: a secret the server no longer accepts', () => {
  it('a refused vote sends the guest through "Is this you?", which gets this device a new secret', async () => {
    setGuestSession(sam);
    const { user, location, calls } = openDashboard({
      routes: {
        'POST /api/ideas/i1/vote': () => text(GUEST_SECRET_WRONG, 403),
        'POST /api/plans/p1/check-guest': () => json({ exists: true, guestId: 'g1', name: 'Sam', ideaVotes: [], timeSlotVotes: [] }),
        'POST /api/guest-session/restore': () => json({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'new-secret' }),
        'POST /api/plans/p1/join': () => json({ joined: true, participantId: 'pp1', alreadyJoined: true }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Vote for Board games (0 votes)' }));
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.headers.get('X-Guest-Secret')).toBe('device-secret');
    expect(await screen.findByText(GUEST_SECRET_WRONG)).toBeInTheDocument();

    // Not a dead end: the join page asks for that name at once.
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1' });
    const card = within(await screen.findByRole('region', { name: 'Is this you?' }));
    await user.click(card.getByRole('button', { name: "Yes, that's me" }));
    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'new-secret', slug: 'abcDEF12' });
  });
});

describe('guest dashboard: who may see it', () => {
  it('sends a visitor with neither an account nor a guest session to the join page', async () => {
    const { location } = openDashboard();
    expect(await screen.findByRole('textbox', { name: "What's your name?" })).toBeInTheDocument();
    expect(location()).toBe('/l/abcDEF12');
  });

  it("sends a guest of another plan to this plan's join page", async () => {
    setGuestSession({ id: 'g9', name: 'Sam', planId: 'p9', secret: 'device-secret' });
    const { location } = openDashboard();
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(await screen.findByRole('textbox', { name: "What's your name?" })).toBeInTheDocument();
  });

  it('says so when the plan is missing', async () => {
    setGuestSession(sam);
    openDashboard({ routes: { 'GET /api/plans/slug/abcDEF12': () => text('Plan not found', 404) } });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
  });
});

describe('guest dashboard', () => {
  it('welcomes a guest, shows the plan status and offers an account', async () => {
    setGuestSession(sam);
    openDashboard();
    expect(await screen.findByText('Welcome, Sam')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();

    const status = within(screen.getByRole('region', { name: 'Plan Status' }));
    expect(status.getByText("What we're doing")).toBeInTheDocument();
    expect(status.getByText("When we're meeting")).toBeInTheDocument();
    expect(status.queryByText("Where we're meeting")).not.toBeInTheDocument();
    expect(status.getByText('3 people joined')).toBeInTheDocument();
    expect(screen.getByText('Vote Now')).toBeInTheDocument();

    const banner = within(screen.getByRole('complementary', { name: 'Save Your Votes & Get Updates' }));
    expect(banner.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', `/auth?returnTo=${DASHBOARD}`);
    expect(screen.queryByText('Get Plan Notifications')).not.toBeInTheDocument();
  });

  it('shows the picked idea and where, once set', async () => {
    setGuestSession(sam);
    openDashboard({
      routes: {
        'GET /api/plans/slug/abcDEF12': () =>
          json(planJson({ lockedIdeaId: 'i1', lockedIdeaText: 'Board games', location: 'Central Park' })),
      },
    });
    const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
    expect(status.getByText('Board games')).toBeInTheDocument();
    expect(status.getByText("Where we're meeting")).toBeInTheDocument();
    expect(status.getByText('Central Park')).toBeInTheDocument();
  });

  it('a cancelled plan says so with the message, asks nobody to vote, and its ideas cannot be voted on', async () => {
    setGuestSession(sam);
    openDashboard({
      routes: {
        'GET /api/plans/slug/abcDEF12': () =>
          json(planJson({ status: 'cancelled', cancelMessage: 'Rain all weekend.', cancelledAt: '2026-03-10T12:00:00.000Z' })),
      },
    });
    const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
    expect(status.getByText('Cancelled')).toBeInTheDocument();
    expect(status.getByText('Rain all weekend.')).toBeInTheDocument();
    // Only the host reopens it.
    expect(status.queryByRole('button', { name: 'Reopen Plan' })).not.toBeInTheDocument();
    expect(screen.queryByText('Vote Now')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Vote for Board games/ })).toBeDisabled();
  });

  it('asks a signed-in visitor to sign in for notifications, without the guest welcome', async () => {
    openDashboard({ signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
    expect(screen.queryByText(/^Welcome,/)).not.toBeInTheDocument();
    const banner = within(screen.getByRole('complementary', { name: 'Get Plan Notifications' }));
    expect(banner.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', `/auth?returnTo=${DASHBOARD}`);
    expect(screen.queryByText('Save Your Votes & Get Updates')).not.toBeInTheDocument();
  });

  it('switches tabs from the shortcuts and brings the tabs into view', async () => {
    setGuestSession(sam);
    const scroll = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    const { user, location } = openDashboard();
    expect(await screen.findByRole('tab', { name: 'Ideas', selected: true })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Share Availability' }));
    expect(screen.getByRole('tab', { name: 'Availability', selected: true })).toBeInTheDocument();
    expect(location()).toBe(`${DASHBOARD}?tab=availability`);
    await waitFor(() => expect(scroll).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Availability' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Vote Now' }));
    expect(screen.getByRole('tab', { name: 'Ideas', selected: true })).toBeInTheDocument();
    expect(location()).toBe(`${DASHBOARD}?tab=ideas`);

    await user.click(screen.getByRole('button', { name: 'Pick Times' }));
    expect(screen.getByRole('tab', { name: 'Availability', selected: true })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Vote on Ideas' }));
    expect(screen.getByRole('tab', { name: 'Ideas', selected: true })).toBeInTheDocument();
    await waitFor(() => expect(scroll).toHaveBeenCalledTimes(4));

    // The tabs themselves work as tabs too.
    await user.click(screen.getByRole('tab', { name: 'Availability' }));
    expect(location()).toBe(`${DASHBOARD}?tab=availability`);
  });

  it('opens the tab named in the URL', async () => {
    setGuestSession(sam);
    openDashboard({ route: `${DASHBOARD}?tab=availability` });
    expect(await screen.findByRole('tab', { name: 'Availability', selected: true })).toBeInTheDocument();
  });

  it('marks the tabs where the visitor voted with a dot', async () => {
    setGuestSession(sam);
    openDashboard({
      routes: {
        'GET /api/plans/p1/ideas': () => json([idea(true)]),
        'GET /api/plans/p1/my-votes': () => json({ answers: [{ timeSlotId: 's1', answer: 'yes' }], noDates: false }),
      },
    });
    expect(await screen.findByRole('tab', { name: 'Ideas, you voted' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Availability, you voted' })).toBeInTheDocument();
    expect(screen.getByText("You've voted")).toBeInTheDocument();
    expect(screen.getByText("You've shared your times")).toBeInTheDocument();
  });

  it('shows no dot before the visitor votes', async () => {
    setGuestSession(sam);
    const { calls } = openDashboard();
    await waitFor(() => expect(calls('GET', '/api/plans/p1/ideas').length).toBeGreaterThan(0));
    await waitFor(() => expect(calls('GET', '/api/plans/p1/my-votes').length).toBeGreaterThan(0));
    expect(await screen.findByText('Not voted yet')).toBeInTheDocument();
    expect(screen.getByText('Not shared yet')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Ideas' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Availability' })).toBeInTheDocument();
  });

  it("lists the participants by URL only, with a 'Member' badge for accounts", async () => {
    setGuestSession(sam);
    openDashboard({ route: `${DASHBOARD}?tab=people` });
    const list = await screen.findByRole('list', { name: 'Participants' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['ALAda LovelaceMember', 'SASam', 'BEBenMember']);
    expect(screen.getAllByRole('tab')).toHaveLength(2);
    expect(screen.queryByRole('tab', { selected: true })).not.toBeInTheDocument();
  });
});

describe('guest dashboard: the people tab once a date is locked', { timeout: 20_000 }, () => {
  const said = (person: string, answer: string | null, plusOnes = 0, position: number | null = null) => ({
    participantId: person,
    name: person,
    isGuest: false,
    role: null,
    answer,
    plusOnes,
    position,
    setByHost: false,
  });
  const people = [
    { ...participantJson('Ada Lovelace', 0), role: 'host' as const },
    participantJson('Sam', 1, true),
    { ...participantJson('Ben', 2), role: 'cohost' as const },
    participantJson('Cy', 3),
    participantJson('Di', 4, true),
  ];
  const rsvps = {
    going: 1,
    maybe: 1,
    no: 1,
    waitlist: 1,
    unanswered: 1,
    headcount: 3,
    capacity: 3,
    maxPlusOnes: 2,
    askAgain: false,
    mine: null,
    // The server's order: going, maybe, waitlist, can't go, no answer yet.
    people: [said('pp2', 'going', 2), said('pp0', 'maybe'), said('pp1', 'waitlist', 0, 1), said('pp4', 'no'), said('pp3', null)],
  };
  const routes = (plan: ReturnType<typeof planJson>) => ({
    'GET /api/plans/slug/abcDEF12': () => json(plan),
    'GET /api/plans/p1/participants': () => json(people),
    'GET /api/plans/p1/rsvps': () => json(rsvps),
  });
  const listed = async () =>
    within(await screen.findByRole('list', { name: 'Participants' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);

  it("shows each one's answer as Who's coming does: going first, friends, the waitlist, the roles", async () => {
    setGuestSession(sam);
    const set = planJson({ status: 'date_locked', lockedTimeSlotId: 's1', lockedTimeSlotDate: '2026-03-14', participantCount: 5 });
    const { calls } = openDashboard({ route: `${DASHBOARD}?tab=people`, routes: routes(set) });
    await waitFor(async () =>
      expect(await listed()).toEqual([
        'BEBen · Going +2MemberCo-host',
        'ALAda Lovelace · MaybeMemberHost',
        'SASam · Waitlist #1',
        "DIDi · Can't go",
        'CYCyMember',
      ]),
    );
    // One read of the answers, shared with the guest's "Are you coming?" card.
    expect(await screen.findByRole('region', { name: 'Are you coming?' })).toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/rsvps')).toHaveLength(1);
  });

  it('before a date is locked, and once cancelled, lists the people as before and reads no answers', async () => {
    setGuestSession(sam);
    for (const plan of [planJson({ participantCount: 5 }), planJson({ status: 'cancelled', participantCount: 5 })]) {
      const { calls, unmount } = openDashboard({ route: `${DASHBOARD}?tab=people`, routes: routes(plan) });
      expect(await listed()).toEqual(['ALAda LovelaceMemberHost', 'SASam', 'BEBenMemberCo-host', 'CYCyMember', 'DIDi']);
      expect(calls('GET', '/api/plans/p1/rsvps')).toEqual([]);
      unmount();
      vi.restoreAllMocks();
    }
  });
});

describe('guest dashboard: live', () => {
  it('follows the plan its link names: someone joining shows without a reload', async () => {
    setGuestSession(sam);
    let people = [participantJson('Ada Lovelace', 0), participantJson('Sam', 1, true)];
    const { live, calls } = openDashboard({
      route: `${DASHBOARD}?tab=people`,
      routes: { 'GET /api/plans/p1/participants': () => json(people) },
    });
    const list = await screen.findByRole('list', { name: 'Participants' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(live.opened).toEqual(['p1']);

    people = [...people, participantJson('Ben', 2)];
    act(() => live.change({ planId: 'p1', version: 5, parts: ['participants'] }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(calls('GET', '/api/plans/slug/abcDEF12')).toHaveLength(2); // the count on the status card too
  });

  it('shows "Plan not found" when the host deletes the plan', async () => {
    setGuestSession(sam);
    let gone = false;
    const { live } = openDashboard({
      routes: { 'GET /api/plans/slug/abcDEF12': () => (gone ? text('Plan not found', 404) : json(planJson())) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
    gone = true;
    act(() => live.change({ planId: 'p1', version: 6, parts: ['deleted'] }));
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  });
});

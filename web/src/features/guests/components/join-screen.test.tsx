import { StrictMode } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { clearGuest, getGuestSession, getGuestVotes, markGuestRemoved, setGuestSession } from '../../../lib/guest-storage';
import { deferred, json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

const JOIN = '/l/abcDEF12';
const DASHBOARD = '/l/abcDEF12/dashboard';
const signedOut = { 'GET /api/auth/me': () => text('Not signed in', 401) };

function openJoin({ plan = planJson(), user, routes = {} }: { plan?: Plan; user?: object; routes?: Routes } = {}) {
  if (user) localStorage.setItem('authToken', 'test-token');
  const network = mockFetch({
    ...(user ? { 'GET /api/auth/me': meRoute(user) } : signedOut),
    'GET /api/plans/slug/abcDEF12': () => json(plan),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: JOIN }) };
}

// The guest items are cached in memory: clear them through the store, not only localStorage.
beforeEach(() => clearGuest());

const nameInput = () => screen.findByRole('textbox', { name: "What's your name?" });

describe('join page: the plan', () => {
  it('shows the plan with its description and the planning phase', async () => {
    openJoin({ plan: planJson({ description: 'Bring snacks' }) });
    const summary = await screen.findByRole('region', { name: 'Friday night' });
    expect(within(summary).getByText('Join the Plan')).toBeInTheDocument();
    expect(within(summary).getByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
    expect(within(summary).getByText('Bring snacks')).toBeInTheDocument();
    expect(within(summary).getByText('Planning phase')).toBeInTheDocument();
    expect(within(summary).queryByText('Active')).not.toBeInTheDocument();
  });

  it("shows 'Active' once the host has locked the date or set the time", async () => {
    openJoin({ plan: planJson({ status: 'completed' }) });
    expect(await screen.findByText('Active')).toBeInTheDocument();
    expect(screen.queryByText('Planning phase')).not.toBeInTheDocument();
  });

  it('says so when the plan is missing', async () => {
    mockFetch({ ...signedOut, 'GET /api/plans/slug/abcDEF12': () => text('Plan not found', 404) });
    renderWithProviders(<AppRoutes />, { route: JOIN });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
    expect(screen.getByText('This plan may have been deleted or the link is invalid.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it("takes this device's guest from a link the host reset to the plan under its new one", async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret', slug: 'abcDEF12' });
    const { location } = openJoin({
      routes: {
        'GET /api/plans/slug/abcDEF12': () => text('Plan not found', 404),
        'GET /api/guest-session/g1': () => json({ id: 'g1', name: 'Sam', planId: 'p1', continuedAt: null, planSlug: 'newSlug_123' }),
        'GET /api/plans/slug/newSlug_123': () => json(planJson({ slug: 'newSlug_123' })),
      },
    });
    await waitFor(() => expect(location()).toBe('/l/newSlug_123/dashboard'));
    expect(screen.queryByRole('heading', { name: 'Plan not found' })).not.toBeInTheDocument();
  });

  it("offers 'Sign In Instead', back to this page", async () => {
    openJoin();
    expect(await screen.findByRole('link', { name: 'Sign In Instead' })).toHaveAttribute('href', `/auth?returnTo=${JOIN}`);
  });
});

describe('join page: signed in', () => {
  it('joins once by itself, then opens the plan', async () => {
    const joined = deferred();
    const { calls, location } = openJoin({ user: ada, routes: { 'POST /api/plans/p1/join': () => joined.promise } });
    expect(await screen.findByText(/You're signed in as/)).toHaveTextContent("You're signed in as Ada Lovelace");
    expect(screen.getByRole('button', { name: 'Joining...' })).toBeDisabled();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await waitFor(() => expect(calls('POST', '/api/plans/p1/join')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/join')[0]!.body).toEqual({ name: 'Ada Lovelace', userId: 'u1', slug: 'abcDEF12' });

    joined.resolve(json({ joined: true, participantId: 'pp1', alreadyJoined: false }));
    await waitFor(() => expect(location()).toBe('/plan/p1'));
    expect(await screen.findByText('Joined successfully!')).toBeInTheDocument();
    expect(screen.getByText('This plan is now available on your home page')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/join')).toHaveLength(1);
  });

  it('joins only once under StrictMode too', async () => {
    localStorage.setItem('authToken', 'test-token');
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/slug/abcDEF12': () => json(planJson()),
      'POST /api/plans/p1/join': () => deferred().promise,
    });
    renderWithProviders(
      <StrictMode>
        <AppRoutes />
      </StrictMode>,
      { route: JOIN },
    );
    expect(await screen.findByRole('button', { name: 'Joining...' })).toBeDisabled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls('POST', '/api/plans/p1/join')).toHaveLength(1);
  });

  it('names a user without a name by the e-mail', async () => {
    const nameless = { id: 'u3', email: 'cy@example.com', firstName: null, lastName: null };
    const { calls } = openJoin({ user: nameless, routes: { 'POST /api/plans/p1/join': () => deferred().promise } });
    expect(await screen.findByText(/You're signed in as/)).toHaveTextContent("You're signed in as cy@example.com");
    await waitFor(() => expect(calls('POST', '/api/plans/p1/join')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/join')[0]!.body).toEqual({ name: 'cy@example.com', userId: 'u3', slug: 'abcDEF12' });
  });

  it("shows the failure and lets 'Join Plan' try again", async () => {
    let answer = new Response('', { status: 502 });
    const { calls, user, location } = openJoin({ user: ada, routes: { 'POST /api/plans/p1/join': () => answer } });
    expect(await screen.findByText('Failed to join plan')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(location()).toBe(JOIN);

    answer = json({ joined: true, participantId: 'pp1', alreadyJoined: true });
    await user.click(screen.getByRole('button', { name: 'Join Plan' }));
    await waitFor(() => expect(location()).toBe('/plan/p1'));
    expect(calls('POST', '/api/plans/p1/join')).toHaveLength(2);
  });

  it("shows the server's sentence when joining is refused", async () => {
    openJoin({ user: ada, routes: { 'POST /api/plans/p1/join': () => text('Plan not found', 404) } });
    expect(await screen.findByText('Plan not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Plan' })).toBeEnabled();
  });
});

describe('join page: guests', () => {
  it('goes straight to the dashboard with a stored session of this plan', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const { location, calls } = openJoin();
    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(calls('POST', '/api/plans/p1/check-guest')).toHaveLength(0);
  });

  it("asks a guest of another plan for a name like anyone else", async () => {
    setGuestSession({ id: 'g9', name: 'Sam', planId: 'p9', secret: 'device-secret' });
    const { location } = openJoin();
    expect(await nameInput()).toBeInTheDocument();
    expect(location()).toBe(JOIN);
  });

  it('creates a new guest, keeps the session and opens the dashboard', async () => {
    const checked = deferred();
    const created = deferred();
    const { user, calls, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => checked.promise,
        'POST /api/guest-session': () => created.promise,
      },
    });
    const continueButton = await screen.findByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    await user.type(await nameInput(), '   ');
    expect(continueButton).toBeDisabled();
    await user.type(await nameInput(), 'Sam  ');
    await user.click(continueButton);

    expect(screen.getByRole('button', { name: 'Checking...' })).toBeDisabled();
    expect(calls('POST', '/api/plans/p1/check-guest')[0]!.body).toEqual({ name: 'Sam' });
    checked.resolve(json({ exists: false, guestId: null, name: 'Sam', ideaVotes: [], timeSlotVotes: [] }));

    expect(await screen.findByRole('button', { name: 'Joining...' })).toBeDisabled();
    // The link goes with every way in: a plan with closed invitations needs it.
    expect(calls('POST', '/api/guest-session')[0]!.body).toEqual({ name: 'Sam', planId: 'p1', slug: 'abcDEF12' });
    created.resolve(json({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'new-device-secret' }, 201));

    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(await screen.findByText('Welcome!')).toBeInTheDocument();
    expect(screen.getByText("You've joined the planning session")).toBeInTheDocument();
    // The secret stays on this device, inside the spec's `guestSession` item.
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'new-device-secret', slug: 'abcDEF12' });
    expect(JSON.parse(localStorage.getItem('guestSession')!)).toMatchObject({ secret: 'new-device-secret' });
  });

  it('shows the 409 sentence when the name was taken meanwhile', async () => {
    const sentence = 'Someone named Sam already joined this plan';
    const { user, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: false, guestId: null, name: 'Sam', ideaVotes: [], timeSlotVotes: [] }),
        'POST /api/guest-session': () => text(sentence, 409),
      },
    });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(location()).toBe(JOIN);
    expect(getGuestSession()).toBeNull();
  });

  it('tells a device the host removed from this plan, and sends its old secret with a new name (refused unless allowed back)', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'removed-secret' });
    markGuestRemoved();
    const refused = 'The host removed you from this plan';
    const { user, calls, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: false, guestId: null, name: 'Samantha', ideaVotes: [], timeSlotVotes: [] }),
        'POST /api/guest-session': () => text(refused, 403),
      },
    });
    expect(await screen.findByText(refused)).toBeInTheDocument();
    await user.type(await nameInput(), 'Samantha');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The server's answer in a toast, next to the note.
    await waitFor(() => expect(screen.getAllByText(refused)).toHaveLength(2));
    expect(calls('POST', '/api/guest-session')[0]!.headers.get('X-Guest-Secret')).toBe('removed-secret');
    expect(location()).toBe(JOIN);
    expect(getGuestSession()).toBeNull();
  });

  it('says nothing of a removal from another plan, and sends no secret for it', async () => {
    setGuestSession({ id: 'g9', name: 'Sam', planId: 'p9', secret: 'removed-secret' });
    markGuestRemoved();
    const { user, calls } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: false, guestId: null, name: 'Sam', ideaVotes: [], timeSlotVotes: [] }),
        'POST /api/guest-session': () => json({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'new-device-secret' }, 201),
      },
    });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(getGuestSession()).toMatchObject({ id: 'g1', secret: 'new-device-secret' }));
    expect(screen.queryByText('The host removed you from this plan')).not.toBeInTheDocument();
    expect(calls('POST', '/api/guest-session')[0]!.headers.get('X-Guest-Secret')).toBeNull();
  });

  it("falls back to 'Failed to create guest session'", async () => {
    const { user } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: false, guestId: null, name: 'Sam', ideaVotes: [], timeSlotVotes: [] }),
        'POST /api/guest-session': () => new Response('', { status: 500 }),
      },
    });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Failed to create guest session')).toBeInTheDocument();
  });

  it("falls back to 'Failed to check for existing guest'", async () => {
    const { user, calls } = openJoin({ routes: { 'POST /api/plans/p1/check-guest': () => new Response('', { status: 503 }) } });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Failed to check for existing guest')).toBeInTheDocument();
    expect(calls('POST', '/api/guest-session')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });
});

describe("join page: 'Is this you?'", () => {
  const existingSam = (ideaVotes: string[] = [], timeSlotVotes: string[] = []) =>
    json({ exists: true, guestId: 'g1', name: 'Sam', ideaVotes, timeSlotVotes });

  it('restores the guest and its votes after "Yes, that\'s me"', async () => {
    const restored = deferred();
    const { user, calls, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => existingSam(['i1', 'i2'], ['s1']),
        'POST /api/guest-session/restore': () => restored.promise,
        'POST /api/plans/p1/join': () => json({ joined: true, participantId: 'pp2', alreadyJoined: true }),
      },
    });
    await user.type(await nameInput(), 'sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const card = within(await screen.findByRole('region', { name: 'Is this you?' }));
    expect(card.getByRole('heading', { name: 'Is this you?' })).toHaveFocus();
    expect(card.getByText('Sam')).toBeInTheDocument();
    expect(card.getByText('Guest participant')).toBeInTheDocument();
    expect(card.getByText('2 idea votes, 1 availability vote')).toBeInTheDocument();
    expect(calls('POST', '/api/guest-session')).toHaveLength(0);

    await user.click(card.getByRole('button', { name: "Yes, that's me" }));
    expect(card.getByRole('button', { name: 'Restoring...' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'No, different person' })).toBeDisabled();
    expect(calls('POST', '/api/guest-session/restore')[0]!.body).toEqual({ planId: 'p1', name: 'Sam', slug: 'abcDEF12' });
    restored.resolve(json({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'restored-secret' }));

    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('Your previous votes have been restored.')).toBeInTheDocument();
    const join = calls('POST', '/api/plans/p1/join')[0]!;
    expect(join.body).toEqual({ name: 'Sam', guestId: 'g1' });
    // The new secret goes in a header, never in the body or the URL.
    expect(join.headers.get('X-Guest-Secret')).toBe('restored-secret');
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'restored-secret', slug: 'abcDEF12' });
    expect(getGuestVotes()).toEqual({ planIdeaIds: ['i1', 'i2'], timeSlotIds: ['s1'] });
  });

  it("falls back to 'Failed to retrieve existing session' and stores nothing", async () => {
    const { user, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => existingSam(),
        'POST /api/guest-session/restore': () => new Response('', { status: 500 }),
      },
    });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: "Yes, that's me" }));
    expect(await screen.findByText('Failed to retrieve existing session')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Yes, that's me" })).toBeEnabled();
    expect(getGuestSession()).toBeNull();
    expect(location()).toBe(JOIN);
  });

  it("asks a different person for a full name and creates a new guest", async () => {
    const { user, calls, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => existingSam(),
        'POST /api/guest-session': () => json({ id: 'g2', name: 'Sam Smith', planId: 'p1', secret: 'smith-secret' }, 201),
      },
    });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('No votes yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'No, different person' }));

    expect(screen.getByRole('heading', { name: 'Enter Your Full Name' })).toBeInTheDocument();
    const first = screen.getByRole('textbox', { name: 'First name' });
    const last = screen.getByRole('textbox', { name: 'Last name' });
    const submit = screen.getByRole('button', { name: 'Create New Guest Profile' });
    expect(first).toHaveValue('Sam');
    expect(last).toHaveFocus();
    expect(submit).toBeDisabled();
    await user.type(last, '  ');
    expect(submit).toBeDisabled();
    await user.type(last, 'Smith ');
    await user.clear(first);
    expect(submit).toBeDisabled();
    await user.type(first, ' Sam');
    await user.click(submit);

    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(calls('POST', '/api/guest-session')[0]!.body).toEqual({ name: 'Sam Smith', planId: 'p1', slug: 'abcDEF12' });
    expect(getGuestSession()).toEqual({ id: 'g2', name: 'Sam Smith', planId: 'p1', secret: 'smith-secret', slug: 'abcDEF12' });
    expect(await screen.findByText('Welcome!')).toBeInTheDocument();
  });

  it('goes back to the name from the full-name form', async () => {
    const { user } = openJoin({ routes: { 'POST /api/plans/p1/check-guest': () => existingSam() } });
    await user.type(await nameInput(), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'No, different person' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await nameInput()).toHaveValue('Sam');
  });
});

describe('join page: a guest session kept without a secret (stored before secrets existed, or refused)', () => {
  const storedSam = () =>
    localStorage.setItem('guestSession', JSON.stringify({ id: 'g1', name: 'Sam', planId: 'p1' }));

  it('asks "Is this you?" for that name at once, and "Yes, that\'s me" gets this device a new secret', async () => {
    storedSam();
    const { user, calls, location } = openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: true, guestId: 'g1', name: 'Sam', ideaVotes: ['i1'], timeSlotVotes: [] }),
        'POST /api/guest-session/restore': () => json({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'fresh-secret' }),
        'POST /api/plans/p1/join': () => json({ joined: true, participantId: 'pp1', alreadyJoined: true }),
      },
    });
    const card = within(await screen.findByRole('region', { name: 'Is this you?' }));
    expect(card.getByText("Please confirm it's you to keep going on this device.")).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/check-guest')[0]!.body).toEqual({ name: 'Sam' });
    expect(location()).toBe(JOIN);

    await user.click(card.getByRole('button', { name: "Yes, that's me" }));
    await waitFor(() => expect(location()).toBe(DASHBOARD));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'fresh-secret', slug: 'abcDEF12' });
    expect(calls('POST', '/api/plans/p1/check-guest')).toHaveLength(1);
  });

  it('forgets a session whose guest is gone and offers the name form, filled in', async () => {
    storedSam();
    openJoin({
      routes: {
        'POST /api/plans/p1/check-guest': () => json({ exists: false, guestId: null, name: 'Sam', ideaVotes: [], timeSlotVotes: [] }),
      },
    });
    await waitFor(() => expect(getGuestSession()).toBeNull());
    expect(await nameInput()).toHaveValue('Sam');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });
});

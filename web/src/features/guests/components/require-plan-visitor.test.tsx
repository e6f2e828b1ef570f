import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG, REMOVED_FROM_PLAN } from '../../../../../supabase/functions/_shared/contract/guest-secret';
import { clearGuest, getGuestSession, getRemovedGuestSecret, setGuestSession } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import { RequirePlanVisitor } from './require-plan-visitor';
import { formatMoment } from '../../../lib/local-date';


function GuardedIdeasPage() {
  const { slug = '' } = useParams();
  return (
    <RequirePlanVisitor slug={slug}>
      {({ plan, visitor }) => <p>{`${plan.title} for ${visitor.kind} ${visitor.name}`}</p>}
    </RequirePlanVisitor>
  );
}

function mockNetwork({
  signedIn = false,
  plan = () => json(planJson()),
  guest = (): Response => json({ id: 'g1', name: 'Sam', planId: 'p1', continuedAt: null }),
  routes = {} as Parameters<typeof mockFetch>[0],
} = {}) {
  if (signedIn) localStorage.setItem('authToken', 'test-token');
  return mockFetch({
    'GET /api/auth/me': signedIn ? meRoute(ada) : () => text('Not signed in', 401),
    'GET /api/plans/slug/abcDEF12': plan,
    'GET /api/guest-session/g1': guest,
    ...routes,
  });
}

function renderGuardedPage(options: Parameters<typeof mockNetwork>[0] = {}) {
  const network = mockNetwork(options);
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/l/:slug" element={<p>Join page</p>} />
      <Route path="/l/:slug/ideas" element={<GuardedIdeasPage />} />
    </Routes>,
    { route: '/l/abcDEF12/ideas' },
  );
  return { ...network, ...rendered };
}

beforeEach(() => clearGuest());

describe('RequirePlanVisitor', () => {
  it('lets a signed-in visitor in', async () => {
    renderGuardedPage({ signedIn: true });
    expect(await screen.findByText('Friday night for member Ada Lovelace')).toBeInTheDocument();
  });

  it("lets a guest of this plan in", async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    renderGuardedPage();
    expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
  });

  it('sends anyone else to the join page', async () => {
    const { location } = renderGuardedPage();
    expect(await screen.findByText('Join page')).toBeInTheDocument();
    expect(location()).toBe('/l/abcDEF12');
  });

  it('sends a guest of another plan to the join page once the plan is known', async () => {
    setGuestSession({ id: 'g9', name: 'Sam', planId: 'p9', secret: 'device-secret' });
    const { location } = renderGuardedPage();
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
  });

  it('forgets a stored guest the server no longer knows and sends the visitor to join', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const { location } = renderGuardedPage({ guest: () => text('Guest not found', 404) });
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(localStorage.getItem('guestSession')).toBeNull();
  });

  it('sends a guest the host removed to the join page, remembering the removal and its secret', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const { location } = renderGuardedPage({ guest: () => text(REMOVED_FROM_PLAN, 403) });
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(getGuestSession()).toBeNull();
    expect(getRemovedGuestSecret('p1')).toBe('device-secret');
  });

  it("checks the stored guest with its secret in the X-Guest-Secret header", async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const { calls } = renderGuardedPage();
    expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
    const check = calls('GET', '/api/guest-session/g1')[0]!;
    expect(check.headers.get('X-Guest-Secret')).toBe('device-secret');
  });

  it('sends a guest session kept without a secret (from before secrets) to the join page, keeping who it was', async () => {
    localStorage.setItem('guestSession', JSON.stringify({ id: 'g1', name: 'Sam', planId: 'p1' }));
    const { location } = renderGuardedPage();
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1' });
  });

  it.each([
    [401, GUEST_SECRET_MISSING],
    [403, GUEST_SECRET_WRONG],
  ])('drops a secret the server refuses (%i) and sends the visitor to confirm the name', async (status, sentence) => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'stale-secret' });
    const { location } = renderGuardedPage({ guest: () => text(sentence, status) });
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1' });
  });

  it('says so when the plan is missing', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    renderGuardedPage({ plan: () => text('Plan not found', 404) });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
  });

  describe('the host reset the link (docs/decisions/0087)', () => {
    const sam = { id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' };
    const moved = {
      plan: () => text('Plan not found', 404),
      guest: () => json({ ...sam, secret: undefined, continuedAt: null, planSlug: 'newSlug_123' }),
      routes: { 'GET /api/plans/slug/newSlug_123': () => json(planJson({ slug: 'newSlug_123' })) },
    };

    it("a guest of the plan follows it from the old link to the same page under the new one", async () => {
      setGuestSession({ ...sam, slug: 'abcDEF12' });
      const { location } = renderGuardedPage(moved);
      expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
      expect(location()).toBe('/l/newSlug_123/ideas');
      // The session now knows the new link, for the next reset.
      await waitFor(() => expect(getGuestSession()?.slug).toBe('newSlug_123'));
    });

    it('anyone else, and a guest who came by another link, meets "Plan not found"', async () => {
      setGuestSession({ ...sam, slug: 'otherLink1' });
      const { calls } = renderGuardedPage(moved);
      expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
      expect(calls('GET', '/api/guest-session/g1')).toHaveLength(0);
    });

    it("a session kept without the link learns it from the guest's own session", async () => {
      setGuestSession(sam);
      renderGuardedPage({ guest: () => json({ id: 'g1', name: 'Sam', planId: 'p1', continuedAt: null, planSlug: 'abcDEF12' }) });
      expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
      await waitFor(() => expect(getGuestSession()?.slug).toBe('abcDEF12'));
    });
  });

  describe('"Your name was continued on another device"', () => {
    const continued = (at: string | null) => () => json({ id: 'g1', name: 'Sam', planId: 'p1', continuedAt: at });
    const sam = { id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' };
    const TITLE = 'Your name was continued on another device';

    it('tells the guest when another device continued as them, until closed ("It was me")', async () => {
      setGuestSession(sam);
      const first = renderGuardedPage({ guest: continued('2026-03-14T19:05:00.000Z') });
      const notice = await screen.findByRole('alert');
      expect(notice).toHaveTextContent(TITLE);
      expect(notice).toHaveTextContent(
        `On ${formatMoment('2026-03-14T19:05:00.000Z')}, another device continued as Sam with "Yes, that's me". It can vote and comment as you, but cannot remove you from the plan.`,
      );
      await first.user.click(screen.getByRole('button', { name: 'It was me' }));
      await waitFor(() => expect(screen.queryByText(TITLE)).not.toBeInTheDocument());
      expect(getGuestSession()).toEqual({ ...sam, continuedSeenAt: '2026-03-14T19:05:00.000Z' });
      first.unmount();

      // The same restore is not told twice.
      renderGuardedPage({ guest: continued('2026-03-14T19:05:00.000Z') });
      expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByText(TITLE)).not.toBeInTheDocument();
    });

    it('tells it again for a later restore, and says nothing when nobody continued', async () => {
      setGuestSession({ ...sam, continuedSeenAt: '2026-03-14T19:05:00.000Z' });
      const quiet = renderGuardedPage({ guest: continued(null) });
      expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByText(TITLE)).not.toBeInTheDocument();
      quiet.unmount();

      renderGuardedPage({ guest: continued('2026-03-15T08:00:00.000Z') });
      expect(await screen.findByText(TITLE)).toBeInTheDocument();
    });

    it('"That wasn\'t me" signs the other devices out after confirming, with this device\'s secret', async () => {
      setGuestSession(sam);
      const { user, ...network } = renderGuardedPage({
        guest: continued('2026-03-14T19:05:00.000Z'),
        routes: { 'DELETE /api/guest-session/g1/other-devices': () => new Response(null, { status: 204 }) },
      });
      await user.click(await screen.findByRole('button', { name: "That wasn't me" }));
      const dialog = await screen.findByRole('dialog', { name: 'Sign out the other devices?' });
      await user.click(within(dialog).getByRole('button', { name: 'Sign them out' }));
      expect(await screen.findByText('Only this device can continue as Sam now.')).toBeInTheDocument();
      const [call] = network.calls('DELETE', '/api/guest-session/g1/other-devices');
      expect(call!.headers.get('X-Guest-Secret')).toBe('device-secret');
      await waitFor(() => expect(screen.queryByText(TITLE)).not.toBeInTheDocument());
      expect(getGuestSession()?.continuedSeenAt).toBe('2026-03-14T19:05:00.000Z');
    });

    it('keeps the notice and says why when the server refuses (a device that continued by name)', async () => {
      setGuestSession(sam);
      const { user } = renderGuardedPage({
        guest: continued('2026-03-14T19:05:00.000Z'),
        routes: {
          'DELETE /api/guest-session/g1/other-devices': () => text('This can only be done from the device that joined as Sam', 403),
        },
      });
      await user.click(await screen.findByRole('button', { name: "That wasn't me" }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign them out' }));
      expect(await screen.findByText('This can only be done from the device that joined as Sam')).toBeInTheDocument();
      expect(screen.getByText(TITLE)).toBeInTheDocument();
      expect(getGuestSession()?.continuedSeenAt).toBeUndefined();
    });
  });
});

import { screen, waitFor } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import { RequirePlanVisitor } from './require-plan-visitor';

function GuardedIdeasPage() {
  const { slug = '' } = useParams();
  return (
    <RequirePlanVisitor slug={slug}>
      {({ plan, visitor }) => <p>{`${plan.title} for ${visitor.kind} ${visitor.name}`}</p>}
    </RequirePlanVisitor>
  );
}

function renderGuarded({
  signedIn = false,
  plan = () => json(planJson()),
  guest = () => json({ id: 'g1', name: 'Sam', planId: 'p1' }),
} = {}) {
  if (signedIn) localStorage.setItem('authToken', 'test-token');
  mockFetch({
    'GET /api/auth/me': signedIn ? meRoute(ada) : () => text('Not signed in', 401),
    'GET /api/plans/slug/abcDEF12': plan,
    'GET /api/guest-session/g1': guest,
  });
  return renderWithProviders(
    <Routes>
      <Route path="/l/:slug" element={<p>Join page</p>} />
      <Route path="/l/:slug/ideas" element={<GuardedIdeasPage />} />
    </Routes>,
    { route: '/l/abcDEF12/ideas' },
  );
}

beforeEach(() => clearGuest());

describe('RequirePlanVisitor', () => {
  it('lets a signed-in visitor in', async () => {
    renderGuarded({ signedIn: true });
    expect(await screen.findByText('Friday night for member Ada Lovelace')).toBeInTheDocument();
  });

  it("lets a guest of this plan in", async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1' });
    renderGuarded();
    expect(await screen.findByText('Friday night for guest Sam')).toBeInTheDocument();
  });

  it('sends anyone else to the join page', async () => {
    const { location } = renderGuarded();
    expect(await screen.findByText('Join page')).toBeInTheDocument();
    expect(location()).toBe('/l/abcDEF12');
  });

  it('sends a guest of another plan to the join page once the plan is known', async () => {
    setGuestSession({ id: 'g9', name: 'Sam', planId: 'p9' });
    const { location } = renderGuarded();
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
  });

  it('forgets a stored guest the server no longer knows and sends the visitor to join', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1' });
    const { location } = renderGuarded({ guest: () => text('Guest not found', 404) });
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
    expect(localStorage.getItem('guestSession')).toBeNull();
  });

  it('says so when the plan is missing', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1' });
    renderGuarded({ plan: () => text('Plan not found', 404) });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
  });
});

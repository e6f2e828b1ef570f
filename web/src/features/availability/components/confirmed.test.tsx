import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ben, planJson } from '../../plans/test-fixtures';
import { setDeviceTimeZone } from '../../../test/device-zone';
import { DashboardAvailabilityTab } from './dashboard-availability-tab';

const completed = planJson({
  status: 'completed',
  lockedIdeaId: 'i1',
  lockedIdeaText: 'Bowling',
  lockedTimeSlotId: 's1',
  lockedTimeSlotDate: '2026-03-14',
  eventTime: '7:30 PM',
  lockedTimeSlot: { id: 's1', date: '2026-03-14', period: '19:30' },
});

beforeEach(() => clearGuest());

describe('confirmed states', () => {
  it("the dashboard tab shows 'Event Time Confirmed!' with the long date and period", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    const { calls } = mockFetch({ 'GET /api/auth/me': () => text('Not signed in', 401) });
    const { user } = renderWithProviders(<DashboardAvailabilityTab plan={completed} />);
    const card = screen.getByRole('region', { name: 'Event Time Confirmed!' });
    expect(card).toHaveTextContent('Saturday, March 14, 2026');
    expect(card).toHaveTextContent('7:30PM');
    expect(card).toHaveTextContent('The host has set the final event time. See you there!');
    // No voting once the time is set, and guests can add it to their calendar too.
    expect(screen.queryByRole('heading', { name: 'When are you free?' })).not.toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/timeslots')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
    expect(await screen.findByRole('menuitem', { name: 'Download .ics' })).toBeInTheDocument();
  });

  it("says the guest's own time under the host's when their phone's clock reads another", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    mockFetch({ 'GET /api/auth/me': () => text('Not signed in', 401) });
    setDeviceTimeZone('America/New_York');
    renderWithProviders(<DashboardAvailabilityTab plan={{ ...completed, timeZone: 'Europe/Berlin' }} />);
    expect(screen.getByRole('region', { name: 'Event Time Confirmed!' })).toHaveTextContent(
      '7:30 PM Berlin time is 2:30 PM where you are.',
    );
  });

  it("says nothing more to a guest in the host's zone", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    mockFetch({ 'GET /api/auth/me': () => text('Not signed in', 401) });
    setDeviceTimeZone('Europe/Berlin');
    renderWithProviders(<DashboardAvailabilityTab plan={{ ...completed, timeZone: 'Europe/Berlin' }} />);
    const card = screen.getByRole('region', { name: 'Event Time Confirmed!' });
    expect(card).toHaveTextContent('7:30PM');
    expect(card).not.toHaveTextContent('where you are');
  });

  it("the dashboard tab votes while the time is not set", async () => {
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/p1/timeslots': () => json([]),
    });
    renderWithProviders(<DashboardAvailabilityTab plan={planJson()} />);
    expect(await screen.findByRole('heading', { name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Event Time Confirmed!' })).not.toBeInTheDocument();
  });

  it("the availability page shows 'Event Confirmed' with 'Back to Plan' to the ideas page", async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({
      'GET /api/auth/me': meRoute(ben),
      'GET /api/plans/p1': () => json(completed),
      'GET /api/plans': () => json([]),
    });
    renderWithProviders(<AppRoutes />, { route: '/plan/p1/availability' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Event Confirmed' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Time Set!' })).toBeInTheDocument();
    expect(screen.getByText('See you on Saturday, March 14, 2026 at 7:30PM!')).toBeInTheDocument();
    expect(screen.getByText('Final time confirmed by host')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Plan' })).toHaveAttribute('href', '/plan/p1/ideas');
    expect(screen.queryByRole('button', { name: 'Submit Availability' })).not.toBeInTheDocument();
  });

  it("a guest's 'Back to Plan' leads to /l/{slug}/ideas", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/slug/abcDEF12': () => json(completed),
    });
    renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/availability' });
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to Plan' })).toHaveAttribute('href', '/l/abcDEF12/ideas'),
    );
  });
});

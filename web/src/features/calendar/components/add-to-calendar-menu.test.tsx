import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { AddToCalendarMenu } from './add-to-calendar-menu';
import { json, meRoute, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson, planSummaryJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

const completed = planJson({
  status: 'completed',
  lockedIdeaId: 'i1',
  lockedIdeaText: 'Bowling',
  lockedTimeSlotId: 's1',
  lockedTimeSlotDate: '2026-03-14',
  eventTime: '7:30 PM',
  lockedTimeSlot: { id: 's1', date: '2026-03-14', period: '19:30' },
  location: "Joe's Lanes",
});

function openPlan(plan: Plan) {
  localStorage.setItem('authToken', 'test-token');
  mockFetch({
    'GET /api/auth/me': meRoute(ada),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json([]),
    'GET /api/plans': () => json([planSummaryJson(plan)]),
    'GET /api/plans/p1/ideas': () => json([]),
  });
  return renderWithProviders(<AppRoutes />, { route: '/plan/p1' });
}

afterEach(() => vi.restoreAllMocks());

describe("the plan page's 'Add to Calendar' menu", () => {
  it('offers a Google Calendar link with the floating event time', async () => {
    const { user } = openPlan(completed);
    await user.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
    const google = await screen.findByRole('menuitem', { name: 'Google Calendar' });
    // The menu holds only menu items (no role="presentation" focus placeholder).
    expect(screen.getByRole('menu').querySelector('[role="presentation"]')).toBeNull();
    const url = new URL(google.getAttribute('href')!);
    expect(url.hostname).toBe('calendar.google.com');
    expect(url.searchParams.get('text')).toBe('Bowling');
    expect(url.searchParams.get('dates')).toBe('20260314T193000/20260314T213000');
    expect(url.searchParams.get('location')).toBe("Joe's Lanes");
    expect(google).toHaveAttribute('target', '_blank');
    expect(google).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('downloads the .ics as a file', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:hangplan/1';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = openPlan(completed);
    await user.click(await screen.findByRole('button', { name: 'Add to Calendar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download .ics' }));

    expect(click).toHaveBeenCalledTimes(1);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('bowling.ics');
    expect(link.href).toBe('blob:hangplan/1');
    expect(blobs[0]!.type).toBe('text/calendar;charset=utf-8');
    const ics = await blobs[0]!.text();
    expect(ics).toContain('DTSTART:20260314T193000');
    expect(ics).toContain('DTEND:20260314T213000');
    expect(ics).toContain('SUMMARY:Bowling');
  });

  it('is absent until an idea and a slot are both locked', async () => {
    openPlan(planJson({ lockedIdeaId: 'i1', status: 'time_range_locked', lockedTimeSlotDate: '2026-03-14' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Invite' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Add to Calendar' })).not.toBeInTheDocument();
  });
});

describe("the card variant of 'Add to Calendar'", () => {
  it('is a filled teal 9 button, AA contrast on the teal confirmed cards', () => {
    renderWithProviders(<AddToCalendarMenu plan={completed} variant="button" />);
    expect(screen.getByRole('button', { name: 'Add to Calendar' })).toHaveStyle({ '--button-bg': 'var(--mantine-color-teal-9)' });
  });
});

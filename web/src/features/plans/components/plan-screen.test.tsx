import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, noContent, text, type Routes } from '../../../test/mock-fetch';
import { setDeviceTimeZone } from '../../../test/device-zone';
import { renderWithProviders } from '../../../test/test-utils';
import { planKeys } from '../queries';
import { ada, ben, participantJson, planJson, planSummaryJson } from '../test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const names = ['Ada Lovelace', 'Ben', 'Cy Young', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal Guest'];
// Ada hosts (planJson's hostId).
const everyone = names.map((name, index) =>
  index === 0 ? { ...participantJson(name, index), userId: ada.id, role: 'host' as const } : participantJson(name, index, name === 'Hal Guest'),
);
/** The names of the open list, with their role badge and the viewer's buttons on each row. */
const listed = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => {
      const buttons = within(item).queryAllByRole('button').map((button) => button.textContent);
      const badge = item.querySelector('.mantine-Badge-root')?.textContent;
      return `${buttons.length > 0 ? `[${buttons.join(', ')}] ` : ''}${item.querySelector('p')!.textContent}${badge ? ` · ${badge}` : ''}`;
    });

function openPlan({ plan = planJson(), user = ada, routes = {} }: { plan?: Plan; user?: object; routes?: Routes } = {}) {
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json(everyone.slice(0, plan.participantCount)),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans': () => json([planSummaryJson({ ...plan })]),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1' }) };
}

/** A plan with its idea picked and its time set: 7:00 PM on Saturday, March 14, 2026. */
const timedPlan = (extra: Partial<Plan> = {}) =>
  planJson({
    status: 'completed',
    lockedIdeaId: 'i1',
    lockedTimeSlotId: 's1',
    lockedTimeSlotDate: '2026-03-14',
    eventTime: '7:00 PM',
    ...extra,
  });
const statusCard = async () => within(await screen.findByRole('region', { name: 'Plan Status' }));
const definition = (card: ReturnType<typeof within>, term: string) =>
  card.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;

describe('plan page', () => {
  it('shows the plan, an undecided status and the header links', async () => {
    openPlan();
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hangplan home' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('link', { name: 'Invite' })).toHaveAttribute('href', '/plan/p1/share');

    const card = await statusCard();
    expect(definition(card, "What we're doing")).toHaveTextContent('TBD · Still deciding');
    expect(definition(card, "When we're meeting")).toHaveTextContent('TBD');
    expect(card.queryByText("Where we're meeting")).not.toBeInTheDocument();
    expect(definition(card, "Who's coming")).toHaveTextContent('1 person joined');
  });

  it('shows the picked idea, the locked time and a linked location', async () => {
    const plan = timedPlan({ location: 'Ada’s place, map: https://maps.example.com/ada?z=1.', participantCount: 3 });
    openPlan({
      plan,
      routes: { 'GET /api/plans': () => json([planSummaryJson({ ...plan, lockedIdeaText: 'Board games' })]) },
    });
    const card = await statusCard();
    await waitFor(() => expect(definition(card, "What we're doing")).toHaveTextContent('Board games'));
    expect(definition(card, "When we're meeting")).toHaveTextContent('Saturday, March 14, 2026 at 7:00 PM');
    const where = definition(card, "Where we're meeting");
    expect(where).toHaveTextContent('Ada’s place, map: https://maps.example.com/ada?z=1.');
    const map = within(where).getByRole('link', { name: 'https://maps.example.com/ada?z=1' });
    expect(map).toHaveAttribute('href', 'https://maps.example.com/ada?z=1');
    expect(map).toHaveAttribute('target', '_blank');
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
    expect(definition(card, "Who's coming")).toHaveTextContent('3 people joined');
  });

  it("says a member's own time under the host's when their phone is in another zone", async () => {
    setDeviceTimeZone('Asia/Tokyo');
    const plan = timedPlan({ timeZone: 'America/Chicago' });
    openPlan({ plan, routes: { 'GET /api/plans': () => json([planSummaryJson(plan)]) } });
    const when = definition(await statusCard(), "When we're meeting");
    // Chicago is on summer time (UTC-5) on March 14: 7 PM there is 9 AM the next day in Tokyo.
    expect(when).toHaveTextContent('Saturday, March 14, 2026 at 7:00 PM');
    expect(when).toHaveTextContent('7:00 PM Chicago time is 9:00 AM on Sun, Mar 15 where you are.');
  });

  it("stacks 6 avatars then '+N more', and lists everyone with guests marked on tap", async () => {
    const { user } = openPlan({ plan: planJson({ participantCount: 8 }) });
    const stack = await screen.findByRole('button', { name: 'See everyone coming (8)' });
    expect(within(stack).getByText('AL')).toBeInTheDocument();
    expect(within(stack).getByText('CY')).toBeInTheDocument();
    expect(within(stack).getByText('FA')).toBeInTheDocument();
    expect(within(stack).queryByText('GU')).not.toBeInTheDocument();
    expect(within(stack).getByText('+2 more')).toBeInTheDocument();
    expect(stack).toHaveAttribute('aria-expanded', 'false');

    await user.click(stack);
    expect(stack).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: 'Everyone coming' });
    // Ada, the host, sees a Remove on everyone but herself, and Make co-host on the members.
    expect(listed(list)).toEqual([
      'Ada Lovelace · Host', '[Make co-host, Remove] Ben', '[Make co-host, Remove] Cy Young', '[Make co-host, Remove] Dee',
      '[Make co-host, Remove] Eve', '[Make co-host, Remove] Fay', '[Make co-host, Remove] Gus', '[Remove] Hal Guest (Guest)',
    ]);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Everyone coming' })).not.toBeInTheDocument();

    // Keyboard: Enter opens it too; a click elsewhere closes it.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('list', { name: 'Everyone coming' })).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { level: 1 }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Everyone coming' })).not.toBeInTheDocument());
  });

  it('opens the list of everyone on mouse hover and closes it when the mouse leaves', async () => {
    const { user } = openPlan({ plan: planJson({ participantCount: 2 }) });
    const stack = await screen.findByRole('button', { name: 'See everyone coming (2)' });
    await user.hover(stack);
    expect(listed(screen.getByRole('list', { name: 'Everyone coming' }))).toEqual(['Ada Lovelace · Host', '[Make co-host, Remove] Ben']);
    await user.unhover(stack);
    expect(screen.queryByRole('list', { name: 'Everyone coming' })).not.toBeInTheDocument();
  });

  it('a member sees the list without Remove', async () => {
    const { user } = openPlan({ plan: planJson({ participantCount: 2 }), user: ben });
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (2)' }));
    expect(listed(screen.getByRole('list', { name: 'Everyone coming' }))).toEqual(['Ada Lovelace · Host', 'Ben']);
  });

  it('the host removes someone after confirming; Cancel changes nothing', async () => {
    const remaining = { current: everyone.slice(0, 3) };
    const { user, calls } = openPlan({
      plan: planJson({ participantCount: 3 }),
      routes: {
        'GET /api/plans/p1/participants': () => json(remaining.current),
        'DELETE /api/plans/p1/participants/pp1': () => {
          remaining.current = remaining.current.filter((p) => p.id !== 'pp1');
          return noContent();
        },
      },
    });
    const stack = await screen.findByRole('button', { name: 'See everyone coming (3)' });
    await user.click(stack);
    await user.click(screen.getByRole('button', { name: 'Remove Ben' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Ben?' });
    expect(dialog).toHaveTextContent(
      'Their ideas, comments and votes will be removed from the plan too. They cannot join again unless you allow them back.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', '/api/plans/p1/participants/pp1')).toHaveLength(0);

    await user.click(stack);
    await user.click(screen.getByRole('button', { name: 'Remove Ben' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove Ben?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ben is no longer in this plan')).toBeInTheDocument();
    expect(calls('DELETE', '/api/plans/p1/participants/pp1')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'See everyone coming (2)' })).toBeInTheDocument());
  });

  it('the host sees who was removed in the list, and allows someone back', async () => {
    const removals = {
      current: [
        { id: 'r2', name: 'Sam Spam', isGuest: true, removedAt: '2026-03-14T19:05:00.000Z' },
        { id: 'r1', name: 'Cy Young', isGuest: false, removedAt: '2026-03-14T18:00:00.000Z' },
      ],
    };
    const { user, calls } = openPlan({
      plan: planJson({ participantCount: 2 }),
      routes: {
        'GET /api/plans/p1/removals': () => json(removals.current),
        'DELETE /api/plans/p1/removals/r1': () => {
          removals.current = removals.current.filter((r) => r.id !== 'r1');
          return noContent();
        },
      },
    });
    // Asked for only when the host opens the list.
    const stack = await screen.findByRole('button', { name: 'See everyone coming (2)' });
    expect(calls('GET', '/api/plans/p1/removals')).toHaveLength(0);
    await user.click(stack);
    const removed = await screen.findByRole('list', { name: 'Removed' });
    expect(within(removed).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Sam Spam (Guest)Allow back', 'Cy YoungAllow back']);

    await user.click(within(removed).getByRole('button', { name: 'Allow Cy Young back' }));
    expect(await screen.findByText('Cy Young can join this plan again')).toBeInTheDocument();
    expect(calls('DELETE', '/api/plans/p1/removals/r1')).toHaveLength(1);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Removed' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        'Sam Spam (Guest)Allow back',
      ]),
    );
  });

  it("a member's list asks for no removals", async () => {
    const { user, calls } = openPlan({ plan: planJson({ participantCount: 2 }), user: ben });
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (2)' }));
    expect(screen.getByRole('list', { name: 'Everyone coming' })).toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/removals')).toHaveLength(0);
  });

  it('shows the Ideas tab first and switches to Availability', async () => {
    const { user, location } = openPlan();
    expect(await screen.findByRole('tab', { name: 'Ideas', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Add New Idea' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Availability' }));
    expect(await screen.findByRole('heading', { name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Add New Idea' })).not.toBeInTheDocument();
    expect(location()).toBe('/plan/p1?tab=availability');
  });

  it('hides the invite controls and Delete Plan from a member of a closed plan', async () => {
    openPlan({ plan: planJson({ isOpenInvite: false }), user: ben });
    expect(await screen.findByRole('button', { name: 'Leave Plan' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add More People' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Plan' })).not.toBeInTheDocument();
  });

  it('lets a member of an open plan invite, but not delete', async () => {
    openPlan({ user: ben });
    expect(await screen.findByRole('link', { name: 'Add More People' })).toHaveAttribute('href', '/plan/p1/share');
    expect(screen.getByRole('link', { name: 'Invite' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Plan' })).not.toBeInTheDocument();
  });

  it('leaves after confirming, goes home and forgets the plan and its imported calendar', async () => {
    const left = deferred();
    localStorage.setItem('calendarImport:p1', '{"fileName":"work.ics"}');
    localStorage.setItem('calendarImport:p2', '{"fileName":"home.ics"}');
    let plans = [planSummaryJson()];
    const { user, location, calls, queryClient } = openPlan({
      user: ben,
      routes: {
        'DELETE /api/plans/p1/leave': () => left.promise,
        'GET /api/plans': () => json(plans),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Leave Plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this plan?' });
    expect(dialog).toHaveTextContent(
      "If you're the last participant, the plan will be deleted. Otherwise, you'll be removed from the participant list.",
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Leave Plan' }));
    expect(within(dialog).getByRole('button', { name: 'Leaving...' })).toBeDisabled();
    expect(calls('DELETE', '/api/plans/p1/leave')).toHaveLength(1);

    plans = [];
    left.resolve(json({ planDeleted: false }));
    await waitFor(() => expect(location()).toBe('/home'));
    expect(await screen.findByText('You left the plan')).toBeInTheDocument();
    expect(screen.getByText("You've been removed from the participant list")).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
    expect(queryClient.getQueryData(planKeys.detail('p1'))).toBeUndefined();
    expect(calls('GET', '/api/plans/p1')).toHaveLength(1);
    expect(localStorage.getItem('calendarImport:p1')).toBeNull();
    expect(localStorage.getItem('calendarImport:p2')).not.toBeNull();
  });

  it('says the plan was deleted when the last participant leaves', async () => {
    const { user, location } = openPlan({ routes: { 'DELETE /api/plans/p1/leave': () => json({ planDeleted: true }) } });
    await user.click(await screen.findByRole('button', { name: 'Leave Plan' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave Plan' }));
    expect(await screen.findByText('You were the last participant, so the plan was deleted')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/home'));
  });

  it("keeps the host on the page with the server's sentence when leaving is refused (409)", async () => {
    const sentence = 'Delete the plan instead: no one else with an account can host it';
    const { user, location } = openPlan({ routes: { 'DELETE /api/plans/p1/leave': () => text(sentence, 409) } });
    await user.click(await screen.findByRole('button', { name: 'Leave Plan' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave Plan' }));
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location()).toBe('/plan/p1');
  });

  it('falls back to "Failed to leave plan"', async () => {
    const { user } = openPlan({ routes: { 'DELETE /api/plans/p1/leave': () => new Response('', { status: 502 }) } });
    await user.click(await screen.findByRole('button', { name: 'Leave Plan' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave Plan' }));
    expect(await screen.findByText('Failed to leave plan')).toBeInTheDocument();
  });

  it('deletes after "Yes", and "No" changes nothing', async () => {
    const { user, location, calls } = openPlan({ routes: { 'DELETE /api/plans/p1': noContent } });
    await user.click(await screen.findByRole('button', { name: 'Delete Plan' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Plan' });
    expect(dialog).toHaveTextContent('Deleting this plan is permanent. Are you sure?');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('DELETE', '/api/plans/p1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Plan' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Plan' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(location()).toBe('/home'));
    expect(calls('DELETE', '/api/plans/p1')).toHaveLength(1);
    expect(await screen.findByText('Plan deleted')).toBeInTheDocument();
  });

  it("shows the server's sentence, else 'Failed to delete plan'", async () => {
    let answer = text('Only the host can delete this plan', 403);
    const { user } = openPlan({ routes: { 'DELETE /api/plans/p1': () => answer } });
    await user.click(await screen.findByRole('button', { name: 'Delete Plan' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Only the host can delete this plan')).toBeInTheDocument();

    answer = new Response('', { status: 500 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Delete Plan' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Failed to delete plan')).toBeInTheDocument();
  });

  it('shows the not-found screen for a missing plan', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans/p1': () => text('Plan not found', 404) });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/plan/p1' });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Invite' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go Home' }));
    await waitFor(() => expect(location()).toBe('/home'));
  });

  it('offers a retry when the plan cannot be loaded', async () => {
    let answer = text('Something went wrong', 500);
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/p1': () => answer,
      'GET /api/plans/p1/participants': () => json([]),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/plan/p1' });
    expect(await screen.findByText("Couldn't load this plan")).toBeInTheDocument();
    answer = json(planJson());
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();
  });
});

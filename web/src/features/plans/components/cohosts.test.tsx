// Co-hosts on the plan page (docs/decisions/0098-cohosts.md,
// 0099-what-stays-the-hosts.md): the host makes a member a co-host and takes
// it back from the people list; a co-host gets the host's controls (Remove on
// ordinary people, the Set Event Time panel) but not Delete Plan or choosing
// co-hosts; the guest dashboard's people tab shows the roles.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, participantJson, planJson, planSummaryJson } from '../test-fixtures';
import type { Participant, Plan } from '../../../../../supabase/functions/_shared/contract/plans';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const hostRow: Participant = { ...participantJson('Ada Lovelace', 0), userId: ada.id, role: 'host' };
const benRow = (role: Participant['role'] = null): Participant => ({ ...participantJson('Ben', 1), userId: ben.id, role });
const cyRow: Participant = participantJson('Cy Young', 2);
const halRow: Participant = participantJson('Hal', 3, true);

function openPlan(people: { current: Participant[] }, { plan = planJson({ participantCount: 4 }), user = ada, routes = {} }: { plan?: Plan; user?: object; routes?: Routes } = {}) {
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json(people.current),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/removals': () => json([]),
    'GET /api/plans': () => json([planSummaryJson({ ...plan })]),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1' }) };
}

/** Each row of the open people list: its name, role badge and buttons. */
const rows = () =>
  within(screen.getByRole('list', { name: 'Everyone coming' }))
    .getAllByRole('listitem')
    .map((item) => ({
      name: item.querySelector('p')!.textContent,
      badge: item.querySelector('.mantine-Badge-root')?.textContent ?? null,
      buttons: within(item).queryAllByRole('button').map((button) => button.textContent),
    }));

describe('co-hosts on the plan page', () => {
  it('the host makes a member a co-host and takes it back from the people list', async () => {
    const people = { current: [hostRow, benRow(), cyRow, halRow] };
    const { user, calls } = openPlan(people, {
      routes: {
        'POST /api/plans/p1/cohosts': () => json((people.current = [hostRow, benRow('cohost'), cyRow, halRow])[1]),
        'DELETE /api/plans/p1/cohosts/pp1': () => json((people.current = [hostRow, benRow(), cyRow, halRow])[1]),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (4)' }));
    // A guest gets no Make co-host: a guest cannot be one.
    expect(rows()).toEqual([
      { name: 'Ada Lovelace', badge: 'Host', buttons: [] },
      { name: 'Ben', badge: null, buttons: ['Make co-host', 'Remove'] },
      { name: 'Cy Young', badge: null, buttons: ['Make co-host', 'Remove'] },
      { name: 'Hal (Guest)', badge: null, buttons: ['Remove'] },
    ]);

    await user.click(screen.getByRole('button', { name: 'Make Ben a co-host' }));
    expect(await screen.findByText('Ben can now run the plan with you')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/cohosts').map((call) => call.body)).toEqual([{ participantId: 'pp1' }]);
    await waitFor(() => expect(rows()[1]).toEqual({ name: 'Ben', badge: 'Co-host', buttons: ['Remove co-host', 'Remove'] }));

    await user.click(screen.getByRole('button', { name: 'Remove Ben as co-host' }));
    expect(await screen.findByText('Ben is no longer a co-host')).toBeInTheDocument();
    expect(calls('DELETE', '/api/plans/p1/cohosts/pp1')).toHaveLength(1);
    await waitFor(() => expect(rows()[1]).toEqual({ name: 'Ben', badge: null, buttons: ['Make co-host', 'Remove'] }));
  });

  it("a refusal is the server's sentence, and the list stays as it was", async () => {
    const people = { current: [hostRow, benRow(), cyRow, halRow] };
    const { user } = openPlan(people, {
      routes: { 'POST /api/plans/p1/cohosts': () => text("A guest can't be a co-host; ask them to sign in first.", 409) },
    });
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (4)' }));
    await user.click(screen.getByRole('button', { name: 'Make Ben a co-host' }));
    expect(await screen.findByText("A guest can't be a co-host; ask them to sign in first.")).toBeInTheDocument();
    expect(rows()[1].badge).toBeNull();
  });

  it("a co-host gets the host's controls: Remove on ordinary people, Set Event Time; not Delete Plan or choosing co-hosts", async () => {
    const dee: Participant = { ...participantJson('Dee', 4), role: 'cohost' };
    const people = { current: [hostRow, benRow('cohost'), cyRow, halRow, dee] };
    const plan = planJson({ participantCount: 5, status: 'time_range_locked', lockedTimeSlotDate: '2026-03-14' });
    const { user } = openPlan(people, { plan, user: ben });
    expect(await screen.findByRole('heading', { name: 'Set Event Time' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Leave Plan' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Plan' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'See everyone coming (5)' }));
    await waitFor(() =>
      expect(rows()).toEqual([
        { name: 'Ada Lovelace', badge: 'Host', buttons: [] },
        { name: 'Ben', badge: 'Co-host', buttons: [] },
        { name: 'Cy Young', badge: null, buttons: ['Remove'] },
        { name: 'Hal (Guest)', badge: null, buttons: ['Remove'] },
        { name: 'Dee', badge: 'Co-host', buttons: [] },
      ]),
    );
  });

  it('a member who is not a co-host gets none of it', async () => {
    const people = { current: [hostRow, benRow(), cyRow] };
    const plan = planJson({ participantCount: 3, status: 'time_range_locked', lockedTimeSlotDate: '2026-03-14' });
    const { user } = openPlan(people, { plan, user: ben });
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (3)' }));
    expect(rows().flatMap((row) => row.buttons)).toEqual([]);
    expect(screen.queryByRole('heading', { name: 'Set Event Time' })).not.toBeInTheDocument();
  });
});

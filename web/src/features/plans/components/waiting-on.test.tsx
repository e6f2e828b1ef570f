import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, participantJson, planJson, planSummaryJson } from '../test-fixtures';
import type { Participant, Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import type { RsvpPerson, Rsvps } from '../../../../../supabase/functions/_shared/contract/rsvps';

// Only Date is fixed (timers run): "now" is Thu, Nov 26, 2026, 12:00 PM local.
const NOW = new Date(2026, 10, 26, 12, 0);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  localStorage.setItem('authToken', 'test-token');
});
afterEach(() => vi.useRealTimers());

const at = (hours: number, minutes = 0) => new Date(2026, 10, 26, hours, minutes).toISOString();
const responded = (participant: Participant, hasResponded: boolean): Participant => ({ ...participant, hasResponded });

// Ada hosts and has not voted herself: she is never on her own list.
const people = [
  responded({ ...participantJson('Ada Lovelace', 0), userId: ada.id }, false),
  responded(participantJson('Ben', 1), true),
  responded(participantJson('Cy Young', 2), false),
  responded(participantJson('Dee', 3, true), true),
  responded(participantJson('Hal', 4, true), false),
];

function openPlan({ plan = planJson({ participantCount: 5 }), user = ada, participants = people, routes = {} }: {
  plan?: Plan;
  user?: object;
  participants?: Participant[];
  routes?: Routes;
} = {}) {
  let current = plan;
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(current),
    'GET /api/plans/p1/participants': () => json(participants),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/ideas': () => json([]),
    'GET /api/plans': () => json([planSummaryJson({ ...plan })]),
    ...routes,
  });
  const setPlan = (next: Plan) => (current = next);
  return { ...network, setPlan, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1' }) };
}

const waitingOn = async () => within(await screen.findByRole('region', { name: 'Waiting on' }));
const listedNames = (card: ReturnType<typeof within>) =>
  card.getAllByRole('listitem').map((item: HTMLElement) => item.textContent);

describe('Waiting on (the host, while no date is locked)', () => {
  it('lists exactly who has not voted, guests marked, never the host', async () => {
    openPlan();
    const card = await waitingOn();
    expect(await card.findByRole('list', { name: 'Waiting on' })).toBeInTheDocument();
    expect(listedNames(card)).toEqual(['Cy Young', 'Hal (Guest)']);
    expect(card.getByText('They have not voted on any idea or date yet.')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Remind them' })).toBeEnabled();
  });

  it("names apart who said none of the dates work: answered, so not waited on", async () => {
    const noDates = people.map((person) => (person.name === 'Cy Young' || person.name === 'Dee' ? { ...person, hasResponded: true, noDates: true } : person));
    openPlan({ participants: noDates });
    const card = await waitingOn();
    const cannot = await card.findByRole('list', { name: "2 can't make any of these" });
    expect(within(cannot).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Cy Young', 'Dee (Guest)']);
    expect(within(card.getByRole('list', { name: 'Waiting on' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Hal (Guest)']);
  });

  it('never lists a co-host either: the co-host who opens it is the one reminding', async () => {
    // Ben co-hosts and has not voted; he sees the card as the host does.
    const withCohost = people.map((person) =>
      person.name === 'Ben' ? { ...person, userId: ben.id, role: 'cohost' as const, hasResponded: false } : person,
    );
    openPlan({ user: ben, participants: withCohost });
    const card = await waitingOn();
    expect(await card.findByRole('list', { name: 'Waiting on' })).toBeInTheDocument();
    expect(listedNames(card)).toEqual(['Cy Young', 'Hal (Guest)']);
    expect(card.getByRole('button', { name: 'Remind them' })).toBeEnabled();
  });

  it('says when everyone has voted, with no Remind them', async () => {
    openPlan({ participants: people.map((person) => responded(person, person.userId === ada.id ? false : true)) });
    const card = await waitingOn();
    expect(await card.findByText('Everyone has voted.')).toBeInTheDocument();
    expect(card.queryByRole('list')).not.toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Remind them' })).not.toBeInTheDocument();
  });

  it('says so when no one else has joined', async () => {
    openPlan({ plan: planJson(), participants: [people[0]!] });
    const card = await waitingOn();
    expect(await card.findByText('No one else has joined yet.')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Remind them' })).not.toBeInTheDocument();
  });

  it('Remind them posts, toasts how many were reached, and shows when while it waits 12 hours', async () => {
    const { user, calls, setPlan } = openPlan({
      routes: {
        'POST /api/plans/p1/remind': () => {
          setPlan(planJson({ participantCount: 5, remindedAt: at(12) }));
          return json({ reminded: 2 });
        },
      },
    });
    const card = await waitingOn();
    await user.click(await card.findByRole('button', { name: 'Remind them' }));

    expect(await screen.findByText('Reminder sent to 2 people')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/remind')).toHaveLength(1);
    expect(calls('POST', '/api/plans/p1/remind')[0]!.body).toBeUndefined();
    const button = card.getByRole('button', { name: 'Remind them' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription('Reminded at 12:00 PM. You can remind them again tomorrow at 12:00 AM.');
    // The plan was read again for its remindedAt.
    await waitFor(() => expect(calls('GET', '/api/plans/p1').length).toBeGreaterThan(1));
  });

  it('says "1 person" for one', async () => {
    const { user } = openPlan({ routes: { 'POST /api/plans/p1/remind': () => json({ reminded: 1 }) } });
    await user.click(await (await waitingOn()).findByRole('button', { name: 'Remind them' }));
    expect(await screen.findByText('Reminder sent to 1 person')).toBeInTheDocument();
  });

  it('says so when the reminder reached no one, and Remind them stays', async () => {
    const { user } = openPlan({ routes: { 'POST /api/plans/p1/remind': () => json({ reminded: 0 }) } });
    const card = await waitingOn();
    await user.click(await card.findByRole('button', { name: 'Remind them' }));
    expect(await screen.findByText('No one could be reached')).toBeInTheDocument();
    expect(screen.queryByText(/Reminder sent/)).not.toBeInTheDocument();
    await waitFor(() => expect(card.getByRole('button', { name: 'Remind them' })).toBeEnabled());
    expect(card.queryByText(/Reminded at/)).not.toBeInTheDocument();
  });

  it("shows the server's sentence when it was too soon (429)", async () => {
    const sentence = 'Everyone who has not answered was reminded less than 12 hours ago, please try again in 3 hours';
    const { user, calls } = openPlan({ routes: { 'POST /api/plans/p1/remind': () => text(sentence, 429) } });
    await user.click(await (await waitingOn()).findByRole('button', { name: 'Remind them' }));
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/remind')).toHaveLength(1);
  });

  it('is disabled, saying when, within 12 hours of the last reminder; enabled again after', async () => {
    const { unmount } = openPlan({ plan: planJson({ participantCount: 5, remindedAt: at(7, 42) }) });
    const button = await (await waitingOn()).findByRole('button', { name: 'Remind them' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Reminded at 7:42 AM. You can remind them again at 7:42 PM.');
    expect(screen.getByText('Reminded at 7:42 AM. You can remind them again at 7:42 PM.')).toBeVisible();
    unmount();

    openPlan({ plan: planJson({ participantCount: 5, remindedAt: new Date(2026, 10, 25, 23, 59).toISOString() }) });
    const again = await (await waitingOn()).findByRole('button', { name: 'Remind them' });
    expect(again).toBeEnabled();
    expect(screen.queryByText(/Reminded/)).not.toBeInTheDocument();
  });

  it('is not shown to members', async () => {
    openPlan({ plan: planJson({ participantCount: 5 }), user: ben });
    expect(await screen.findByRole('region', { name: "Who's coming" })).toBeInTheDocument();
    await screen.findByRole('button', { name: 'See everyone coming (5)' });
    expect(screen.queryByRole('region', { name: 'Waiting on' })).not.toBeInTheDocument();
  });
});

describe('Waiting on (the host, once a date is locked): who has not said whether they are coming', () => {
  const locked = planJson({ participantCount: 5, status: 'time_range_locked', lockedTimeSlotDate: '2026-12-04' });
  const person = (participantId: string, name: string, answer: RsvpPerson['answer'], extra: Partial<RsvpPerson> = {}): RsvpPerson => ({
    participantId,
    name,
    isGuest: false,
    role: null,
    answer,
    plusOnes: 0,
    position: null,
    setByHost: false,
    ...extra,
  });
  // Ada hosts and has not answered herself: she is never on her own list. Ben and Dee answered.
  const rsvps = (people: RsvpPerson[]): Rsvps => ({
    going: 1,
    maybe: 1,
    no: 0,
    waitlist: 0,
    unanswered: people.filter((p) => p.answer === null).length,
    headcount: 1,
    capacity: null,
    maxPlusOnes: 2,
    askAgain: false,
    mine: null,
    people,
  });
  const answers = rsvps([
    person('pp1', 'Ben', 'going'),
    person('pp3', 'Dee', 'maybe', { isGuest: true }),
    person('pp0', 'Ada Lovelace', null, { role: 'host' }),
    person('pp2', 'Cy Young', null),
    person('pp4', 'Hal', null, { isGuest: true }),
  ]);

  it('lists who has not answered, and Remind them asks them whether they are coming', async () => {
    const { user, calls } = openPlan({
      plan: locked,
      routes: {
        'GET /api/plans/p1/rsvps': () => json(answers),
        'POST /api/plans/p1/remind': () => json({ reminded: 2 }),
      },
    });
    const card = await waitingOn();
    expect(await card.findByText("They have not said whether they're coming yet.")).toBeInTheDocument();
    expect(listedNames(card)).toEqual(['Cy Young', 'Hal (Guest)']);
    await user.click(card.getByRole('button', { name: 'Remind them' }));
    expect(await screen.findByText('Reminder sent to 2 people')).toBeInTheDocument();
    expect(screen.getByText("They will be asked whether they're coming.")).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/remind')).toHaveLength(1);
  });

  it('never lists a co-host who has not answered', async () => {
    const withCohost = rsvps(answers.people.map((p) => (p.name === 'Cy Young' ? { ...p, role: 'cohost' as const } : p)));
    openPlan({ plan: locked, routes: { 'GET /api/plans/p1/rsvps': () => json(withCohost) } });
    const card = await waitingOn();
    expect(await card.findByText("They have not said whether they're coming yet.")).toBeInTheDocument();
    expect(listedNames(card)).toEqual(['Hal (Guest)']);
  });

  it('says when everyone has answered, with no Remind them; nothing on a cancelled plan', async () => {
    const all = rsvps(answers.people.map((p) => (p.role === 'host' || p.answer ? p : { ...p, answer: 'no' as const })));
    const { unmount } = openPlan({ plan: locked, routes: { 'GET /api/plans/p1/rsvps': () => json(all) } });
    const card = await waitingOn();
    expect(await card.findByText('Everyone has answered.')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Remind them' })).not.toBeInTheDocument();
    unmount();

    openPlan({
      plan: { ...locked, status: 'cancelled', cancelledAt: at(9) },
      routes: { 'GET /api/plans/p1/rsvps': () => json(answers) },
    });
    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Waiting on' })).not.toBeInTheDocument();
  });
});

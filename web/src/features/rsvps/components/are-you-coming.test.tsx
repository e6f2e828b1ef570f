import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../../supabase/functions/_shared/contract/idempotency';
import type { RsvpPerson, Rsvps } from '../../../../../supabase/functions/_shared/contract/rsvps';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { resetOfflineActions } from '../../../lib/offline-actions';
import { json, meRoute, mockFetch, text, type RecordedRequest, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, participantJson, planJson } from '../../plans/test-fixtures';

// "Are you coming?" on the plan page (a member) and the guest's dashboard,
// against a small stand-in of the answers routes (docs/api-after-the-date.md "Who's coming").
// The whole app renders (its routes, lazy screens and live updates): on this
// shared 2-core machine a test can take several seconds, hence the timeouts.

/** A plan whose idea, date and time are set: answers are open. */
const setPlan = (extra: Partial<Plan> = {}) =>
  planJson({
    status: 'completed',
    lockedIdeaId: 'i1',
    lockedIdeaText: 'Ramen at Kenji',
    lockedTimeSlotId: 's1',
    lockedTimeSlotDate: '2026-03-14',
    eventTime: '7:00 PM',
    location: 'Kenji, 5th Ave',
    participantCount: 3,
    answers: { going: 0, maybe: 0, headcount: 0 },
    ...extra,
  });

const person = (participantId: string, name: string, extra: Partial<RsvpPerson> = {}): RsvpPerson => ({
  participantId,
  name,
  isGuest: false,
  role: null,
  answer: null,
  plusOnes: 0,
  position: null,
  setByHost: false,
  ...extra,
});

const rsvpsJson = (extra: Partial<Rsvps> = {}): Rsvps => ({
  going: 0,
  maybe: 0,
  no: 0,
  waitlist: 0,
  unanswered: 3,
  headcount: 0,
  capacity: null,
  maxPlusOnes: 2,
  askAgain: false,
  mine: null,
  people: [person('pp0', 'Ada Lovelace'), person('pp1', 'Sam', { isGuest: true }), person('pp2', 'Ben')],
  ...extra,
});

/**
 * The answers routes: the caller's answer is kept (`going` past the spots
 * comes back waitlist #`waitlistAt`), GET answers it as `mine`.
 */
function answersServer(initial: Partial<Rsvps> = {}, { waitlistAt = null as number | null } = {}) {
  let rsvps = rsvpsJson(initial);
  const state = { down: false };
  const put = (request: RecordedRequest) => {
    if (state.down) throw new TypeError('Failed to fetch');
    const { answer, plusOnes = 0 } = request.body as { answer: 'going' | 'maybe' | 'no'; plusOnes?: number };
    const result =
      answer === 'going' && waitlistAt !== null
        ? { answer: 'waitlist' as const, plusOnes, position: waitlistAt }
        : { answer, plusOnes: answer === 'going' ? plusOnes : 0, position: null };
    rsvps = { ...rsvps, askAgain: false, mine: { ...result, setByHost: false } };
    return json(result);
  };
  const spots = (request: RecordedRequest) => {
    rsvps = { ...rsvps, ...(request.body as Pick<Rsvps, 'capacity' | 'maxPlusOnes'>) };
    return json(rsvps);
  };
  return {
    state,
    read: () => rsvps,
    routes: {
      'GET /api/plans/p1/rsvps': () => json(rsvps),
      'PUT /api/plans/p1/rsvp': put,
      'POST /api/plans/p1/capacity': spots,
    } satisfies Routes,
  };
}

const everyone = [{ ...participantJson('Ada Lovelace', 0), userId: ada.id }, participantJson('Sam', 1, true), participantJson('Ben', 2)];

function openPlanPage({ plan = setPlan(), routes = {} }: { plan?: Plan; routes?: Routes } = {}) {
  localStorage.setItem('authToken', 'test-token');
  const network = mockFetch({
    'GET /api/auth/me': meRoute(ada),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json(everyone),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/ideas': () => json([]),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1' }) };
}

const sam = { id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' };

function openDashboard({ plan = setPlan(), routes = {} }: { plan?: Plan; routes?: Routes } = {}) {
  setGuestSession(sam);
  const network = mockFetch({
    'GET /api/auth/me': () => text('Not signed in', 401),
    'GET /api/plans/slug/abcDEF12': () => json(plan),
    'GET /api/plans/p1/ideas': () => json([]),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/participants': () => json(everyone),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/dashboard' }) };
}

const card = async (name: string | RegExp = 'Are you coming?') => within(await screen.findByRole('region', { name }));

beforeEach(() => {
  clearGuest();
  resetOfflineActions();
});
afterEach(() => vi.restoreAllMocks());

describe('Are you coming? on the plan page', { timeout: 20_000 }, () => {
  it('comes first once the date is set; Going answers at once with its key, then the friends stepper answers again', async () => {
    const server = answersServer();
    const { user, calls } = openPlanPage({ routes: server.routes });
    const question = await card();
    // First: before the Plan Status card.
    const regions = screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby'));
    expect(regions.indexOf('are-you-coming-title')).toBeLessThan(regions.indexOf('plan-status-title'));

    const answer = question.getByRole('group', { name: 'Your answer' });
    expect(within(answer).getAllByRole('button').map((button) => button.textContent)).toEqual(['Going', 'Maybe', "Can't go"]);
    await user.click(within(answer).getByRole('button', { name: 'Going' }));
    expect(await question.findByText("You're going")).toBeInTheDocument();
    expect(within(answer).getByRole('button', { name: 'Going' })).toHaveAttribute('aria-pressed', 'true');
    const [first] = calls('PUT', '/api/plans/p1/rsvp');
    expect(first!.body).toEqual({ answer: 'going', plusOnes: 0 });
    expect(first!.headers.get(IDEMPOTENCY_KEY_HEADER)).toMatch(/.{16,}/);

    const friends = question.getByRole('group', { name: 'Friends' });
    expect(question.getByText('Up to 2 friends')).toBeInTheDocument();
    expect(within(friends).getByText('Just you')).toBeInTheDocument();
    await user.click(within(friends).getByRole('button', { name: 'One more' }));
    expect(await question.findByText("You're going with 1 friend")).toBeInTheDocument();
    await user.click(within(friends).getByRole('button', { name: 'One more' }));
    expect(await question.findByText("You're going with 2 friends")).toBeInTheDocument();
    expect(within(friends).getByRole('button', { name: 'One more' })).toBeDisabled(); // the plan's max
    expect(calls('PUT', '/api/plans/p1/rsvp').map((call) => call.body)).toEqual([
      { answer: 'going', plusOnes: 0 },
      { answer: 'going', plusOnes: 1 },
      { answer: 'going', plusOnes: 2 },
    ]);

    await user.click(within(answer).getByRole('button', { name: "Can't go" }));
    expect(await question.findByText("You can't go")).toBeInTheDocument();
    expect(question.queryByRole('group', { name: 'Friends' })).not.toBeInTheDocument();
    expect(calls('PUT', '/api/plans/p1/rsvp').at(-1)!.body).toEqual({ answer: 'no' });
  });

  it('a full plan says Going waits, and a Going past the spots shows the waitlist position', async () => {
    const server = answersServer({ capacity: 4, headcount: 4, going: 4 }, { waitlistAt: 3 });
    const { user } = openPlanPage({ routes: server.routes });
    const question = await card();
    expect(question.getByText('Every spot is taken: Going puts you on the waitlist.')).toBeInTheDocument();
    await user.click(question.getByRole('button', { name: 'Going' }));
    expect(await question.findByText("You're on the waitlist: #3")).toBeInTheDocument();
    expect(question.queryByText('Every spot is taken: Going puts you on the waitlist.')).not.toBeInTheDocument();
  });

  it('says when the host set the answer, and asks again after a new date', async () => {
    const set = answersServer({ mine: { answer: 'maybe', plusOnes: 0, position: null, setByHost: true } });
    const first = openPlanPage({ routes: set.routes });
    const question = await card();
    expect(question.getByText('You said maybe')).toBeInTheDocument();
    expect(question.getByText('(set by the host)')).toBeInTheDocument();
    expect(question.getByRole('button', { name: 'Maybe' })).toHaveAttribute('aria-pressed', 'true');
    await first.user.click(question.getByRole('button', { name: 'Going' }));
    expect(await question.findByText("You're going")).toBeInTheDocument();
    expect(question.queryByText('(set by the host)')).not.toBeInTheDocument();
    first.unmount();

    const reset = answersServer({ askAgain: true, mine: { answer: null, plusOnes: 0, position: null, setByHost: false } });
    openPlanPage({ routes: reset.routes });
    const again = await card('New date: are you still coming?');
    for (const name of ['Going', 'Maybe', "Can't go"]) expect(again.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');
  });

  it('is not asked while the plan is still planning', async () => {
    const server = answersServer();
    const { calls } = openPlanPage({ plan: planJson({ participantCount: 3 }), routes: server.routes });
    expect(await screen.findByRole('region', { name: 'Plan Status' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Are you coming?' })).not.toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/rsvps')).toEqual([]);
  });

  it("the Plan Status card keeps 'N people joined' and adds the answers; Who's coming lists who is going first", async () => {
    const server = answersServer({
      going: 1,
      maybe: 1,
      headcount: 3,
      people: [
        person('pp2', 'Ben', { answer: 'going', plusOnes: 2 }),
        person('pp1', 'Sam', { isGuest: true, answer: 'maybe' }),
        person('pp0', 'Ada Lovelace'),
      ],
    });
    const { user } = openPlanPage({ plan: setPlan({ answers: { going: 1, maybe: 1, headcount: 3 } }), routes: server.routes });
    const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
    const who = status.getByText("Who's coming", { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(who).toHaveTextContent('3 people joined1 going, 1 maybe · 3 with friends');

    const stack = await screen.findByRole('button', { name: 'See everyone coming (3)' });
    await waitFor(() => expect(within(stack).getAllByText(/^[A-Z]{1,2}$/).map((avatar) => avatar.textContent)).toEqual(['BE', 'SA', 'AL']));
    await user.click(stack);
    const list = await screen.findByRole('list', { name: 'Everyone coming' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ben · Going +2AnswerMake co-hostRemove',
      'Sam (Guest) · MaybeAnswerRemove',
      'Ada Lovelace',
    ]);
  });
});

describe('live', { timeout: 20_000 }, () => {
  it("someone else's answer moves the counts and the list on every phone (the live part rsvps)", async () => {
    const server = answersServer();
    let plan = setPlan();
    const { live } = openPlanPage({ routes: { ...server.routes, 'GET /api/plans/p1': () => json(plan) } });
    const status = within(await screen.findByRole('region', { name: 'Plan Status' }));
    expect(await status.findByText('0 going')).toBeInTheDocument();
    await waitFor(() => expect(live.isOpen('p1')).toBe(true));

    // Ben answers Going with a friend on his phone.
    plan = setPlan({ answers: { going: 1, maybe: 0, headcount: 2 } });
    Object.assign(server.read(), { going: 1, headcount: 2, people: [person('pp2', 'Ben', { answer: 'going', plusOnes: 1 }), person('pp0', 'Ada Lovelace'), person('pp1', 'Sam', { isGuest: true })] });
    act(() => live.change({ planId: 'p1', version: 12, parts: ['rsvps'] }));
    expect(await status.findByText('1 going · 2 with friends')).toBeInTheDocument();
    const stack = screen.getByRole('button', { name: 'See everyone coming (3)' });
    await waitFor(() => expect(within(stack).getAllByText(/^[A-Z]{1,2}$/).map((avatar) => avatar.textContent)).toEqual(['BE', 'AL', 'SA']));
  });
});

describe("the host's own controls", { timeout: 20_000 }, () => {
  it('sets the spots and the friends each may bring', async () => {
    const server = answersServer({ going: 2, headcount: 3 });
    const { user, calls } = openPlanPage({ routes: server.routes });
    const question = await card();
    expect(question.getByText('No limit on spots · up to 2 friends each')).toBeInTheDocument();
    await user.click(question.getByRole('button', { name: 'Spots and friends' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Spots and friends' }));
    await user.click(dialog.getByRole('checkbox', { name: 'Limit the spots' }));
    const spots = dialog.getByRole('textbox', { name: /Spots/ });
    await user.clear(spots);
    await user.type(spots, '0');
    expect(dialog.getByText('Spots must be a whole number from 1 to 1000.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(spots);
    await user.type(spots, '2');
    expect(dialog.getByText('Everyone already going keeps their spot.')).toBeInTheDocument();
    await user.clear(spots);
    await user.type(spots, '12');
    await user.click(within(dialog.getByRole('group', { name: 'Friends each may bring' })).getByRole('button', { name: 'One fewer' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('POST', '/api/plans/p1/capacity').map((call) => call.body)).toEqual([{ capacity: 12, maxPlusOnes: 1 }]);
    expect(await question.findByText('3 of 12 spots taken · up to 1 friend each')).toBeInTheDocument();
  });

  it('answers for someone from the people list', async () => {
    const server = answersServer();
    const { user, calls } = openPlanPage({
      routes: {
        ...server.routes,
        'PUT /api/plans/p1/rsvps/pp2': () => json({ answer: 'going', plusOnes: 1, position: null }),
      },
    });
    await card();
    await user.click(await screen.findByRole('button', { name: 'See everyone coming (3)' }));
    const list = await screen.findByRole('list', { name: 'Everyone coming' });
    // Not for the host: the host answers on the card.
    expect(within(list).queryByRole('button', { name: 'Answer for Ada Lovelace' })).not.toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Answer for Ben' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Answer for Ben' }));
    expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(within(dialog.getByRole('group', { name: "Ben's answer" })).getByRole('button', { name: 'Going' }));
    await user.click(dialog.getByRole('button', { name: 'One more' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('PUT', '/api/plans/p1/rsvps/pp2').map((call) => call.body)).toEqual([{ answer: 'going', plusOnes: 1 }]);
  });

  it('a guest sees no host controls', async () => {
    const server = answersServer();
    openDashboard({ routes: server.routes });
    await card();
    expect(screen.queryByRole('button', { name: 'Spots and friends' })).not.toBeInTheDocument();
  });
});

describe("the guest's dashboard", { timeout: 20_000 }, () => {
  it('on a set plan asks first instead of the votes, and the guest answers by its id', async () => {
    const server = answersServer();
    const { user, calls } = openDashboard({ routes: server.routes });
    const question = await card();
    for (const gone of ['Vote Now', 'Pick Times', 'Vote on Ideas', 'Share Availability']) {
      expect(screen.queryByRole('button', { name: gone })).not.toBeInTheDocument();
    }
    expect(screen.queryByText('Not voted yet')).not.toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/rsvps')[0]).toBeDefined();
    await user.click(question.getByRole('button', { name: 'Maybe' }));
    expect(await question.findByText('You said maybe')).toBeInTheDocument();
    const [put] = calls('PUT', '/api/plans/p1/rsvp');
    expect(put!.body).toEqual({ answer: 'maybe', guestId: 'g1' });
    expect(put!.headers.get('X-Guest-Secret')).toBe('device-secret');
    expect(put!.headers.get('Authorization')).toBeNull();
  });

  it('while planning keeps the spec\'s prompts and asks nothing', async () => {
    const server = answersServer();
    const { calls } = openDashboard({ plan: planJson({ participantCount: 3 }), routes: server.routes });
    expect(await screen.findByRole('button', { name: 'Vote Now' })).toBeInTheDocument();
    expect(screen.getByText('Not voted yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Are you coming?' })).not.toBeInTheDocument();
    expect(calls('GET', '/api/plans/p1/rsvps')).toEqual([]);
  });

  it('a Going made offline on a full plan shows as waiting for a spot, not as going', async () => {
    const server = answersServer({ capacity: 2, headcount: 2, going: 2 }, { waitlistAt: 1 });
    const { user } = openDashboard({ routes: server.routes });
    const question = await card();
    server.state.down = true;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    await user.click(question.getByRole('button', { name: 'Going' }));
    expect(await question.findByText("You're on the waitlist")).toBeInTheDocument();
    expect(question.queryByText("You're going")).not.toBeInTheDocument();
    server.state.down = false;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(await question.findByText("You're on the waitlist: #1")).toBeInTheDocument();
  });

  it('an answer with no network shows at once, waiting, and is sent when the network is back', async () => {
    const server = answersServer();
    const { user, calls } = openDashboard({ routes: server.routes });
    const question = await card();
    server.state.down = true;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    await user.click(question.getByRole('button', { name: 'Going' }));
    expect(await question.findByText("You're going")).toBeInTheDocument();
    expect(question.getByRole('status', { name: 'Your answer is waiting for connection' })).toHaveTextContent('Waiting for connection');
    expect(server.read().mine).toBeNull();

    server.state.down = false;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(server.read().mine?.answer).toBe('going'));
    await waitFor(() => expect(question.queryByRole('status', { name: 'Your answer is waiting for connection' })).not.toBeInTheDocument());
    expect(question.getByText("You're going")).toBeInTheDocument();
    const sent = calls('PUT', '/api/plans/p1/rsvp').filter((call) => call.body !== undefined);
    expect(new Set(sent.map((call) => call.headers.get(IDEMPOTENCY_KEY_HEADER))).size).toBe(1);
  });
});

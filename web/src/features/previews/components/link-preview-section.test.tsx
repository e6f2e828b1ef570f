import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, planJson } from '../../plans/test-fixtures';
import {
  GENERIC_PREVIEW_ALT,
  GENERIC_PREVIEW_DESCRIPTION,
  GENERIC_PREVIEW_IMAGE,
  linkPreviewOf,
  type PreviewFacts,
} from '../../../../../supabase/functions/_shared/contract/previews';

// The share page's "Link preview" (docs/web-app.md "Link preview"), against
// the API's answers as the contract builds them.

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const facts: PreviewFacts = {
  title: 'Friday night',
  status: 'time_range_locked',
  hostName: 'Ada Lovelace',
  date: '2026-12-05',
  eventTime: '7:30 PM',
  period: null,
  location: 'Kenji Ramen',
  going: 5,
};
const previewPath = '/api/plans/slug/abcDEF12/preview';
const cardOf = (details: boolean, version = 'v7') => linkPreviewOf('abcDEF12', version, facts, details);
const detailed = cardOf(true);

/** The share page, with the API holding the setting (`server.details`) and answering as it would. */
type Server = { details: boolean; version: number };
function openShare({
  user = ada,
  details = true,
  setting,
}: { user?: object; details?: boolean; setting?: (server: Server) => Response | Promise<Response> } = {}) {
  const server: Server = { details, version: 7 };
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(planJson({ previewDetails: server.details })),
    [`GET ${previewPath}`]: () => json(cardOf(server.details, `v${server.version}`), 200),
    'POST /api/plans/p1/preview-details': (request) =>
      setting?.(server) ??
      (() => {
        server.details = (request.body as { previewDetails: boolean }).previewDetails;
        server.version += 1;
        return json(planJson({ previewDetails: server.details }));
      })(),
  });
  return { server, ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' }) };
}

const section = async () => (await screen.findByRole('heading', { name: 'Link preview' })).closest('section')!;
const detailsSwitch = () => screen.getByRole('switch', { name: 'Show details in link previews' });

describe('link preview on the share page', () => {
  it('shows the card as a chat will: the picture at its size, the title, where the plan stands and the site', async () => {
    openShare();
    const card = await section();
    const picture = await within(card).findByRole('img', { name: detailed.imageAlt });
    expect(picture).toHaveAttribute('src', '/api/plans/slug/abcDEF12/preview.png?v=v7');
    expect(picture).toHaveAttribute('width', '1200');
    expect(picture).toHaveAttribute('height', '630');
    expect(within(card).getByText('Friday night')).toBeInTheDocument();
    expect(within(card).getByText('Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going')).toBeInTheDocument();
    expect(within(card).getByText(window.location.host)).toBeInTheDocument();
    expect(detailsSwitch()).toBeChecked();
    expect(within(card).getByText('When off, the link shows only "Hangplan", not this plan\'s title, date or place.')).toBeInTheDocument();
  });

  it('shows the card but no switch to anyone but the host', async () => {
    openShare({ user: ben });
    const card = await section();
    expect(await within(card).findByRole('img', { name: detailed.imageAlt })).toBeInTheDocument();
    expect(within(card).queryByRole('switch')).not.toBeInTheDocument();
  });

  it("turns details off at once: the host's switch sends the setting and the card is the generic one", async () => {
    const answer = deferred();
    const { user, calls } = openShare({
      setting: (server) => {
        Object.assign(server, { details: false, version: 8 });
        return answer.promise;
      },
    });
    const card = await section();
    await within(card).findByRole('img', { name: detailed.imageAlt });

    await user.click(detailsSwitch());
    expect(calls('POST', '/api/plans/p1/preview-details').map((r) => r.body)).toEqual([{ previewDetails: false }]);
    // Before the answer: the generic card, the switch off (and still while it saves).
    expect(within(card).getByRole('img', { name: GENERIC_PREVIEW_ALT })).toHaveAttribute('src', GENERIC_PREVIEW_IMAGE);
    expect(within(card).getByText('Hangplan')).toBeInTheDocument();
    expect(within(card).getByText(GENERIC_PREVIEW_DESCRIPTION)).toBeInTheDocument();
    expect(within(card).queryByText('Friday night')).not.toBeInTheDocument();
    expect(detailsSwitch()).not.toBeChecked();
    expect(detailsSwitch()).toBeDisabled();

    answer.resolve(json(planJson({ previewDetails: false })));
    await waitFor(() => expect(detailsSwitch()).toBeEnabled());
    expect(detailsSwitch()).not.toBeChecked();
    expect(within(card).getByText('Hangplan')).toBeInTheDocument();
  });

  it('turns details on again: the card with details at once, then the server card of the new version', async () => {
    const { user, calls, server } = openShare({ details: false });
    const card = await section();
    expect(await within(card).findByRole('img', { name: GENERIC_PREVIEW_ALT })).toBeInTheDocument();
    expect(detailsSwitch()).not.toBeChecked();

    await user.click(detailsSwitch());
    expect(calls('POST', '/api/plans/p1/preview-details').map((r) => r.body)).toEqual([{ previewDetails: true }]);
    expect(await within(card).findByText('Friday night')).toBeInTheDocument();
    expect(detailsSwitch()).toBeChecked();
    expect(server.details).toBe(true);
    // The card is read again after the write: the picture of the new version.
    await waitFor(() => expect(within(card).getByRole('img', { name: detailed.imageAlt })).toHaveAttribute('src', '/api/plans/slug/abcDEF12/preview.png?v=v8'));

    // Off and on once more: the card with details comes back at once.
    await user.click(detailsSwitch());
    expect(await within(card).findByText('Hangplan')).toBeInTheDocument();
    await waitFor(() => expect(detailsSwitch()).toBeEnabled());
    await user.click(detailsSwitch());
    expect(within(card).getByText('Friday night')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/preview-details').map((r) => r.body)).toEqual([
      { previewDetails: true },
      { previewDetails: false },
      { previewDetails: true },
    ]);
  });

  it("puts the switch and the card back with the server's sentence when the setting is refused", async () => {
    // The card's read after the refusal is held: what shows is what was put back.
    const reread = deferred();
    let reads = 0;
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/p1': () => json(planJson()),
      [`GET ${previewPath}`]: () => (++reads === 1 ? json(detailed) : reread.promise),
      'POST /api/plans/p1/preview-details': () => text('Only the host can change link previews', 403),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' });
    const card = await section();
    await within(card).findByRole('img', { name: detailed.imageAlt });

    await user.click(detailsSwitch());
    expect(await screen.findByText('Only the host can change link previews')).toBeInTheDocument();
    expect(detailsSwitch()).toBeChecked();
    expect(within(card).getByRole('img', { name: detailed.imageAlt })).toBeInTheDocument();
    expect(within(card).getByText('Friday night')).toBeInTheDocument();
    expect(within(card).queryByText('Hangplan')).not.toBeInTheDocument();
    await waitFor(() => expect(reads).toBe(2));
    reread.resolve(json(detailed));
  });

  it("follows the plan's live changes: a change reads the card again", async () => {
    const { server, live, calls } = openShare({ user: ben });
    const card = await section();
    await within(card).findByRole('img', { name: detailed.imageAlt });
    await waitFor(() => expect(live.isOpen('p1')).toBe(true));
    act(() => live.send('p1', { type: 'ready', version: 7 }));
    const reads = calls('GET', previewPath).length;

    // The host turned details off on another device.
    server.details = false;
    server.version = 8;
    act(() => live.change({ planId: 'p1', version: 8, parts: ['plan'] }));
    expect(await within(card).findByText('Hangplan')).toBeInTheDocument();
    expect(calls('GET', previewPath).length).toBeGreaterThan(reads);
  });

  it('says so when the card cannot be read, and the rest of the page works', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans/p1': () => json(planJson()), [`GET ${previewPath}`]: () => text('Plan not found', 404) });
    renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' });
    const card = await section();
    expect(await within(card).findByText('The link preview is not available right now.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of the plan link' })).toBeInTheDocument();
  });
});

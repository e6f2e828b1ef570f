import { render, screen, waitFor, within } from '@testing-library/react';
import { QRCodeSVG } from 'qrcode.react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, planJson } from '../test-fixtures';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));
afterEach(() => {
  vi.restoreAllMocks();
  // jsdom has no navigator.share; some tests add one.
  delete (navigator as { share?: unknown }).share;
});

const link = `${window.location.origin}/l/abcDEF12`;
const body = "Click here to plan what you're doing and when. Looking forward to seeing you soon!";
const message = `Ada Lovelace wants to hang out!\n\n${body}\n${link}`;

function openShare(plan = planJson(), user: object = ada) {
  const network = mockFetch({ 'GET /api/auth/me': meRoute(user), 'GET /api/plans/p1': () => json(plan) });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' }) };
}

/** The modules of a QR code: equal paths mean the same encoded text. */
const qrModules = (svg: Element) => [...svg.querySelectorAll('path')].map((path) => path.getAttribute('d'));

describe('share plan', () => {
  it('shows the loading line, then the title and a QR code of the public link', async () => {
    openShare();
    expect(await screen.findByText('Loading plan...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday night' })).toBeInTheDocument();

    const qr = screen.getByRole('img', { name: 'QR code of the plan link' });
    expect(qr).toHaveAttribute('width', '200');
    const { container } = render(<QRCodeSVG value={link} size={200} marginSize={2} />);
    expect(qrModules(qr)).toEqual(qrModules(container.querySelector('svg')!));
    expect(qrModules(qr)).not.toEqual(qrModules(render(<QRCodeSVG value={`${link}x`} size={200} marginSize={2} />).container.querySelector('svg')!));

    expect(screen.getByRole('textbox', { name: 'Plan link' })).toHaveValue(link);
    expect(screen.getByRole('link', { name: 'View Plan Details' })).toHaveAttribute('href', '/plan/p1');
  });

  it('copies the link and says so', async () => {
    const { user } = openShare();
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    expect(screen.getByText('Share this link with your friends')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);
  });

  it('asks to copy by hand when the clipboard refuses', async () => {
    const { user } = openShare();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Failed to copy')).toBeInTheDocument();
    expect(screen.getByText('Please copy the link manually')).toBeInTheDocument();
  });

  it('says the link is not available when the plan has no slug yet', async () => {
    const { user } = openShare(planJson({ slug: '' }));
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Cannot copy link');
    expect(toast).toHaveTextContent('Plan link is not available yet');
    expect(screen.queryByRole('img', { name: 'QR code of the plan link' })).not.toBeInTheDocument();
  });

  it('prefills WhatsApp and SMS with the title, the body and the link', async () => {
    openShare();
    const whatsApp = await screen.findByRole('link', { name: 'WhatsApp' });
    expect(whatsApp).toHaveAttribute('href', `https://wa.me/?text=${encodeURIComponent(message)}`);
    expect(whatsApp).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'SMS' })).toHaveAttribute('href', `sms:?&body=${encodeURIComponent(message)}`);
  });

  it("says 'Someone' when the user has no name", async () => {
    openShare(planJson(), { id: 'u1', email: 'ada@example.com', firstName: null, lastName: null });
    const href = (await screen.findByRole('link', { name: 'WhatsApp' })).getAttribute('href')!;
    expect(new URL(href).searchParams.get('text')).toBe(`Someone wants to hang out!\n\n${body}\n${link}`);
  });

  it('opens the share sheet with title, text and url under More', async () => {
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const { user } = openShare();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    expect(share).toHaveBeenCalledWith({ title: 'Ada Lovelace wants to hang out!', text: body, url: link });
  });

  it('treats a cancelled share sheet as no error', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const { user } = openShare();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    await waitFor(() => expect(share).toHaveBeenCalled());
    expect(screen.queryByText('Failed to copy')).not.toBeInTheDocument();
    expect(screen.queryByText('Link copied!')).not.toBeInTheDocument();
  });

  it('copies the link under More when the device cannot share', async () => {
    const { user } = openShare();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);
  });

  it('tells a member that only the host invites when invitations are closed', async () => {
    openShare(planJson({ isOpenInvite: false }), ben);
    expect(await screen.findByText('Only the host can invite people to this plan')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'QR code of the plan link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'WhatsApp' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Plan Details' })).toHaveAttribute('href', '/plan/p1');
  });

  it('still lets the host share a plan with closed invitations', async () => {
    openShare(planJson({ isOpenInvite: false }), ada);
    expect(await screen.findByRole('img', { name: 'QR code of the plan link' })).toBeInTheDocument();
    expect(screen.queryByText('Only the host can invite people to this plan')).not.toBeInTheDocument();
  });

  it('lets the host reset the link after a confirm that says the old one stops working', async () => {
    const network = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/p1': () => json(planJson()),
      'POST /api/plans/p1/rotate-link': () => json(planJson({ slug: 'newSlug_1234' })),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' });
    await user.click(await screen.findByRole('button', { name: 'Reset link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the plan link?' });
    expect(dialog).toHaveTextContent(
      'The old link and QR code stop working at once: anyone who has not joined yet needs the new link. Everyone already in the plan keeps their access.',
    );
    // Cancel is a no.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(network.calls('POST', '/api/plans/p1/rotate-link')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reset link' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset link' }));
    expect(await screen.findByText('Link reset')).toBeInTheDocument();
    expect(screen.getByText('The old link no longer works')).toBeInTheDocument();
    expect(network.calls('POST', '/api/plans/p1/rotate-link')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Plan link' })).toHaveValue(`${window.location.origin}/l/newSlug_1234`));
    const { container } = render(<QRCodeSVG value={`${window.location.origin}/l/newSlug_1234`} size={200} marginSize={2} />);
    expect(qrModules(screen.getByRole('img', { name: 'QR code of the plan link' }))).toEqual(qrModules(container.querySelector('svg')!));
  });

  it('offers no reset to anyone but the host', async () => {
    openShare(planJson(), ben);
    expect(await screen.findByRole('img', { name: 'QR code of the plan link' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset link' })).not.toBeInTheDocument();
  });

  it("shows the server's sentence when a reset is refused, and keeps the link", async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/p1': () => json(planJson()),
      'POST /api/plans/p1/rotate-link': () => text("Only the host can reset the plan's link", 403),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' });
    await user.click(await screen.findByRole('button', { name: 'Reset link' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset link' }));
    expect(await screen.findByText("Only the host can reset the plan's link")).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Plan link' })).toHaveValue(link);
  });

  it('shows "Plan not found" with a way home', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans/p1': () => text('Plan not found', 404) });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/share' });
    const card = (await screen.findByRole('heading', { name: 'Plan not found' })).closest('div')!;
    expect(within(card).getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home');
    await user.click(screen.getByRole('link', { name: 'Go Home' }));
    await waitFor(() => expect(location()).toBe('/home'));
  });
});

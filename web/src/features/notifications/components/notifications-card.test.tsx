// The "Turn on notifications" card against a stand-in of the browser's Web
// Push parts (the real browser's are in e2e/notifications.spec.ts): permission
// only on a tap, the server's key, the subscription given to the right
// identity, turning it off, and what iPhones and refusals are told.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetMemberPush } from '../../../lib/device-push';
import { json, mockFetch, noContent } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { NotificationsCard } from './notifications-card';

// An uncompressed P-256 point, as the server's key is (65 bytes, base64url).
const PUBLIC_KEY = `BA${'A'.repeat(85)}`;
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';
const KEYS = { p256dh: `B${'x'.repeat(86)}`, auth: 'y'.repeat(22) };
const keyBytes = () => Uint8Array.from(atob(PUBLIC_KEY.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/** The browser's Notification, service worker container and push manager, as far as the app uses them. */
function fakeBrowserPush(options: { permission?: NotificationPermission; answer?: NotificationPermission } = {}) {
  let subscription: PushSubscription | null = null;
  const state = { permission: options.permission ?? 'default', asked: 0, unsubscribed: 0 };
  const pushManager = {
    getSubscription: vi.fn(async () => subscription),
    subscribe: vi.fn(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) => {
      subscription = {
        endpoint: ENDPOINT,
        options: { applicationServerKey: applicationServerKey.slice().buffer },
        toJSON: () => ({ endpoint: ENDPOINT, keys: KEYS }),
        unsubscribe: async () => {
          state.unsubscribed += 1;
          subscription = null;
          return true;
        },
      } as unknown as PushSubscription;
      return subscription;
    }),
  };
  let registered = false;
  const registration = { pushManager };
  const serviceWorker = {
    register: vi.fn(async () => {
      registered = true;
      return registration;
    }),
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(async () => (registered ? registration : undefined)),
  };
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return state.permission;
    },
    requestPermission: vi.fn(async () => {
      state.asked += 1;
      state.permission = options.answer ?? 'granted';
      return state.permission;
    }),
  });
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  return { state, pushManager, serviceWorker };
}

const pushRoutes = () => ({
  'GET /api/push/public-key': () => json({ publicKey: PUBLIC_KEY }),
  'POST /api/push/subscriptions': () => new Response(null, { status: 201 }),
  'DELETE /api/push/subscriptions': noContent,
});

const guest = { kind: 'guest', guestId: '7d1f2a0e-1111-4c4c-8888-000000000001' } as const;
const member = { kind: 'member', userId: '7d1f2a0e-2222-4c4c-8888-000000000002' } as const;

describe('NotificationsCard', () => {
  afterEachRemoveServiceWorker();

  it('shows nothing where the browser has no Web Push', async () => {
    mockFetch({});
    const { container } = renderWithProviders(<NotificationsCard identity={guest} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.querySelector('section')).toBeNull();
  });

  it('on an iPhone outside a Home Screen app, explains how to get them instead of a button', async () => {
    mockFetch({});
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1');
    renderWithProviders(<NotificationsCard identity={guest} />);
    expect(await screen.findByText(/notifications work once Hangplan is on your Home Screen: tap Share, then Add to Home Screen/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it("asks the browser's permission only on the tap, then subscribes with the server's key and gives it to the guest", async () => {
    const browser = fakeBrowserPush();
    const { calls } = mockFetch(pushRoutes());
    const { user } = renderWithProviders(<NotificationsCard identity={guest} />);
    const button = await screen.findByRole('button', { name: 'Turn on notifications' });
    expect(screen.getByRole('heading', { level: 2, name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByText(/when something is decided in this plan, even with Hangplan closed/)).toBeInTheDocument();
    expect(browser.state.asked).toBe(0);
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();

    await user.click(button);
    expect(await screen.findByText('Notifications are on for this device.')).toBeInTheDocument();
    expect(browser.state.asked).toBe(1);
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/sw.js');
    expect(browser.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes() });
    expect(calls('POST', '/api/push/subscriptions').map((r) => r.body)).toEqual([
      { subscription: { endpoint: ENDPOINT, keys: KEYS }, guestId: guest.guestId },
    ]);
    expect(screen.getByRole('button', { name: 'Turn off notifications' })).toBeEnabled();
  });

  it('a refusal is remembered by the browser: the card says how to allow them, and asks nothing more', async () => {
    const browser = fakeBrowserPush({ answer: 'denied' });
    const { calls } = mockFetch(pushRoutes());
    const { user } = renderWithProviders(<NotificationsCard identity={member} />);
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText("Notifications are blocked for Hangplan. Allow them in your browser's site settings to turn them on.")).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls('POST', '/api/push/subscriptions')).toHaveLength(0);
  });

  it('Turn off tells the server and ends the subscription once no one else on the device has it', async () => {
    const browser = fakeBrowserPush();
    const { calls } = mockFetch(pushRoutes());
    const { user } = renderWithProviders(<NotificationsCard identity={member} />);
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    await user.click(await screen.findByRole('button', { name: 'Turn off notifications' }));
    expect(await screen.findByRole('button', { name: 'Turn on notifications' })).toBeInTheDocument();
    expect(calls('DELETE', '/api/push/subscriptions').map((r) => r.body)).toEqual([{ endpoint: ENDPOINT }]);
    expect(browser.state.unsubscribed).toBe(1);
  });

  it('signing out takes the member off this device but leaves the guest of a plan on it', async () => {
    const browser = fakeBrowserPush();
    const { calls } = mockFetch(pushRoutes());
    const { user, unmount } = renderWithProviders(<NotificationsCard identity={guest} />);
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    await screen.findByText('Notifications are on for this device.');
    unmount();
    const second = renderWithProviders(<NotificationsCard identity={member} />);
    await second.user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    await screen.findByText('Notifications are on for this device.');

    await forgetMemberPush();
    expect(calls('DELETE', '/api/push/subscriptions').map((r) => r.body)).toEqual([{ endpoint: ENDPOINT }]);
    expect(browser.state.unsubscribed).toBe(0);
    await waitFor(() => expect(JSON.parse(localStorage.getItem('pushSubscriptions') ?? '{}')).toEqual({ [`guest:${guest.guestId}`]: ENDPOINT }));
  });
});

function afterEachRemoveServiceWorker() {
  // jsdom has no service worker container: the fake one must not outlive its test.
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    vi.restoreAllMocks();
  });
}

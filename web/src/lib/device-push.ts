// This device's Web Push subscription (docs/notifications.md "In the
// browser"): whether notifications can be turned on here, and turning them on
// and off for one identity, a member (every plan of the account) or a guest
// (that guest's plan). One browser has one subscription (one endpoint); it may
// be given to several identities (a phone that is a guest in one plan and
// later signs in), and each is remembered here, so that turning one off, or
// signing out, leaves the others.
//
// Permission is asked only by turnOnPush, which runs on a tap: browsers refuse
// (or bury) a prompt that comes with no gesture.
import { pushPublicKeySchema } from '../../../supabase/functions/_shared/contract/notifications';
import { apiRequest } from './api';
import { storedSessionId } from './auth-token';
import { SERVICE_WORKER_URL } from './app-update';
import { fromBase64url } from './base64url';
import { apiPaths } from './api-paths';

export type PushIdentity = { kind: 'member'; userId: string } | { kind: 'guest'; guestId: string };

/**
 * - `unsupported`: this browser has no Web Push;
 * - `needs-home-screen`: an iPhone or iPad outside a Home Screen app (iOS
 *   16.4+ has Web Push only there);
 * - `blocked`: the person said no, so only the browser's settings can undo it;
 * - `off` / `on`: for this identity on this device.
 */
export type DevicePushState = 'unsupported' | 'needs-home-screen' | 'blocked' | 'off' | 'on';

const STORAGE_KEY = 'pushSubscriptions';

/**
 * Where this device keeps what it gave to whom. A member's subscription is
 * the sign-in's that gave it (it ends with that session on the server), so
 * the key names the session too: after signing in again, nothing is on.
 */
export const identityKey = (identity: PushIdentity) =>
  identity.kind === 'member' ? `member:${identity.userId}:${storedSessionId() ?? 'none'}` : `guest:${identity.guestId}`;
const guestField = (identity: PushIdentity) => (identity.kind === 'guest' ? { guestId: identity.guestId } : {});

/** Identity key → the endpoint it was given. */
function readGiven(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (!value || typeof value !== 'object') return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

function writeGiven(given: Record<string, string>): void {
  if (Object.keys(given).length === 0) localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, JSON.stringify(given));
}

function isAppleMobile(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

function isHomeScreenApp(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/** Whether this browser can have Web Push at all, before any permission. */
export function pushSupport(): 'supported' | 'needs-home-screen' | 'unsupported' {
  if (window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window) return 'supported';
  return isAppleMobile() && !isHomeScreenApp() ? 'needs-home-screen' : 'unsupported';
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function saveSubscription(identity: PushIdentity, subscription: PushSubscription): Promise<void> {
  const { endpoint, keys } = subscription.toJSON();
  await apiRequest('POST', apiPaths.pushSubscriptions(), {
    subscription: { endpoint, keys: { p256dh: keys?.p256dh, auth: keys?.auth } },
    ...guestField(identity),
  });
  const given = readGiven();
  // A member's earlier sign-ins on this device are over: their entries go.
  if (identity.kind === 'member') for (const key of Object.keys(given)) if (key.startsWith('member:')) delete given[key];
  writeGiven({ ...given, [identityKey(identity)]: subscription.endpoint });
}

/**
 * Where this identity stands on this device. A subscription the browser
 * renewed (a new endpoint) since it was given is given again, quietly.
 */
export async function devicePushState(identity: PushIdentity): Promise<DevicePushState> {
  const support = pushSupport();
  if (support !== 'supported') return support;
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission !== 'granted') return 'off';
  const given = readGiven()[identityKey(identity)];
  if (!given) return 'off';
  const subscription = await currentSubscription();
  if (!subscription) return 'off';
  if (subscription.endpoint !== given) await saveSubscription(identity, subscription);
  return 'on';
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.length && new Uint8Array(a).every((byte, index) => byte === b[index]);

/**
 * "Turn on notifications" (on a tap): asks the browser's permission, registers
 * the service worker, subscribes with the server's key (again, if the server's
 * key changed) and gives the subscription to this identity. Answers the new
 * state: `blocked` or `off` when the person said no or closed the prompt.
 */
export async function turnOnPush(identity: PushIdentity): Promise<DevicePushState> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  const registration = await navigator.serviceWorker.ready;
  const res = await apiRequest('GET', apiPaths.pushPublicKey());
  const serverKey = fromBase64url(pushPublicKeySchema.parse(await res.json()).publicKey);

  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  await saveSubscription(identity, subscription);
  return 'on';
}

/** Takes this device off for `identities`; the browser's subscription goes once no identity has it. */
async function takeOff(identities: string[], guestId?: string): Promise<void> {
  const given = readGiven();
  const subscription = await currentSubscription();
  const endpoints = new Set(identities.map((key) => given[key]).filter((endpoint) => endpoint !== undefined));
  for (const endpoint of endpoints) {
    await apiRequest('DELETE', apiPaths.pushSubscriptions(), { endpoint, ...(guestId ? { guestId } : {}) });
  }
  for (const key of identities) delete given[key];
  writeGiven(given);
  if (subscription && !Object.values(given).includes(subscription.endpoint)) await subscription.unsubscribe();
}

/** "Turn off" for this identity on this device. */
export async function turnOffPush(identity: PushIdentity): Promise<DevicePushState> {
  await takeOff([identityKey(identity)], identity.kind === 'guest' ? identity.guestId : undefined);
  return 'off';
}

/**
 * Signing out: the member's notifications leave this device (the server is
 * told while the token still works). Never keeps anyone signed in: failures
 * are the caller's to ignore.
 */
export async function forgetMemberPush(): Promise<void> {
  const members = Object.keys(readGiven()).filter((key) => key.startsWith('member:'));
  if (members.length === 0 || pushSupport() !== 'supported') return;
  await takeOff(members);
}

/**
 * After the server ended them itself (every session signed out, the account
 * deleted): this device forgets what it gave the member, and the browser's
 * subscription ends unless a guest of this device still has it. Never fails.
 */
export async function forgetMemberPushLocally(): Promise<void> {
  try {
    const given = readGiven();
    const members = Object.keys(given).filter((key) => key.startsWith('member:'));
    if (members.length === 0) return;
    for (const key of members) delete given[key];
    writeGiven(given);
    if (pushSupport() !== 'supported') return;
    const subscription = await currentSubscription();
    if (subscription && !Object.values(given).includes(subscription.endpoint)) await subscription.unsubscribe();
  } catch {
    // Storage or the browser's push refused: nothing more to forget here.
  }
}

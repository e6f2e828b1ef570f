// What the service worker does with a Web Push message and a tap on its
// notification, as pure functions (sw.ts does the browser's part), so that
// they are tested without a browser (open-page.test.ts).
import { pushMessageSchema, type PushMessage } from '../../../supabase/functions/_shared/contract/notifications';

/** What a message that cannot be read shows: a push must show something (userVisibleOnly). */
const UNREADABLE: PushMessage = {
  title: 'Hangplan',
  body: 'Something changed in one of your plans.',
  url: '/',
  tag: 'hangplan',
};

/**
 * The notification of a push message's text. The page it opens must be a
 * path of this app: anything else (another origin, `javascript:`) opens `/`.
 */
export function notificationOf(text: string | undefined, origin: string): PushMessage {
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const message = pushMessageSchema.safeParse(parsed);
  if (!message.success) return UNREADABLE;
  return { ...message.data, url: appPath(message.data.url, origin) };
}

function appPath(url: string, origin: string): string {
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? `${target.pathname}${target.search}` : '/';
  } catch {
    return '/';
  }
}

/**
 * A tap on a notification: the open tab already showing that page (or a
 * page under it: `/l/{slug}` is also `/l/{slug}/dashboard`) is focused;
 * otherwise a new one opens. An open tab showing something else is never
 * navigated away, so nothing typed in it is lost. `windows` are the app's
 * open windows as the browser lists them (most recently focused first);
 * the answer is the index of the one to focus, or -1 to open a new one.
 */
export function windowToFocus(windows: readonly { url: string }[], target: string, origin: string): number {
  const wanted = new URL(target, origin).pathname.replace(/\/+$/, '') || '/';
  return windows.findIndex(({ url }) => {
    const shown = new URL(url);
    if (shown.origin !== origin) return false;
    const path = shown.pathname.replace(/\/+$/, '') || '/';
    return wanted === '/' ? path === '/' : path === wanted || path.startsWith(`${wanted}/`);
  });
}

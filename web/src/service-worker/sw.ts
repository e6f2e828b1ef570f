/// <reference lib="webworker" />
// Hangplan's service worker (docs/notifications.md "In the browser"): shows
// each Web Push message as a notification, and opens its page when tapped.
// Built by web/service-worker-build.ts into /sw.js (a classic script: every
// browser with Web Push runs it); checked by web/src/service-worker/tsconfig.json,
// since it runs on the worker's types, not the page's.
import { notificationOf, windowToFocus } from './open-page';

declare const self: ServiceWorkerGlobalScope;

// A new version takes over at once: this worker keeps no state between
// versions, and a page never depends on which version shows its notifications.
self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const message = notificationOf(event.data?.text(), self.location.origin);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url },
      icon: '/icons/icon-192.png',
      lang: 'en',
    }),
  );
});

async function openPage(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const index = windowToFocus(windows, url, self.location.origin);
  if (index >= 0) {
    await windows[index]!.focus();
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data: unknown = event.notification.data;
  const url = data && typeof data === 'object' && 'url' in data && typeof data.url === 'string' ? data.url : '/';
  event.waitUntil(openPage(url));
});

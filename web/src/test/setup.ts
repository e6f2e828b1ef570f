import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import { Toaster } from '../app/providers';
import { clearGuest } from '../lib/guest-storage';
import { resetOfflineActions } from '../lib/offline-actions';

// The app loads the toasts' code after its first render; tests have it from the start.
await Toaster.preload();

// jsdom lacks what Mantine measures with (as in Mantine's vite-template).
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);
window.HTMLElement.prototype.scrollIntoView = () => {};

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserver;

// Lazy screens load their module on first use; give slow CI machines room.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  notifications.clean();
  localStorage.clear();
  clearGuest(); // also drops guest-storage's in-memory snapshot
  resetOfflineActions(); // the outbox's sender and cache of the test that ended
  vi.unstubAllGlobals();
});

// "Install Hangplan" where the browser offers it (Chromium's
// beforeinstallprompt; docs/offline.md "Installing"): the browser's own
// mini-infobar is held back, and the app offers the install on a card
// instead, once, until installed or dismissed ("Not now", remembered on the
// device). On iPhone and iPad no browser offers it; the notifications card
// says how to add Hangplan to the Home Screen there.
import { useSyncExternalStore } from 'react';

/** Chromium's BeforeInstallPromptEvent (not in the DOM types). */
interface InstallPromptEvent extends Event {
  prompt: () => Promise<unknown>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const DISMISSED_KEY = 'installHintDismissed';
let offered: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

function dismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Listens for the browser's offer from the start (main.tsx): it may come before any screen is there. */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    if (dismissed()) return;
    event.preventDefault();
    offered = event as InstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offered = null;
    changed();
  });
}

export interface InstallPrompt {
  /** The browser offers to install Hangplan, and the person has not said "Not now". */
  available: boolean;
  /** The browser's own install dialog; the offer is used up either way. */
  install: () => Promise<void>;
  /** "Not now": never offered again on this device. */
  dismiss: () => void;
}

export function useInstallPrompt(): InstallPrompt {
  const available = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => offered !== null,
    () => false,
  );
  return {
    available,
    install: async () => {
      const event = offered;
      if (!event) return;
      offered = null;
      changed();
      await event.prompt();
      await event.userChoice;
    },
    dismiss: () => {
      try {
        localStorage.setItem(DISMISSED_KEY, 'true');
      } catch {
        // Storage blocked: not offered again in this tab at least.
      }
      offered = null;
      changed();
    },
  };
}

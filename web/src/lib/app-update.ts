// The app's service worker from the page's side (docs/offline.md "Offline
// and updates"): registered on every visit of the production build, once the
// page is idle, and a new build taken at a safe moment so that a phone never
// runs a mix of two builds' files.
//
// A deploy is a new /sw.js (its build's manifest is in it). The browser
// fetches it on the next visit and installs it beside the active one, where
// it waits. Then:
//   - a page that is already of the new build (the network gave it the new
//     index.html; the waiting worker has its entry script) lets it take over
//     at once: nothing to reload;
//   - a page of the old build keeps running on the old worker (its files stay
//     stored) and, at the next change of screen while nothing is being sent,
//     lets the new worker take over and reloads: the reload is the change of
//     screen. Nothing typed is lost, since the screen it was typed on is gone.
//   - another tab that sees the new worker take over reloads the same way.
import { HAS_FILE_MESSAGE, type HasFileQuestion, TAKE_OVER_MESSAGE } from '../service-worker/offline';

/** The app's service worker (web/src/service-worker/sw.ts); the push feature registers the same one. */
export const SERVICE_WORKER_URL = '/sw.js';

/** What app-update needs of the browser (a stand-in in tests). */
export interface UpdateEnvironment {
  container: ServiceWorkerContainer;
  /** The path of this page's entry script, e.g. '/assets/index-1a2b.js'. */
  entryScript: string | null;
  reload: () => void;
}

export interface AppUpdates {
  /** A change of screen: the moment to take a waiting build. */
  screenChanged: () => void;
}

/** How long a page that let the new worker in waits for it to take over before it reloads anyway. */
export const TAKE_OVER_GRACE_MS = 3000;

/** Asks a waiting worker whether this page's entry script is of its build. */
function isOfBuild(worker: ServiceWorker, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data === true);
    worker.postMessage({ type: HAS_FILE_MESSAGE, path } satisfies HasFileQuestion, [channel.port2]);
  });
}

/**
 * Watches `registration` for a new build and takes it at the right moment.
 * `isBusy` says a write is on its way (never reload then).
 */
export function watchForUpdates(registration: ServiceWorkerRegistration, env: UpdateEnvironment, isBusy: () => boolean): AppUpdates {
  let waiting: ServiceWorker | null = null;
  /** This page's files are of a build that is no longer the active worker's. */
  let outdated = false;
  /** The waiting worker has this page's files: its taking over needs no reload. */
  let ofNewBuild = false;
  let takingOver = false;
  let controlled = env.container.controller !== null;

  const takeOverAndReload = () => {
    if (takingOver || isBusy()) return;
    // Only a worker still waiting can take over (another tab may have let it in).
    if (waiting && waiting.state !== 'installed') waiting = null;
    if (waiting) {
      takingOver = true;
      waiting.postMessage(TAKE_OVER_MESSAGE);
      // Chromium may hold the new worker back while the old one still answers
      // this page's requests (seen in e2e/update.spec.ts: the new screen's
      // first reads). Reloading is as safe as ever once nothing is on its way:
      // the host gives the new build's page, which lets the new worker in itself.
      const reloadAnyway = () => (isBusy() ? setTimeout(reloadAnyway, TAKE_OVER_GRACE_MS) : env.reload());
      setTimeout(reloadAnyway, TAKE_OVER_GRACE_MS);
    } else if (outdated) {
      env.reload();
    }
  };

  const found = async (worker: ServiceWorker) => {
    // The first worker of this browser is not an update: it takes over by itself.
    if (!env.container.controller) return;
    const ofBuild = env.entryScript ? await isOfBuild(worker, env.entryScript) : false;
    // Let in (or replaced) while it answered: the controllerchange has said what to do.
    if (worker.state !== 'installed') return;
    if (ofBuild) {
      ofNewBuild = true;
      worker.postMessage(TAKE_OVER_MESSAGE);
      return;
    }
    waiting = worker;
  };

  const whenInstalled = (worker: ServiceWorker) => {
    if (worker.state === 'installed') void found(worker);
    else worker.addEventListener('statechange', () => worker.state === 'installed' && void found(worker));
  };

  if (registration.waiting) whenInstalled(registration.waiting);
  registration.addEventListener('updatefound', () => registration.installing && whenInstalled(registration.installing));

  env.container.addEventListener('controllerchange', () => {
    const first = !controlled;
    controlled = true;
    // This tab asked for it: its files are old, the reload brings the new ones.
    if (takingOver) env.reload();
    // Another tab did (this one reloads at its next change of screen), unless
    // this is the browser's first worker or the page is of the new build.
    else if (!first && !ofNewBuild) {
      waiting = null;
      outdated = true;
    }
  });

  return { screenChanged: takeOverAndReload };
}

const entryScriptPath = (): string | null => {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
  return script ? new URL(script.src).pathname : null;
};

let updates: AppUpdates | null = null;

/**
 * Registers the worker (the production build only: the dev server's files are
 * not a build) and watches for new builds. `firstControl` runs when the
 * browser's first worker of the app starts serving this page: what the page
 * read before went around it, so nothing of it is saved yet. Failing to
 * register changes nothing: the app works as a plain web page.
 */
export async function startServiceWorker({ isBusy, firstControl }: { isBusy: () => boolean; firstControl: () => void }): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const container = navigator.serviceWorker;
  if (!container.controller) container.addEventListener('controllerchange', firstControl, { once: true });
  try {
    const registration = await container.register(SERVICE_WORKER_URL);
    updates = watchForUpdates(registration, { container, entryScript: entryScriptPath(), reload: () => location.reload() }, isBusy);
  } catch {
    // No worker (private mode, a browser setting): no offline, nothing else changes.
  }
}

/** Called by the router on each change of screen. */
export const screenChanged = () => updates?.screenChanged();

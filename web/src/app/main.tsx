import './mantine-styles';
import './touch-targets.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { startServiceWorker } from '../lib/app-update';
import { saveShownReads } from '../lib/api';
import { listenForInstallPrompt } from '../lib/install-prompt';
import { createQueryClient } from '../lib/query-client';
import { whenIdle } from '../lib/when-idle';
import { App } from './app';
import { loadFirstData } from './first-data';
import { preloadScreenOf } from './lazy-screens';

preloadScreenOf(window.location.pathname);
// The browser's install offer may come before any screen is there.
listenForInstallPrompt();

// #root may hold the static shell of this page (public/shell.js, inert). The
// first render is a transition: React renders in slices, leaving the main
// thread free in between, and the shell stays on screen until the live page
// replaces it in one commit. On the join page it waits for the plan
// (first-data.ts), so that this first render is the page itself.
const queryClient = createQueryClient();
const root = createRoot(document.getElementById('root')!);
void loadFirstData(queryClient, window.location.pathname).then(() => {
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
  // The service worker (offline, updates) once the page has loaded and is
  // idle: it is never what the first paint or the first tap waits for. It
  // never reloads the page while a write is on its way.
  const start = () =>
    whenIdle(() => void startServiceWorker({ isBusy: () => queryClient.isMutating() > 0, firstControl: () => saveShownReads(queryClient) }));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
});

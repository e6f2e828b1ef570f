import './mantine-styles';
import './touch-targets.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { preloadScreenOf } from './lazy-screens';

preloadScreenOf(window.location.pathname);

// #root may hold the static shell of this page (public/shell.js, inert). The
// first render is a transition: React renders in slices, leaving the main
// thread free in between, and the shell stays on screen until the live page
// replaces it in one commit.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

import './mantine-styles';
import './touch-targets.css';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app';

// #root may hold the static shell of this page (public/shell.js). The first
// render replaces it in the same task, before the document has finished
// loading: the live page is there before anyone can act on the inert shell.
const root = createRoot(document.getElementById('root')!);
flushSync(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

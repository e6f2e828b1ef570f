import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { preloadDependencies } from './background-imports.ts';
import { mantineCssCheck } from './mantine-css-check.ts';
import { mantineLazyDefaults } from './mantine-lazy-defaults.ts';
import { mantineStableIds } from './mantine-stable-ids.ts';
import { entryCompileHint, entryPriority, prerenderShells } from './prerender-shells.ts';
import { linkPreview } from './link-preview/vite.ts';
import { serviceWorker } from './service-worker-build.ts';
import { staticHeaders } from './static-headers.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// The API is a Supabase Edge Function named `api`: it receives `/api/...` under
// `/functions/v1`, so `/api/x` is proxied to `{target}/api/x`. `xfwd` appends
// the browser's address to X-Forwarded-For, as Supabase's gateway does, so the
// API's per-network limits see the client, not the proxy (docs/security-and-limits.md
// "Client IP").
function apiProxy(target: string): Record<string, ProxyOptions> {
  return { '/api': { target, changeOrigin: true, xfwd: true } };
}

export default defineConfig(({ mode }) => {
  // One `.env` at the repository root serves the API, the scripts and the web app.
  const fileEnv = loadEnv(mode, repoRoot, '');
  const setting = (name: string) => process.env[name] ?? fileEnv[name];
  const apiTarget = setting('API_PROXY_TARGET') ?? 'http://127.0.0.1:54321/functions/v1';
  const proxy = apiProxy(apiTarget);

  return {
    root: webRoot,
    envDir: repoRoot,
    // staticHeaders: the preview serves web/public/_headers (the e2e tests run under it).
    // mantineCssCheck: every Mantine component in the bundle has its CSS (app/mantine-styles.ts).
    // mantineStableIds: Mantine's useId without the second, random id after mount (mantine-stable-ids.ts).
    // mantineLazyDefaults: Mantine's default CSS variables computed on first use, not at load (mantine-lazy-defaults.ts).
    // prerenderShells: the static first paint of / and /l/{slug} in index.html (public/shell.js),
    // entryPriority: the app's script after what that paint needs; entryCompileHint: compiled off the main thread.
    // serviceWorker: /sw.js, the service worker, bundled on its own (service-worker-build.ts).
    // linkPreview: /l/{slug} with the plan's card in its head, the static host's edge function's code (link-preview/),
    // after staticHeaders so its answers keep the CSP.
    plugins: [react(), staticHeaders(), linkPreview(`${apiTarget.replace(/\/+$/, '')}/api`), mantineCssCheck(), mantineStableIds(), mantineLazyDefaults(), prerenderShells(), entryPriority(), entryCompileHint(), serviceWorker()],
    server: { port: 5173, strictPort: true, proxy },
    preview: { port: Number(setting('WEB_PORT') ?? 4173), strictPort: true, proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // A chunk loaded in the background (the toasts') brings no preload links (background-imports.ts).
      modulePreload: { resolveDependencies: preloadDependencies },
      rolldownOptions: {
        output: {
          // What the entry needs, in one chunk: without this, the code it shares
          // with lazy screens is cut into many small chunks, each one more
          // request before the first render. Lazy screens keep their own chunks.
          codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
        },
      },
    },
  };
});

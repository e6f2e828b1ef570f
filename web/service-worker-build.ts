// The service worker (web/src/service-worker/sw.ts, docs/notifications.md "In
// the browser") as its own small bundle at /sw.js: a fixed name at the root,
// so its scope is the whole app, and a classic script (every browser with Web
// Push runs those). It is bundled apart from the app: the app's chunks are
// modules with hashed names, and the worker shares none of them.
//   - build: emitted into the output as sw.js;
//   - dev server: served at /sw.js, bundled on each request (no minifying).
// web/public/_headers keeps it from being cached (`no-cache`), so a phone
// checks for a new version on each visit.
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

export const SERVICE_WORKER_FILE = 'sw.js';
const entry = fileURLToPath(new URL('./src/service-worker/sw.ts', import.meta.url));

/** The worker's script: one IIFE, no imports. */
export async function bundleServiceWorker(minify: boolean): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'error',
    root: fileURLToPath(new URL('.', import.meta.url)),
    build: {
      write: false,
      minify,
      emptyOutDir: false,
      copyPublicDir: false,
      rolldownOptions: {
        input: entry,
        output: { format: 'iife', entryFileNames: SERVICE_WORKER_FILE, codeSplitting: false },
      },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if (!('output' in result)) continue;
    for (const file of result.output) if (file.type === 'chunk' && file.isEntry) return file.code;
  }
  throw new Error('The service worker bundle has no entry chunk');
}

export function serviceWorker(): Plugin {
  let minify = true;
  return {
    name: 'hangplan:service-worker',
    configResolved(config) {
      minify = config.build.minify !== false;
    },
    configureServer(server) {
      server.middlewares.use(`/${SERVICE_WORKER_FILE}`, (_req, res, next) => {
        bundleServiceWorker(false).then((code) => {
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(code);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source: await bundleServiceWorker(minify) });
    },
  };
}

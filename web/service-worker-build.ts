// The service worker (web/src/service-worker/sw.ts; docs/offline.md
// "Offline", docs/notifications.md "In the browser") as its own small bundle
// at /sw.js: a fixed name at the root, so its scope is the whole app, and a
// classic script (every browser with a service worker runs those). It is
// bundled apart from the app: the app's chunks are modules with hashed names,
// and the worker shares none of them.
//   - build: emitted into the output as sw.js, with the build's manifest in
//     it (BuildManifest: the shell's files and a version that changes with
//     any of them, so each deploy is a new worker);
//   - dev server: served at /sw.js, bundled on each request (no minifying),
//     with no shell: it stores nothing.
// web/public/_headers keeps it from being cached (`no-cache`), so a phone
// checks for a new version on each visit.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import type { BuildManifest } from './src/service-worker/offline';

export const SERVICE_WORKER_FILE = 'sw.js';
const entry = fileURLToPath(new URL('./src/service-worker/sw.ts', import.meta.url));
const publicDir = fileURLToPath(new URL('./public/', import.meta.url));

/** Files of web/public the shell needs: the first paint's script, and what an installed app shows. */
export const PUBLIC_SHELL_FILES = ['/shell.js', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/apple-touch-icon.png'];

/** The dev server's worker: no shell, nothing stored. */
export const DEV_MANIFEST: BuildManifest = { version: '', precache: [], apiBase: '' };

/**
 * The shell of a build: index.html (stored as `/`, what a static host
 * answers every page with), its scripts, styles and other files, and
 * PUBLIC_SHELL_FILES; source maps and the worker itself left out. The version
 * is a hash of their names and of the files whose names carry no hash
 * (index.html names every hashed file it loads, and each of those the files
 * it imports).
 */
export function buildManifest(files: { fileName: string; content: string | Uint8Array }[], apiBase: string): BuildManifest {
  const built = files.filter((file) => !file.fileName.endsWith('.map') && file.fileName !== SERVICE_WORKER_FILE);
  const precache = [...built.map((file) => (file.fileName === 'index.html' ? '/' : `/${file.fileName}`)), ...PUBLIC_SHELL_FILES].sort();
  const hash = createHash('sha256').update(precache.join('\n')).update(apiBase);
  for (const file of built) if (!file.fileName.startsWith('assets/')) hash.update(file.content);
  for (const file of PUBLIC_SHELL_FILES) hash.update(readFileSync(`${publicDir}${file.slice(1)}`));
  return { version: hash.digest('hex').slice(0, 16), precache, apiBase };
}

/** The worker's script for a build's manifest: one IIFE, no imports. */
export async function bundleServiceWorker(minify: boolean, manifest: BuildManifest = DEV_MANIFEST): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'error',
    root: fileURLToPath(new URL('.', import.meta.url)),
    define: { __HANGPLAN_BUILD__: JSON.stringify(manifest) },
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
  let apiBase = '';
  return {
    name: 'hangplan:service-worker',
    configResolved(config) {
      minify = config.build.minify !== false;
      apiBase = String(config.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');
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
    // After the other plugins' generateBundle: index.html is in the bundle by then.
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const files = Object.values(bundle).map((file) => ({
          fileName: file.fileName,
          content: file.type === 'chunk' ? file.code : file.source,
        }));
        if (!files.some((file) => file.fileName === 'index.html')) throw new Error('The service worker needs index.html in the bundle');
        const source = await bundleServiceWorker(minify, buildManifest(files, apiBase));
        this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source });
      },
    },
  };
}

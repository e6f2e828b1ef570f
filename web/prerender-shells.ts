// Static shells for the first paint (docs/web-app.md "First paint"): at
// build time, renders web/src/app/shells.tsx (the landing page, the join
// page while its plan loads, the splash) to HTML with Vite's SSR loader and
// puts each into web/index.html as a <template>. web/public/shell.js, a
// classic script right after #root, copies the one that fits the address
// into #root before the first paint; React's first render replaces it.
// (src/app/shell-templates.ts makes the <template>s).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { shellTemplates } from './src/app/shell-templates';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export function prerenderShells(): Plugin {
  let apiBase = '';
  return {
    name: 'hangplan:prerender-shells',
    apply: 'build',
    configResolved(config) {
      apiBase = String(config.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');
    },
    async transformIndexHtml(html) {
      const server = await createServer({
        configFile: false,
        root: webRoot,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderShells } = (await server.ssrLoadModule('/src/app/shells.tsx')) as typeof import('./src/app/shells');
        const templates = shellTemplates(renderShells(), apiBase);
        if (!html.includes('<!-- shells -->')) throw new Error('web/index.html lacks the <!-- shells --> marker');
        return html.replace('<!-- shells -->', templates);
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * The app's entry script at low fetch priority where a shell paints the page
 * (docs/web-app.md "First paint"): what the first paint needs is the
 * stylesheet, public/shell.js and, on the join page, the plan, and on a slow
 * connection those come first; the script is needed once the page is on
 * screen, to make it live.
 */
export function lowPriorityEntry(html: string): string {
  const entry = /<script type="module" crossorigin src="[^"]+"><\/script>/g;
  const found = html.match(entry) ?? [];
  if (found.length !== 1) throw new Error(`index.html: expected one entry script, found ${found.length}`);
  return html.replace(entry, (tag) => tag.replace('<script ', '<script fetchpriority="low" '));
}

export function entryPriority(): Plugin {
  return {
    name: 'hangplan:entry-priority',
    apply: 'build',
    // After Vite has put the built entry's <script> in.
    transformIndexHtml: { order: 'post', handler: lowPriorityEntry },
  };
}

/**
 * V8's explicit compile hint (Chrome 136+): a file that starts with this
 * comment has all its functions compiled eagerly, on a background thread
 * while it streams in, instead of each one on the main thread the first time
 * it runs. Nearly everything in the app's entry runs on the first load (React
 * DOM, Mantine, the router, the first screen), so that compiling is the
 * main thread's time on a phone otherwise; measured in Lighthouse against the
 * same build without it, interleaved run by run: the join page's Total
 * Blocking Time 428–1,174 ms → 397–491 ms (docs/performance.md).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

interface SourceMapJson {
  mappings: string;
}

/** `code` with the compile hint as its first line, and its source map moved down that one line. */
export function withCompileHint(code: string, map?: string): { code: string; map?: string } {
  if (!map) return { code: COMPILE_HINT + code };
  const json = JSON.parse(map) as SourceMapJson;
  return { code: COMPILE_HINT + code, map: JSON.stringify({ ...json, mappings: `;${json.mappings}` }) };
}

export function entryCompileHint(): Plugin {
  return {
    name: 'hangplan:entry-compile-hint',
    apply: 'build',
    // Once the files are written: Vite still rewrites the chunks' code after
    // every plugin's generateBundle (its preload list goes first in the file).
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const file = path.join(options.dir!, chunk.fileName);
        const mapFile = `${file}.map`;
        const hasMap = existsSync(mapFile);
        const hinted = withCompileHint(readFileSync(file, 'utf8'), hasMap ? readFileSync(mapFile, 'utf8') : undefined);
        writeFileSync(file, hinted.code);
        if (hasMap && hinted.map) writeFileSync(mapFile, hinted.map);
      }
    },
  };
}

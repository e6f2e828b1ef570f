// Static shells for the first paint (docs/decisions.md "First paint"): at
// build time, renders web/src/app/shells.tsx (the landing page, the join
// page while its plan loads, the splash) to HTML with Vite's SSR loader and
// puts each into web/index.html as a <template>. web/public/shell.js, a
// classic script right after #root, copies the one that fits the address
// into #root before the first paint; React's first render replaces it.
// (src/app/shell-templates.ts makes the <template>s).
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
 * (docs/decisions.md "First paint"): what the first paint needs is the
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

// Static shells for the first paint (docs/decisions.md "First paint"): at
// build time, renders web/src/app/shells.tsx (the landing page, the join
// page while its plan loads, the splash) to HTML with Vite's SSR loader and
// puts each into web/index.html as a <template>. web/public/shell.js, a
// classic script right after #root, copies the one that fits the address
// into #root before the first paint; React's first render replaces it.
//
// The Content-Security-Policy forbids style attributes (style-src-attr
// 'none'), and React writes Mantine's style props as such: each is moved into
// the template's <style> as a rule on a data attribute, with !important so it
// still wins over the stylesheets as an inline style does.
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);

/** `html` without style attributes, and the CSS rules that stand for them. */
export function hoistStyleAttributes(html: string, prefix: string): { html: string; css: string } {
  const rules: string[] = [];
  const out = html.replace(/ style="([^"]*)"/g, (_match, style: string) => {
    const id = `${prefix}${rules.length}`;
    const declarations = decode(style)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => `${d} !important`)
      .join(';');
    rules.push(`[data-shell-style="${id}"]{${declarations}}`);
    return ` data-shell-style="${id}"`;
  });
  return { html: out, css: rules.join('') };
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * One <template> per shell, to put before #root. `apiBase`: where the API is
 * (VITE_API_BASE_URL, empty for this origin), for shell.js's early plan request.
 */
export function shellTemplates(shells: Record<string, string>, apiBase = ''): string {
  return Object.entries(shells)
    .map(([name, markup]) => {
      const { html, css } = hoistStyleAttributes(markup, `${name[0]}`);
      return `<template id="shell-${name}" data-api="${attribute(apiBase)}"><style>${css}</style>${html}</template>`;
    })
    .join('\n    ');
}

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

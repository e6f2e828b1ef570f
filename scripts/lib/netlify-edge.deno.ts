// Netlify's edge in miniature, for the end-to-end tests and the bench: serves
// web/hosting/netlify/edge-functions/link-preview.ts (the exact module the
// host deploys, imported as Netlify's bundler imports it: under Deno, its npm
// imports from node_modules) on the paths of its `config`, with
// `context.next()` the page the static host would serve there: the build's
// index.html with the headers its _headers gives the path. Every other path
// gets that page directly. Settings: PORT, WEB_DIR (a build of the web app),
// HANGPLAN_API_URL (the function's read as Netlify's environment would give it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import edge, { config } from '../../web/hosting/netlify/edge-functions/link-preview.ts';
import { headersFor, parseHeadersFile } from '../../web/static-headers.ts';

const dir = Deno.env.get('WEB_DIR')!;
const html = readFileSync(path.join(dir, 'index.html'));
const rules = parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8'));
const pattern = new URLPattern({ pathname: config.path });

/** The static host's answer: index.html (every app route), with its headers. */
function page(request: Request): Response {
  const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'content-length': String(html.byteLength) });
  for (const [name, value] of headersFor(rules, new URL(request.url).pathname)) headers.set(name, value);
  return new Response(request.method === 'HEAD' ? null : html, { headers });
}

Deno.serve({ port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => {} }, (request) => {
  if (!pattern.test(request.url) || !config.method.includes(request.method)) return page(request);
  return edge(request, { next: async () => page(request) });
});

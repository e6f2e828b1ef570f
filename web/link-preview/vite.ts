// The link page's head under Vite (docs/web-app.md "The link page's head"): the dev
// server (`npm start`) and `vite preview` (the end-to-end tests' server) run
// the exact handler the static host's edge function runs (handler.ts), with
// `next` the index.html they would have served: the dev server's, transformed
// by Vite; the preview's, the built one. Registered ahead of Vite's own
// middlewares, after web/static-headers.ts's, so the answer keeps the
// headers that plugin set (the CSP of web/public/_headers).
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Connect, Plugin } from 'vite';
import { handleLinkPreview, linkSlug } from './handler.ts';

/** The request as a Fetch API Request (no body: only GET and HEAD are handled). */
function toRequest(req: IncomingMessage): Request {
  const scheme = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`${scheme}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** A middleware that answers GET and HEAD of /l/{slug} through the handler, with `page` the index.html to fill. */
function middleware(apiBase: string, page: (req: Connect.IncomingMessage) => Promise<string>): Connect.NextHandleFunction {
  return (req, res, next) => {
    const pathname = new URL(req.url ?? '/', 'http://vite').pathname;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !linkSlug(pathname)) return next();
    const html = async () => new Response(await page(req), { headers: { 'content-type': 'text/html; charset=utf-8' } });
    handleLinkPreview(toRequest(req), html, apiBase)
      .then((response) => send(res, response))
      .catch(next);
  };
}

/** `apiBase`: the API as the handler calls it, e.g. http://127.0.0.1:54321/functions/v1/api. */
export function linkPreview(apiBase: string): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'hangplan:link-preview',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(
        middleware(apiBase, async (req) => server.transformIndexHtml(req.url ?? '/', await readFile(path.join(root, 'index.html'), 'utf8'), req.originalUrl)),
      );
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(apiBase, () => readFile(path.join(outDir, 'index.html'), 'utf8')));
    },
  };
}

// The web app's production build served the way a static host serves it (for
// `npm run bench`'s Lighthouse runs): files from the build folder with brotli
// or gzip compression, long-lived immutable caching for hashed assets,
// `index.html` for every app route, `/api/*` passed to the function (the
// static host's rewrite rule), and a plan's link page /l/{slug} through the
// edge function's handler (web/link-preview/handler.ts), with the plan's card
// in its head, as the deployed host answers it.
//
// Like a static host (which compresses at deploy or once at its edge), each
// file is compressed once, when the server starts, not on every request:
// brotli at its best quality takes about a second for the app's main chunk on
// this machine, time no visitor of a real host waits and that Lighthouse
// would otherwise count as the server's.
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { handleLinkPreview, linkSlug } from '../../web/link-preview/handler.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json)|image\/svg)/;

export interface StaticServer {
  url: string;
  close: () => Promise<void>;
}

/** `apiTarget`: where `/api/*` goes, e.g. http://127.0.0.1:54321/functions/v1. */
export function serveStatic(root: string, port: number, apiTarget: string): Promise<StaticServer> {
  const compressed = compressAll(root);
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/api/')) return proxy(req, res, apiTarget);
    if (linkSlug(new URL(req.url ?? '/', 'http://x').pathname)) return void serveLinkPage(root, apiTarget, req, res);
    return serveFile(root, compressed, req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://localhost:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

interface Compressed {
  br: Buffer;
  gzip: Buffer;
}

const isCompressible = (file: string) => COMPRESSIBLE.test(TYPES[path.extname(file)] ?? '');

/** Every compressible file under `root`, compressed both ways, by path. */
function compressAll(root: string): Map<string, Compressed> {
  const out = new Map<string, Compressed>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !isCompressible(file)) continue;
    const body = readFileSync(file);
    out.set(file, {
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzip: gzipSync(body, { level: 9 }),
    });
  }
  return out;
}

function serveFile(root: string, compressed: Map<string, Compressed>, req: IncomingMessage, res: ServerResponse): void {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = path.join(root, path.normalize(pathname));
  if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(root, 'index.html');
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  const hashed = pathname.startsWith('/assets/');
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  for (const [name, value] of staticHeaders(root)) res.setHeader(name, value);
  const accept = String(req.headers['accept-encoding'] ?? '');
  const packed = compressed.get(file);
  if (!packed) {
    createReadStream(file).pipe(res);
    return;
  }
  res.setHeader('Vary', 'Accept-Encoding');
  const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
  if (!encoding) {
    createReadStream(file).pipe(res);
    return;
  }
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', packed[encoding].length);
  res.end(packed[encoding]);
}

/**
 * /l/{slug} as the host's edge function answers it: index.html through the
 * handler, then compressed per request (as a CDN compresses a function's
 * answer, at a quicker brotli level than the files' once-only best).
 */
async function serveLinkPage(root: string, apiTarget: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const html = readFileSync(path.join(root, 'index.html'));
  const next = async () => new Response(html, { headers: { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache', ...Object.fromEntries(staticHeaders(root)) } });
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: req.method });
  const answer = await handleLinkPreview(request, next, `${apiTarget.replace(/\/$/, '')}/api`);
  const body = Buffer.from(await answer.arrayBuffer());
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  const accept = String(req.headers['accept-encoding'] ?? '');
  res.setHeader('Vary', 'Accept-Encoding');
  const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
  const packed = encoding === 'br' ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : encoding === 'gzip' ? gzipSync(body) : body;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', packed.length);
  res.end(packed);
}

/** The headers of `_headers` (Netlify syntax) that apply to every path (`/*`), if the build has one. */
function staticHeaders(root: string): Array<[string, string]> {
  const file = path.join(root, '_headers');
  if (!existsSync(file)) return [];
  const headers: Array<[string, string]> = [];
  let inAll = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      inAll = line.trim() === '/*';
      continue;
    }
    const colon = line.indexOf(':');
    if (inAll && colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return headers;
}

function proxy(req: IncomingMessage, res: ServerResponse, target: string): void {
  const url = new URL(req.url!, target.endsWith('/') ? target : `${target}/`);
  url.pathname = `${new URL(target).pathname.replace(/\/$/, '')}${req.url!.split('?')[0]}`;
  url.search = new URL(req.url!, 'http://x').search;
  const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('The API is not reachable');
  });
  req.pipe(upstream);
}

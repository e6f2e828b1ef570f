// The static deploy's headers (web/public/_headers): what the policy says, how
// the file is read, that `vite preview` with the project's own config serves
// exactly what the file gives each path (the e2e server), and what the build
// adds to connect-src for Supabase Realtime or an API on another origin.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSources,
  headersFor,
  isProxied,
  parseHeadersFile,
  pathPattern,
  realtimeSources,
  staticHeaders,
  withConnectSources,
} from './static-headers.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const headersPath = path.join(webRoot, 'public/_headers');
const fileText = readFileSync(headersPath, 'utf8');
const rules = parseHeadersFile(fileText);

/** A CSP as directive -> sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const page = headersFor(rules, '/plans/5f0c6a8e-1d2b-4c3d-9e8f-0a1b2c3d4e5f');
const csp = directives(page.get('content-security-policy') ?? '');

describe('web/public/_headers', () => {
  it('has one rule for every path and one for the hashed assets, and no header in both', () => {
    expect(rules.map((r) => r.path)).toEqual(['/*', '/assets/*', '/sw.js']);
    // Hosts differ in how they combine a header two matching rules set: never rely on it.
    const [all, ...others] = rules;
    for (const other of others) expect([...other.headers.keys()].filter((name) => all!.headers.has(name))).toEqual([]);
  });

  it('is a strict CSP: only own scripts, nothing inline but style elements, no framing', () => {
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('style-src-attr')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('manifest-src')).toEqual(["'self'"]);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    // Nothing may widen script execution, whichever directive it hides in.
    for (const [name, sources] of csp) {
      if (name.startsWith('script-src') || name === 'default-src') {
        expect(sources.filter((s) => /unsafe|data:|blob:|\*|https?:/.test(s)), name).toEqual([]);
      }
    }
  });

  it('sends the other headers of a page', () => {
    expect(page.get('x-content-type-options')).toBe('nosniff');
    expect(page.get('x-frame-options')).toBe('DENY');
    expect(page.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.get('cross-origin-opener-policy')).toBe('same-origin');
    const denied = (page.get('permissions-policy') ?? '').split(',').map((p) => p.trim());
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(denied).toContain(`${feature}=()`);
    // The app copies the link and opens the share sheet: those stay allowed.
    expect(denied.filter((p) => /^(clipboard-write|web-share)=/.test(p))).toEqual([]);
    expect(page.has('cache-control')).toBe(false);
  });

  it('caches hashed assets for a year, immutable, and nothing else', () => {
    expect(headersFor(rules, '/assets/index-Q7LAoo6e.js').get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(headersFor(rules, '/assets/index-Q7LAoo6e.js').get('content-security-policy')).toBe(page.get('content-security-policy'));
    for (const p of ['/', '/index.html', '/manifest.webmanifest', '/assetsx.js']) expect(headersFor(rules, p).has('cache-control'), p).toBe(false);
  });
});

describe('README "Security headers" (Vercel, nginx)', () => {
  const readme = readFileSync(path.join(webRoot, '../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Security headers'), readme.indexOf('### Live updates on hosted Supabase'));

  it('shows the same values as _headers, for every header of a page and of an asset', () => {
    expect(section.length).toBeGreaterThan(0);
    const values = [...headersFor(rules, '/assets/x.js').values()];
    expect(values.length).toBeGreaterThan(5);
    // Once for vercel.json and once for nginx (the Cache-Control of assets, too).
    for (const value of values) expect(section.split(value).length - 1, value).toBeGreaterThanOrEqual(2);
    // And no other policy anywhere in it.
    const policies = [...section.matchAll(/default-src[^"\n]*/g)].map((m) => m[0]);
    expect(new Set(policies)).toEqual(new Set([page.get('content-security-policy')]));
  });
});

describe('reading _headers', () => {
  it('takes comments, blank lines, repeated headers (joined) and path patterns', () => {
    const parsed = parseHeadersFile('# c\n\n/a/*\n  X-A: 1\n  # inside\n  x-a: 2\n/b/:id\n  X-B: b\n');
    expect(parsed).toEqual([
      { path: '/a/*', headers: new Map([['x-a', '1, 2']]) },
      { path: '/b/:id', headers: new Map([['x-b', 'b']]) },
    ]);
    expect(pathPattern('/b/:id').test('/b/12')).toBe(true);
    expect(pathPattern('/b/:id').test('/b/12/c')).toBe(false);
    expect(pathPattern('/a/*').test('/a/x/y.js')).toBe(true);
    expect(pathPattern('/a.b').test('/aXb')).toBe(false);
    expect(Object.fromEntries(headersFor(parseHeadersFile('/*\n  X: 1\n/a/*\n  X: 2\n'), '/a/b'))).toEqual({ x: '1, 2' });
  });

  it('refuses what it cannot read, naming the line', () => {
    expect(() => parseHeadersFile('  X-A: 1\n')).toThrow('_headers line 1');
    expect(() => parseHeadersFile('/*\n  not a header\n')).toThrow('_headers line 2');
    expect(() => parseHeadersFile('https://example.com/*\n  X: 1\n')).toThrow('_headers line 1');
    expect(() => parseHeadersFile('/a b\n')).toThrow('_headers line 1');
  });

  it('leaves the API to the function: proxied paths get no static headers', () => {
    expect(isProxied('/api/auth/me')).toBe(true);
    expect(isProxied('/api')).toBe(true);
    expect(isProxied('/apiary')).toBe(false);
  });
});

describe('connect-src for what the build connects to', () => {
  it('Supabase Realtime needs its origin and its WebSocket; only when the app uses it (URL and key)', () => {
    expect(realtimeSources('https://abc.supabase.co/')).toEqual(['https://abc.supabase.co', 'wss://abc.supabase.co']);
    expect(realtimeSources('http://127.0.0.1:54321')).toEqual(['http://127.0.0.1:54321', 'ws://127.0.0.1:54321']);
    expect(connectSources({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'k' })).toEqual([
      'https://abc.supabase.co',
      'wss://abc.supabase.co',
    ]);
    expect(connectSources({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: '' })).toEqual([]);
    expect(connectSources({ VITE_API_BASE_URL: 'https://api.example.com/base/' })).toEqual(['https://api.example.com']);
    expect(connectSources({})).toEqual([]);
  });

  it('adds them to connect-src and changes nothing else', () => {
    const widened = withConnectSources(fileText, ['https://abc.supabase.co', 'wss://abc.supabase.co']);
    const after = parseHeadersFile(widened);
    const policy = directives(headersFor(after, '/').get('content-security-policy')!);
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://abc.supabase.co', 'wss://abc.supabase.co']);
    expect(new Map([...policy].filter(([name]) => name !== 'connect-src'))).toEqual(new Map([...csp].filter(([name]) => name !== 'connect-src')));
    expect(widened.replace(/ https:\/\/abc\.supabase\.co wss:\/\/abc\.supabase\.co/, '')).toBe(fileText);
    expect(() => withConnectSources('/*\n  X: 1\n', ['https://a.example'])).toThrow('no Content-Security-Policy');
  });

  it('the build rewrites the shipped copy, not web/public/_headers', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hangplan-headers-'));
    try {
      copyFileSync(headersPath, path.join(dir, '_headers'));
      const plugin = staticHeaders() as unknown as {
        configResolved: (config: unknown) => void;
        writeBundle: (options: { dir?: string }) => void;
      };
      plugin.configResolved({ root: webRoot, build: { outDir: dir }, env: { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'k' } });
      plugin.writeBundle({ dir });
      const shipped = parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8'));
      expect(directives(headersFor(shipped, '/').get('content-security-policy')!).get('connect-src')).toEqual([
        "'self'",
        'https://abc.supabase.co',
        'wss://abc.supabase.co',
      ]);
      expect(readFileSync(headersPath, 'utf8')).toBe(fileText);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('vite preview (the e2e server) with the project config', () => {
  let outDir: string;
  let server: PreviewServer;
  let api: Server;
  let base: string;
  const env = { API_PROXY_TARGET: process.env.API_PROXY_TARGET, WEB_PORT: process.env.WEB_PORT };

  beforeAll(async () => {
    // A stand-in build: the shipped _headers, a page and a hashed asset.
    outDir = mkdtempSync(path.join(tmpdir(), 'hangplan-preview-'));
    copyFileSync(headersPath, path.join(outDir, '_headers'));
    writeFileSync(path.join(outDir, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/assets/index-abc123.js"></script>');
    mkdirSync(path.join(outDir, 'assets'));
    writeFileSync(path.join(outDir, 'assets/index-abc123.js'), 'export {};');
    // A stand-in API behind the preview's /api proxy.
    api = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-from': 'api' }).end('{}'));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const { freePort } = await import('../scripts/lib/services.ts');
    const port = await freePort();
    process.env.API_PROXY_TARGET = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
    process.env.WEB_PORT = String(port);
    server = await preview({ configFile: path.join(webRoot, 'vite.config.ts'), build: { outDir }, logLevel: 'silent' });
    base = `http://localhost:${port}`;
  });

  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => api?.close(resolve));
    rmSync(outDir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('serves every static answer with exactly the headers _headers gives its path', async () => {
    for (const p of ['/', '/index.html', '/plans/5f0c6a8e-1d2b-4c3d-9e8f-0a1b2c3d4e5f', '/no/such/page', '/assets/index-abc123.js', '/_headers']) {
      const res = await fetch(`${base}${p}`);
      await res.arrayBuffer();
      expect(res.status, p).toBe(200);
      const want = headersFor(rules, p);
      expect(want.size, p).toBeGreaterThan(0);
      for (const [name, value] of want) expect(res.headers.get(name), `${name} of ${p}`).toBe(value);
    }
  });

  it('keeps them on a 304', async () => {
    const first = await fetch(`${base}/assets/index-abc123.js`);
    await first.arrayBuffer();
    const again = await fetch(`${base}/assets/index-abc123.js`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(again.headers.get('content-security-policy')).toBe(page.get('content-security-policy'));
  });

  it('adds none of them to the API it proxies (as a static host does not)', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(await res.text()).toBe('{}');
    expect(res.headers.get('x-from')).toBe('api');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('permissions-policy')).toBeNull();
  });
});

// The static deploy's response headers, from ONE source: web/public/_headers
// (Netlify's and Cloudflare Pages' syntax), which the build copies into the
// output. This module reads that syntax, answers which headers a path gets,
// and is a Vite plugin that
//   - at build, adds to the shipped file's connect-src what the app is built to
//     connect to besides its own origin (Supabase Realtime, an API elsewhere), and
//   - in `vite preview` (the end-to-end tests' server), serves every static
//     answer with the headers the BUILT _headers gives its path,
// so the tests run under exactly the headers a deploy ships
// (docs/headers.md "The web app").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const HEADERS_FILE = '_headers';

interface HeaderRule {
  /** The path pattern as written: `/*`, `/assets/*`, `/plans/:id`. */
  path: string;
  /** Header names in lower case, in file order. */
  headers: Map<string, string>;
}

/**
 * Parse a `_headers` file: a line starting with `/` opens a rule for that
 * path pattern; indented `Name: value` lines are its headers; `#` starts a
 * comment line. A header repeated within a rule is joined with ", " (as the
 * hosts do). Anything else is an error, so a typo cannot silently drop a header.
 */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trimEnd();
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const where = `${HEADERS_FILE} line ${index + 1}`;
    if (!/^\s/.test(line)) {
      if (!line.startsWith('/') || /\s/.test(line)) throw new Error(`${where}: a rule starts with a path such as /* (got "${line}")`);
      rules.push({ path: line, headers: new Map() });
      return;
    }
    const rule = rules.at(-1);
    const match = /^([A-Za-z0-9-]+):\s*(.+)$/.exec(trimmed);
    if (!rule || !match) throw new Error(`${where}: expected an indented "Name: value" under a path (got "${trimmed}")`);
    const name = match[1]!.toLowerCase();
    const before = rule.headers.get(name);
    rule.headers.set(name, before === undefined ? match[2]! : `${before}, ${match[2]}`);
  });
  return rules;
}

/** A path pattern as a RegExp: `*` matches anything (slashes too), `:name` one segment. */
export function pathPattern(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The headers a request path gets: those of every matching rule, in file order; a name twice is joined with ", ". */
export function headersFor(rules: HeaderRule[], pathname: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const rule of rules) {
    if (!pathPattern(rule.path).test(pathname)) continue;
    for (const [name, value] of rule.headers) {
      const before = result.get(name);
      result.set(name, before === undefined ? value : `${before}, ${value}`);
    }
  }
  return result;
}

/** `https://x.supabase.co` -> the origins Supabase Realtime needs in connect-src (its REST origin and its WebSocket). */
export function realtimeSources(supabaseUrl: string): string[] {
  const url = new URL(supabaseUrl);
  return [url.origin, `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`];
}

/**
 * What the app built with these settings connects to besides its own origin
 * (web/src/config/env.ts): the API on another origin (VITE_API_BASE_URL), and
 * Supabase Realtime when both VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY are set.
 */
export function connectSources(env: Record<string, string | undefined>): string[] {
  const sources: string[] = [];
  if (env.VITE_API_BASE_URL) sources.push(new URL(env.VITE_API_BASE_URL).origin);
  if (env.VITE_SUPABASE_URL && env.VITE_SUPABASE_ANON_KEY) sources.push(...realtimeSources(env.VITE_SUPABASE_URL));
  return [...new Set(sources)];
}

/** The file with `sources` added to connect-src of every Content-Security-Policy in it. */
export function withConnectSources(text: string, sources: string[]): string {
  let found = 0;
  const out = text.replace(/^(\s+Content-Security-Policy:\s*)(.+)$/gim, (_line, head: string, policy: string) => {
    const directives = policy.split(';').map((d) => d.trim());
    const at = directives.findIndex((d) => /^connect-src\s/i.test(d));
    if (at < 0) throw new Error(`${HEADERS_FILE}: the Content-Security-Policy has no connect-src to add ${sources.join(' ')} to`);
    found++;
    const present = directives[at]!.split(/\s+/);
    directives[at] = [...present, ...sources.filter((s) => !present.includes(s))].join(' ');
    return head + directives.filter(Boolean).join('; ');
  });
  if (found === 0) throw new Error(`${HEADERS_FILE}: no Content-Security-Policy found`);
  return out;
}

/** Answers the static host would not give these headers: the API, which the host proxies to the function. */
export const isProxied = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

export function staticHeaders(): Plugin {
  let outDir = '';
  let extraSources: string[] = [];
  return {
    name: 'hangplan:static-headers',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      extraSources = connectSources(config.env);
    },
    writeBundle(options) {
      if (extraSources.length === 0) return;
      // The public folder is copied before the bundle is written: rewrite the copy.
      const file = path.join(options.dir ?? outDir, HEADERS_FILE);
      writeFileSync(file, withConnectSources(readFileSync(file, 'utf8'), extraSources));
    },
    configurePreviewServer(server) {
      // Read once from the build being served; a build without it fails here, loudly.
      const rules = parseHeadersFile(readFileSync(path.join(outDir, HEADERS_FILE), 'utf8'));
      server.middlewares.use((req, res, next) => {
        const pathname = new URL(req.url ?? '/', 'http://preview').pathname;
        if (!isProxied(pathname)) for (const [name, value] of headersFor(rules, pathname)) res.setHeader(name, value);
        next();
      });
    },
  };
}

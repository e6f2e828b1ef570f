// The client's network, for the per-IP abuse limits (docs/security-and-limits.md "Abuse limits",
// "Client IP").
//
// Behind a proxy the socket address is the proxy's, so the client's address
// comes from the forwarding header the platform sets: X-Forwarded-For by
// default (Supabase's gateway sets it for Edge Functions; locally, Vite's
// proxy of `npm start` does). A client can send that header itself, and
// proxies APPEND to it, so only entries added by our own proxies can be
// trusted: the one TRUSTED_PROXY_HOPS from the right (default 1: the last
// entry, written by the proxy in front of the function). Without the header,
// or with fewer entries than that, the socket address is used (a direct
// connection: the tests, `deno serve` without a proxy).
//
//   CLIENT_IP_HEADER    the header to read (default x-forwarded-for); `none`
//                       uses the socket address only. A single-value header
//                       (e.g. cf-connecting-ip) works too.
//   TRUSTED_PROXY_HOPS  how many proxies in front of the function append to
//                       it (default 1).
//
// IPv6 clients are limited per /64 (one subscriber's usual allocation: a
// client can pick any address inside it), IPv4-mapped IPv6 as IPv4. The
// sign-in limits also count per site, an IPv6 /56 (256 /64s, what one customer
// is often given), so a stranger with a whole /56 is one source, not 256.
import type { Context } from 'hono';
import { readEnv } from '../config/env.ts';

interface ClientIpConfig {
  header: string | null;
  hops: number;
}

function clientIpConfig(): ClientIpConfig {
  const header = (readEnv('CLIENT_IP_HEADER') ?? 'x-forwarded-for').toLowerCase();
  const hops = Number(readEnv('TRUSTED_PROXY_HOPS') ?? 1);
  return { header: header === 'none' ? null : header, hops: Number.isInteger(hops) && hops >= 1 ? hops : 1 };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The 8 hextets of an IPv6 address (an IPv4 tail allowed: '::ffff:1.2.3.4'), or null. */
function ipv6Hextets(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.includes('.', lastColon)) {
    const v4 = text.slice(lastColon + 1);
    if (!IPV4.test(v4)) return null;
    const [a, b, c, d] = v4.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const count = head.length + rest.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const zeros: number[] = halves.length === 2 ? Array(8 - count).fill(0) : [];
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16))];
}

/**
 * The limit key of an address: IPv4 as is, IPv6 as its /64 ('2001:db8:1:2::/64'),
 * IPv4-mapped IPv6 as the IPv4. Ports and brackets are dropped. Null when the
 * text is not an address (a forged header must not mint fresh keys).
 */
export function networkKey(raw: string | undefined | null): string | null {
  let text = (raw ?? '').trim();
  if (!text) return null;
  // [v6]:port, [v6]
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  // v4:port
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  if (IPV4.test(text)) return text;
  const hextets = ipv6Hextets(text);
  if (!hextets) return null;
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join('.');
  }
  return `${hextets.slice(0, 4).map((h) => h.toString(16)).join(':')}::/64`;
}

/** The client's network key from the headers and the socket address; 'unknown' when neither names one. */
export function clientNetwork(headers: Headers, remoteAddress: string | undefined, config = clientIpConfig()): string {
  if (config.header) {
    const value = headers.get(config.header);
    if (value) {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.length >= config.hops) {
        const key = networkKey(entries[entries.length - config.hops]);
        if (key) return key;
      }
    }
  }
  return networkKey(remoteAddress) ?? 'unknown';
}

/**
 * The site of a network key: an IPv6 /64 key's /56 ('2001:db8:1:200::/56');
 * null for IPv4 (one address is already the smallest thing a client holds)
 * and for 'unknown'.
 */
export function siteKey(network: string): string | null {
  const match = /^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4})::\/64$/.exec(network);
  if (!match) return null;
  const fourth = parseInt(match[4], 16) & 0xff00;
  return `${match[1]}:${match[2]}:${match[3]}:${fourth.toString(16)}::/56`;
}

/** What the function's handler passes to the app as Hono's `env` (handler.ts). */
export interface ConnectionInfo {
  remoteAddress?: string;
}

/** The client's network key of a request (see clientNetwork). */
export function requestNetwork(c: Context): string {
  const env = c.env as ConnectionInfo | undefined;
  return clientNetwork(c.req.raw.headers, env?.remoteAddress);
}

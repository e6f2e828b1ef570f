const DEFAULT_RETURN_TO = '/home';
// Never resolved: only used to tell a same-site path from anything else.
const PROBE_ORIGIN = 'https://hangplan.invalid';

function hasControlOrSpace(text: string): boolean {
  return Array.from(text).some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f);
}

/**
 * A returnTo that is safe to navigate to: a path on this site starting with a
 * single '/'. Anything else (absolute URLs, '//host', '/\host', control
 * characters) gives /home, which prevents open redirects.
 */
export function sanitizeReturnTo(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return DEFAULT_RETURN_TO;
  // Browsers read '\' as '/' and drop tabs and newlines, so '/\evil.com' or
  // '/\t/evil.com' would leave the site.
  if (raw.includes('\\') || hasControlOrSpace(raw)) return DEFAULT_RETURN_TO;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_RETURN_TO;
  return `${url.pathname}${url.search}${url.hash}`;
}

// Spec §5: URLs in a location are found by an http(s) pattern. Only http and
// https become links, so a 'javascript:' text can never be clicked.

type TextPart = { kind: 'text'; text: string } | { kind: 'url'; text: string };

const URL_PATTERN = /https?:\/\/[^\s<>"]+/gi;
// Punctuation that ends a sentence rather than the URL: "see https://x.co/a."
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;

/** Drops a closing bracket that has no opening partner inside the URL. */
function trimUnbalancedClosers(url: string): string {
  let result = url;
  for (const [open, close] of [['(', ')'], ['[', ']']] as const) {
    while (result.endsWith(close) && result.split(close).length > result.split(open).length) {
      result = result.slice(0, -1).replace(TRAILING_PUNCTUATION, '');
    }
  }
  return result;
}

function cleanUrl(raw: string): string {
  return trimUnbalancedClosers(raw.replace(TRAILING_PUNCTUATION, ''));
}

/** Splits text into plain runs and http(s) URLs, in order, losing nothing. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = cleanUrl(match[0]);
    if (!/^https?:\/\/[^/?#]/i.test(url)) continue;
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'url', text: url });
    last = match.index + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

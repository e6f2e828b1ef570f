// Text hygiene (docs/security-and-limits.md "Text rules"): what user text may contain,
// in one place for the API's validation and for everything that writes user
// text into a calendar file or an e-mail.
//
// Pure: no Deno, Node or DOM API, so the web app imports it too (calendar.ts).
//
//   * Control characters (C0, DEL, C1, and the Unicode line/paragraph
//     separators) are refused inside a field, except `\n` in multi-line
//     fields; CR LF and a lone CR there become `\n`. Leading and trailing
//     whitespace (which includes a stray CR or LF) is trimmed first.
//   * Invisible characters that make look-alikes or reorder what is shown are
//     removed: zero-width characters, bidi embeddings/overrides/isolates, word
//     joiners and invisible operators, the BOM. In free text ZWNJ/ZWJ
//     (U+200C/D: emoji sequences, Persian and Indic scripts) and LRM/RLM
//     (U+200E/F: marks that reorder nothing) stay; in names everything goes.
//   * Everything is NFC-normalised (one stored form for 'é' typed either way).
//   * Names (guest names, profile names, interests) also collapse runs of any
//     whitespace to one space, so 'Sam  Lee' and 'Sam\u00A0Lee' are 'Sam Lee'.

/** How a field is cleaned. */
export type TextKind = 'line' | 'multiline' | 'name';

/** Every invisible format character removed from names (U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+FEFF). */
const INVISIBLE_IN_NAMES = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** The same minus ZWNJ/ZWJ and LRM/RLM, which free text needs (emoji, scripts, right-to-left marks). */
const INVISIBLE_IN_TEXT = /[\u200B\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** C0 controls, DEL, C1 controls, U+2028/U+2029. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
/** The same but `\n` is allowed. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_IN_MULTILINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/;

/** Lone UTF-16 surrogates cannot be stored as UTF-8 (what String.prototype.isWellFormed tells). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type CleanResult = { ok: true; value: string } | { ok: false; problem: 'control' | 'malformed' };

/** Remove the invisible characters of `kind` (names lose all of them). */
export function stripInvisible(value: string, kind: TextKind = 'line'): string {
  return value.replace(kind === 'name' ? INVISIBLE_IN_NAMES : INVISIBLE_IN_TEXT, '');
}

/**
 * A field's value as stored: trimmed, line breaks unified (multi-line),
 * invisible characters removed, NFC, whitespace collapsed (names). Refuses
 * control characters ('control') and lone surrogates ('malformed').
 */
export function cleanText(raw: string, kind: TextKind): CleanResult {
  if (LONE_SURROGATE.test(raw)) return { ok: false, problem: 'malformed' };
  let value = raw.trim();
  if (kind === 'multiline') value = value.replace(/\r\n?|[\u2028\u2029]/g, '\n');
  if ((kind === 'multiline' ? CONTROL_IN_MULTILINE : CONTROL_IN_LINE).test(value)) return { ok: false, problem: 'control' };
  value = stripInvisible(value, kind).normalize('NFC');
  if (kind === 'name') value = value.replace(/\s+/g, ' ');
  return { ok: true, value: value.trim() };
}

/** The sentence for a refused field: 'Title must not contain control characters'. */
export function cleanTextProblem(label: string, problem: 'control' | 'malformed'): string {
  return problem === 'control' ? `${label} must not contain control characters` : `${label} must be valid text`;
}

// Every control character but `\n` (and, in one-line output, `\n` too).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ANY_CONTROL_BUT_LF = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;

/**
 * User text on its way into a calendar file or an e-mail, whatever the
 * database holds (older rows predate the rules above): CR LF and CR become
 * `\n` (or, with `multiline: false`, every line break and run of whitespace
 * becomes one space), every other control character and the invisible
 * characters are dropped, NFC. Never refuses: this is output, not input.
 */
export function plainText(value: string, { multiline = false }: { multiline?: boolean } = {}): string {
  let text = value.replace(/[\uD800-\uDFFF]/g, (ch, index: number, all: string) => {
    // Keep well-formed pairs, drop lone halves.
    const code = ch.charCodeAt(0);
    if (code <= 0xdbff) return /[\uDC00-\uDFFF]/.test(all[index + 1] ?? '') ? ch : '';
    return /[\uD800-\uDBFF]/.test(all[index - 1] ?? '') ? ch : '';
  });
  text = text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(ANY_CONTROL_BUT_LF, '');
  text = stripInvisible(text, 'line').normalize('NFC');
  if (!multiline) return text.replace(/\s+/g, ' ').trim();
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML (element content and quoted attributes): e-mails, the link page's head. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

// What the link-preview picture says (docs/decisions/0106-the-picture.md): the
// card's title, its status line and the host's first name, and nothing else,
// cleaned down to the characters the shipped fonts draw. Pure: the route, the
// unit tests and the API test's check of the drawing's inputs all use it.
import {
  GENERIC_PREVIEW_DESCRIPTION,
  GENERIC_PREVIEW_TITLE,
  type LinkPreview,
} from '../../../_shared/contract/previews.ts';
import assets from './picture-assets.json' with { type: 'json' };

/** The drawing's only inputs. */
export interface PictureText {
  /** Drawn large, up to three lines. */
  title: string;
  /** The status line (or nothing), up to two lines. */
  line: string;
  /** "Hosted by {host}" at the foot, or no foot. */
  host: string | null;
}

/**
 * The generic picture (details off): the app's promise in place of a plan.
 * The same for every plan, so it is drawn once per instance.
 */
export const GENERIC_PICTURE: PictureText = { title: GENERIC_PREVIEW_DESCRIPTION, line: '', host: null };

/**
 * Longest text handed to the layout, in characters (after cleaning): titles
 * are 120 at most and status lines about as long, so this only bounds the
 * drawing's work; what does not fit its lines ends with an ellipsis.
 */
export const MAX_PICTURE_CHARS = 240;

/** 'U+0000-00FF,U+0131' -> [[0x0, 0xff], [0x131, 0x131]]. */
export function parseUnicodeRanges(spec: string): Array<[number, number]> {
  return spec.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = Number.parseInt(from!, 16);
    return [start, to === undefined ? start : Number.parseInt(to, 16)];
  });
}

/**
 * Every code point one of the shipped font subsets has a glyph for (in both
 * weights), merged and sorted. picture-assets.json lists them per subset: the
 * subset's Fontsource unicode-range less what the font lacks (picture.test.ts
 * reads the fonts' glyph tables and holds the list to exactly that).
 */
const COVERED: ReadonlyArray<[number, number]> = (() => {
  const ranges = Object.values(assets.subsets as Record<string, string>)
    .flatMap(parseUnicodeRanges)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
})();

/** True when a shipped font has a glyph for this code point. */
export function isCovered(codePoint: number): boolean {
  let low = 0;
  let high = COVERED.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = COVERED[middle]!;
    if (codePoint < start) high = middle - 1;
    else if (codePoint > end) low = middle + 1;
    else return true;
  }
  return false;
}

/** Stands for a dropped character while the text is tidied (private use: never in the cleaned input). */
const DROPPED = '\u{E000}';
const INVISIBLE = /^[\p{Cf}\p{Cn}\p{Co}\p{Cs}]$/u;
const BREAK = /^[\s\p{Cc}]$/u;
const MARK = /^\p{M}$/u;

/**
 * The text as the fonts can draw it, on one line: NFC; line breaks, tabs and
 * other spaces become one space; invisible format characters (zero-width
 * joiners, variation selectors' kin, bidi controls, emoji tags) go; a mark the
 * fonts lack goes silently (its base stays); any other character they lack (an
 * emoji, a flag's letters, a script not shipped) goes as a word boundary, and
 * no space is left before the punctuation that followed it. Never a box.
 */
export function cleanText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (BREAK.test(char)) out += ' ';
    else if (INVISIBLE.test(char)) continue;
    else if (isCovered(codePoint)) out += char;
    else if (!MARK.test(char)) out += DROPPED;
  }
  return out
    .replace(/\s*\u{E000}+\s*(?=[!?.,;:…)\]]|$)/gu, '')
    .replace(/\s*\u{E000}+\s*/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** At most `max` characters (code points), cut at a word where one is near, ending with '…'. */
export function clip(text: string, max = MAX_PICTURE_CHARS): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > head.length * 0.6 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * The picture's text from the card: details off is the generic picture; a
 * title with nothing drawable left is the app's name.
 */
export function pictureText(card: LinkPreview): PictureText {
  if (!card.previewDetails) return GENERIC_PICTURE;
  const host = card.hostFirstName ? clip(cleanText(card.hostFirstName), 40) : '';
  return {
    title: clip(cleanText(card.title)) || GENERIC_PREVIEW_TITLE,
    line: clip(cleanText(card.description)),
    host: host || null,
  };
}

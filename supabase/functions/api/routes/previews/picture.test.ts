// The picture's pure parts (docs/decisions/0106-the-picture.md): the text
// cleaned to what the shipped fonts draw (the fonts' glyph tables are
// checked in scripts/preview-assets.test.ts), the picture's inputs from a card, the layout's lines, the
// copies and their single flight, and If-None-Match.
import { describe, expect, it } from 'vitest';
import { type LinkPreview } from '../../../_shared/contract/previews.ts';
import { pictureTree, titleSize } from './draw.ts';
import { PictureCache, RECHECK_MS } from './picture-cache.ts';
import { cleanText, clip, GENERIC_PICTURE, isCovered, MAX_PICTURE_CHARS, pictureText } from './picture-text.ts';
import { matchesEtag, pictureEtag } from './picture.ts';

const card = (over: Partial<LinkPreview> = {}): LinkPreview => ({
  previewDetails: true,
  title: 'Ramen night',
  description: 'Hana wants to hang out. Suggest ideas and vote on dates.',
  hostFirstName: 'Hana',
  image: '/api/plans/slug/abcdefghijkl/preview.png?v=3',
  imageAlt: 'Ramen night: Hana wants to hang out.',
  version: '3',
  ...over,
});

describe('cleanText', () => {
  it('keeps accents, Latin Extended, Vietnamese, Greek and Cyrillic as they are (NFC)', () => {
    for (const text of ['Café Zürich', 'Łódź, Kraków, Šibenik, Ærøskøbing', 'Nguyễn Thị Hương', 'Αθήνα ωραία', 'Москва, Київ, Ґанок', 'Straße €5 – “quoted” …']) {
      expect(cleanText(text)).toBe(text);
    }
    expect(cleanText('Cafe\u0301')).toBe('Café');
  });

  it('drops emoji whole, with their joiners, variation selectors, skin tones and tags; flags too', () => {
    expect(cleanText('Pizza 🍕 night')).toBe('Pizza night');
    expect(cleanText('Family 👨‍👩‍👧‍👦 picnic')).toBe('Family picnic');
    expect(cleanText('Wave 👋🏽 hello')).toBe('Wave hello');
    expect(cleanText('Trip 🇯🇵🇫🇷 soon')).toBe('Trip soon');
    expect(cleanText('England 🏴󠁧󠁢󠁥󠁮󠁧󠁿 match')).toBe('England match');
    expect(cleanText('Love ❤️ it')).toBe('Love it');
    expect(cleanText('🎉Party🎉!')).toBe('Party!');
    expect(cleanText('Drinks 🍻!')).toBe('Drinks!');
    expect(cleanText('Keycap 1️⃣ first')).toBe('Keycap 1 first');
    expect(cleanText('🎉🎂🍰')).toBe('');
  });

  it('a script the fonts lack goes as a word; invisible and control characters go; spaces collapse to one line', () => {
    expect(cleanText('Tokyo 東京 trip')).toBe('Tokyo trip');
    expect(cleanText('a\u200bb\u200e\u202ec\ufeff')).toBe('abc');
    expect(cleanText('  one\n\ttwo\r\n\u00a0three\u2003 ')).toBe('one two three');
    expect(cleanText('bell\u0007s')).toBe('bell s');
    expect(cleanText('private \ue000 use')).toBe('private use');
  });

  it('leaves nothing the fonts cannot draw, whatever the input', () => {
    const samples = ['x\u{1F600}y', 'a\u0489b', '\u{10FFFF}', '\u0300start', 'ok\uD800', 'ａｂｃ', '℃ ℹ ♥ ☺'];
    for (const sample of samples) {
      for (const char of cleanText(sample)) expect(isCovered(char.codePointAt(0)!), `${sample}: U+${char.codePointAt(0)!.toString(16)}`).toBe(true);
    }
  });
});

describe('pictureText', () => {
  it('the title, the status line and the host\'s first name, cleaned; nothing else of the card', () => {
    expect(pictureText(card({ title: 'Ramen 🍜 night', hostFirstName: 'Hana✨' }))).toEqual({
      title: 'Ramen night',
      line: 'Hana wants to hang out. Suggest ideas and vote on dates.',
      host: 'Hana',
    });
    expect(pictureText(card({ hostFirstName: null })).host).toBeNull();
    expect(pictureText(card({ hostFirstName: '🎉' })).host).toBeNull();
  });

  it('details off is the generic picture; a title with nothing drawable left is the app\'s name', () => {
    expect(pictureText(card({ previewDetails: false }))).toBe(GENERIC_PICTURE);
    expect(pictureText(card({ title: '🎉🎂' })).title).toBe('Hangplan');
  });

  it('long text is clipped at a word, with an ellipsis, before the layout clamps its lines', () => {
    const long = 'word '.repeat(100).trim();
    const clipped = pictureText(card({ title: long })).title;
    expect(Array.from(clipped).length).toBeLessThanOrEqual(MAX_PICTURE_CHARS);
    expect(clipped).toMatch(/word…$/);
    expect(clip('x'.repeat(300))).toBe(`${'x'.repeat(MAX_PICTURE_CHARS - 1)}…`);
    expect(clip('short')).toBe('short');
  });
});

describe('pictureTree', () => {
  it('clamps the title to three lines and the status line to two, breaking long words, at the text column\'s width', () => {
    const tree = JSON.stringify(pictureTree({ title: 'T', line: 'L', host: 'Hana' }));
    expect(tree).toContain('"lineClamp":3');
    expect(tree).toContain('"lineClamp":2');
    expect(tree).toContain('"wordBreak":"break-word"');
    expect(tree).toContain('"width":1008');
    expect(tree).toContain('Hosted by Hana');
    expect(JSON.stringify(pictureTree({ title: 'T', line: '', host: null }))).not.toContain('Hosted by');
  });

  it('smaller type for longer titles', () => {
    const sizes = [10, 50, 90, 200].map((n) => titleSize('x'.repeat(n)));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(new Set(sizes).size).toBe(4);
  });
});

describe('PictureCache', () => {
  function counting() {
    const calls: string[] = [];
    const gates: Array<() => void> = [];
    const cache = new PictureCache<string>(
      (text) => {
        calls.push(text);
        return new Promise((resolve) => gates.push(() => resolve(new TextEncoder().encode(text))));
      },
      2,
      1024,
    );
    return { cache, calls, release: () => gates.splice(0).forEach((open) => open()) };
  }

  it('concurrent requests for a version not drawn yet share one drawing; then the copy answers', async () => {
    const { cache, calls, release } = counting();
    const waiting = [cache.picture('a', '1', 'a1'), cache.picture('a', '1', 'a1'), cache.picture('a', '1', 'a1')];
    release();
    const pngs = await Promise.all(waiting);
    expect(calls).toEqual(['a1']);
    expect(new Set(pngs).size).toBe(1);
    expect(await cache.picture('a', '1', 'a1')).toBe(pngs[0]);
    expect(cache.held('a')?.version).toBe('1');
    expect(cache.drawings).toBe(1);
  });

  it('a new version is drawn again; an older drawing finishing late never replaces a newer copy', async () => {
    const { cache, calls, release } = counting();
    const old = cache.picture('a', '1', 'old');
    const fresh = cache.picture('a', '2', 'new');
    const gatesFresh = release;
    gatesFresh();
    await Promise.all([fresh, old]);
    expect(calls).toEqual(['old', 'new']);
    expect(cache.held('a')?.version).toBe('2');
  });

  it('bounded: the least recently used goes first', async () => {
    const { cache, release } = counting();
    for (const slug of ['a', 'b']) {
      const drawing = cache.picture(slug, '1', slug);
      release();
      await drawing;
    }
    cache.held('a');
    const c = cache.picture('c', '1', 'c');
    release();
    await c;
    expect(cache.held('b')).toBeUndefined();
    expect(cache.held('a')?.version).toBe('1');
  });

  it('a failed drawing is not kept: the next request draws again', async () => {
    let fail = true;
    const cache = new PictureCache<string>(async () => {
      if (fail) throw new Error('no wasm');
      return new Uint8Array([1]);
    }, 2, 1024);
    await expect(cache.picture('a', '1', 'a')).rejects.toThrow('no wasm');
    fail = false;
    expect(await cache.picture('a', '1', 'a')).toEqual(new Uint8Array([1]));
    expect(cache.drawings).toBe(2);
  });
});

describe('PictureCache: a copy confirmed a moment ago', () => {
  function clocked() {
    let now = 0;
    const cache = new PictureCache<string>(async (text) => new TextEncoder().encode(text), 4, 1024, () => now);
    return { cache, tick: (ms: number) => (now += ms) };
  }

  it('is served without asking the database for RECHECK_MS, then must be confirmed again', async () => {
    const { cache, tick } = clocked();
    await cache.picture('a', '5', 'a5');
    expect(cache.fresh('a', undefined)?.version).toBe('5');
    expect(cache.fresh('a', '5')?.version).toBe('5');
    tick(RECHECK_MS - 1);
    expect(cache.fresh('a', '5')).toBeDefined();
    tick(1);
    expect(cache.fresh('a', '5')).toBeUndefined();
    cache.confirm(cache.held('a')!);
    expect(cache.fresh('a', '5')).toBeDefined();
    expect(cache.fresh('b', undefined)).toBeUndefined();
  });

  it('never for a URL naming a newer version than the copy\'s; an older or unreadable one gets the copy', async () => {
    const { cache } = clocked();
    await cache.picture('a', '5', 'a5');
    expect(cache.fresh('a', '6')).toBeUndefined();
    expect(cache.fresh('a', '40')).toBeUndefined();
    expect(cache.fresh('a', '4')?.version).toBe('5');
    expect(cache.fresh('a', 'x')?.version).toBe('5');
  });
});

describe('the ETag', () => {
  it('names the plan version and the drawing; If-None-Match matches it weak or strong, in a list, or *', () => {
    const etag = pictureEtag('12');
    expect(etag).toBe('"v12-p1"');
    for (const header of [etag, `W/${etag}`, `"x", ${etag}`, '*']) expect(matchesEtag(header, etag)).toBe(true);
    for (const header of [undefined, '', '"v12"', 'W/"v12"', '"v13-p1"', '"v12-p0"']) expect(matchesEtag(header, etag)).toBe(false);
  });
});

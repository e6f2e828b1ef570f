// The link-preview picture's files (scripts/preview-assets.mjs,
// docs/decisions/0106-the-picture.md): every file the function reads is
// copied, and picture-assets.json's list of what each font subset draws is
// exactly what the fonts' glyph tables hold, so the text cleaning keeps only
// characters that are drawn (never a box).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import assets from '../supabase/functions/api/routes/previews/picture-assets.json' with { type: 'json' };
import { parseUnicodeRanges } from '../supabase/functions/api/routes/previews/picture-text.ts';
import { ensurePreviewAssets, previewAssetFiles } from './preview-assets.mjs';
import { ROOT } from './lib/root.ts';

describe('the picture\'s files', () => {
  it('are all in place after ensurePreviewAssets, copied from node_modules', () => {
    ensurePreviewAssets();
    expect(ensurePreviewAssets()).toBe(0);
    const files = previewAssetFiles();
    expect(files.length).toBe(2 + Object.keys(assets.subsets).length * assets.weights.length);
    for (const [from, to] of files) {
      expect(existsSync(to), to).toBe(true);
      expect(readFileSync(to).equals(readFileSync(from)), to).toBe(true);
    }
  });
  // opentype.js comes with satori (not typed for this project's tsc).
  const load = async () => {
    const name: string = '@shuding/opentype.js';
    return (await import(name)) as { parse(buffer: ArrayBuffer): { charToGlyphIndex(char: string): number } };
  };

  it('picture-assets.json lists exactly the code points of each subset that both weights have a glyph for', async () => {
    const opentype = await load();
    const dir = path.join(ROOT, 'supabase/functions/api/routes/previews', assets.folder);
    // What Fontsource says each subset is for (its CSS unicode-range), as read from the package.
    const css = readFileSync(path.join(ROOT, 'node_modules', assets.fontPackage, '400.css'), 'utf8');
    for (const [subset, listed] of Object.entries(assets.subsets)) {
      const range = new RegExp(`/\\* noto-sans-${subset}-400-normal \\*/[^}]*unicode-range: ([^;]+);`).exec(css)![1]!;
      const fonts = assets.weights.map((weight) => {
        const bytes = readFileSync(path.join(dir, `noto-sans-${subset}-${weight}-normal.woff`));
        return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      });
      const drawn: number[] = [];
      for (const [start, end] of parseUnicodeRanges(range)) {
        for (let codePoint = start; codePoint <= end; codePoint++) {
          if (fonts.every((font) => font.charToGlyphIndex(String.fromCodePoint(codePoint)) !== 0)) drawn.push(codePoint);
        }
      }
      const listedPoints = parseUnicodeRanges(listed).flatMap(([start, end]) => Array.from({ length: end - start + 1 }, (_, i) => start + i));
      expect(listedPoints, subset).toEqual(drawn);
    }
  });
});


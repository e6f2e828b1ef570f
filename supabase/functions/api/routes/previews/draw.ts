// Drawing the link-preview picture (docs/decisions/0106-the-picture.md):
// PictureText -> a layout tree (pure, pictureTree) -> SVG (satori, text as
// glyph paths from the shipped Noto Sans subsets) -> PNG (resvg in wasm).
// The wasm and the fonts are files beside this module (assets/, copied from
// node_modules by scripts/preview-assets.mjs and bundled on deploy by
// supabase/config.toml `static_files`); they are read and the wasm started once
// per instance, on the first drawing. Nothing is fetched at run time.
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from '../../../_shared/contract/previews.ts';
import assets from './picture-assets.json' with { type: 'json' };
import type { PictureText } from './picture-text.ts';

/** The app's look in light colours (Mantine violet, web/src/app/theme.ts). */
const VIOLET = '#7048e8';
const VIOLET_DARK = '#5f3dc4';
const INK = '#212529';
const MUTED = '#495057';

/** One family per font subset, each in the two weights drawn. */
const FONT_FILES = Object.keys(assets.subsets).flatMap((subset) =>
  assets.weights.map((weight) => ({
    family: familyOf(subset),
    weight: weight as 400 | 700,
    file: `${assets.fontPackage.split('/').pop()}-${subset}-${weight}-normal.woff`,
  })),
);

function familyOf(subset: string): string {
  return `Noto Sans ${subset.replace(/-/g, ' ')}`;
}

const FAMILIES = Object.keys(assets.subsets)
  .map((subset) => `'${familyOf(subset)}'`)
  .join(', ');

/** A layout node in satori's object form (what JSX would make). */
export interface Node {
  type: string;
  props: { style?: Record<string, string | number>; children?: Node | Node[] | string; [key: string]: unknown };
}

function box(style: Record<string, string | number>, children?: Node | Node[] | string, more?: Record<string, unknown>): Node {
  return { type: 'div', props: { style, children, ...more } };
}

/** The calendar glyph of favicon.svg (scripts/make-icons.ts), white on violet. */
function logo(size: number): Node {
  const dot = (cx: number): Node => ({ type: 'circle', props: { cx, cy: 19.5, r: 1.1, fill: '#fff' } });
  return {
    type: 'svg',
    props: {
      width: size,
      height: size,
      viewBox: '0 0 32 32',
      children: [
        { type: 'rect', props: { width: 32, height: 32, rx: 7, fill: VIOLET } },
        {
          type: 'g',
          props: {
            transform: 'translate(4 4) scale(0.75)',
            fill: 'none',
            stroke: '#fff',
            strokeWidth: 2.5,
            strokeLinecap: 'round',
            children: [
              { type: 'rect', props: { x: 7, y: 9, width: 18, height: 16, rx: 3 } },
              { type: 'path', props: { d: 'M7 14h18M12 6v5M20 6v5' } },
              dot(12),
              dot(16),
              dot(20),
            ],
          },
        },
      ],
    },
  };
}

/** The text column: the picture less its side margins. */
const MARGIN = 96;
const TEXT_WIDTH = PREVIEW_WIDTH - 2 * MARGIN;

/** Long titles get a smaller size, so most fit their three lines whole. */
export function titleSize(title: string): number {
  const length = Array.from(title).length;
  if (length <= 32) return 76;
  if (length <= 70) return 64;
  if (length <= 100) return 54;
  return 46;
}

/** The picture's layout: brand, title (3 lines), status line (2 lines), host. */
export function pictureTree(text: PictureText): Node {
  const clamp = (lines: number) => ({ width: TEXT_WIDTH, lineClamp: lines, wordBreak: 'break-word' });
  const children: Node[] = [
    box({ display: 'flex', alignItems: 'center', gap: 20 }, [
      logo(72),
      box({ fontSize: 40, fontWeight: 700, color: VIOLET }, 'Hangplan'),
    ]),
    box({ display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: 'center', gap: 24 }, [
      box({ ...clamp(3), fontSize: titleSize(text.title), fontWeight: 700, lineHeight: 1.15, color: INK }, text.title),
      ...(text.line ? [box({ ...clamp(2), fontSize: 38, lineHeight: 1.3, color: MUTED }, text.line)] : []),
    ]),
  ];
  if (text.host) {
    children.push(box({ ...clamp(1), fontSize: 34, fontWeight: 700, color: VIOLET_DARK }, `Hosted by ${text.host}`));
  }
  return box(
    {
      display: 'flex',
      flexDirection: 'column',
      boxSizing: 'border-box',
      width: PREVIEW_WIDTH,
      height: PREVIEW_HEIGHT,
      padding: `56px ${MARGIN}px 64px`,
      fontFamily: FAMILIES,
      // Flat colours: a gradient made the PNG 3x larger (every row differs).
      backgroundColor: '#f8f6ff',
      borderBottom: `16px solid ${VIOLET}`,
    },
    children,
  );
}

/** Reads one of the picture's files by name (assets/ beside this module). */
export type ReadAsset = (file: string) => Promise<Uint8Array>;

type Runtime = { Deno?: { readFile(path: URL): Promise<Uint8Array> } };

/** Under Deno (the function): the file beside this module, as bundled by static_files. */
const readBeside: ReadAsset = (file) => {
  const deno = (globalThis as unknown as Runtime).Deno;
  if (!deno) throw new Error('readBeside runs under Deno only; pass a ReadAsset');
  return deno.readFile(new URL(`./${assets.folder}/${file}`, import.meta.url));
};

interface Engine {
  fonts: Array<{ name: string; data: ArrayBuffer; weight: 400 | 700; style: 'normal' }>;
}

let engine: Promise<Engine> | undefined;

/** The fonts read and the wasm started, once per instance (a failure is tried again next time). */
function startEngine(read: ReadAsset): Promise<Engine> {
  engine ??= (async () => {
    const [wasm, ...fonts] = await Promise.all([read(assets.wasm.file), ...FONT_FILES.map((font) => read(font.file))]);
    await initWasm(wasm!);
    return {
      fonts: FONT_FILES.map((font, i) => ({ name: font.family, data: new Uint8Array(fonts[i]!).buffer, weight: font.weight, style: 'normal' as const })),
    };
  })().catch((error) => {
    engine = undefined;
    throw error;
  });
  return engine;
}

/** The picture's SVG (text as glyph paths). */
export async function drawSvg(text: PictureText, read: ReadAsset = readBeside): Promise<string> {
  const { fonts } = await startEngine(read);
  // satori's types want a React element; the object form is what JSX makes.
  return await satori(pictureTree(text) as unknown as Parameters<typeof satori>[0], {
    width: PREVIEW_WIDTH,
    height: PREVIEW_HEIGHT,
    fonts,
  });
}

/** The picture as PNG bytes. */
export async function drawPicture(text: PictureText, read: ReadAsset = readBeside): Promise<Uint8Array> {
  const svg = await drawSvg(text, read);
  const resvg = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

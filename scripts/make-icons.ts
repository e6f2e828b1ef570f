// Renders the app icons and the link-preview image from SVG/HTML in the
// installed Chromium (no image tooling needed): `npx tsx scripts/make-icons.ts`.
// The PNGs are committed under web/public; run again only when the artwork changes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ROOT } from './lib/db.ts';

const VIOLET = '#7048e8';
const out = (file: string) => path.join(ROOT, 'web/public', file);

/** The calendar glyph of favicon.svg on violet; `bleed` fills the square (maskable, Apple). */
function iconSvg(bleed: boolean): string {
  // Maskable icons keep their content within the central 80 % circle.
  const glyph = bleed ? 'translate(6.4 6.4) scale(0.6)' : 'translate(4 4) scale(0.75)';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">
  <rect width="32" height="32" rx="${bleed ? 0 : 7}" fill="${VIOLET}"/>
  <g transform="${glyph}" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round">
    <rect x="7" y="9" width="18" height="16" rx="3"/><path d="M7 14h18M12 6v5M20 6v5"/>
    <circle cx="12" cy="19.5" r="1.1" fill="#fff" stroke="none"/><circle cx="16" cy="19.5" r="1.1" fill="#fff" stroke="none"/><circle cx="20" cy="19.5" r="1.1" fill="#fff" stroke="none"/>
  </g>
</svg>`;
}

const ogHtml = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:80px 96px;display:flex;flex-direction:column;justify-content:center;gap:36px;
  background:linear-gradient(135deg,#5f3dc4 0%,${VIOLET} 55%,#9775fa 100%);color:#fff;font-family:system-ui,'Noto Sans',Arial,sans-serif">
  <div style="display:flex;align-items:center;gap:28px">
    <div style="width:120px;height:120px;border-radius:28px;background:#fff;padding:14px;box-sizing:border-box">${iconSvg(false)}</div>
    <div style="font-size:96px;font-weight:800;letter-spacing:-2px">Hangplan</div>
  </div>
  <div style="font-size:52px;font-weight:700;line-height:1.15;max-width:980px">Turn “we should hang out” into a real plan.</div>
  <div style="font-size:32px;opacity:.92">Collect ideas · Find a time that works · Lock it in</div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  const shots: Array<[string, number, boolean]> = [
    ['icons/icon-192.png', 192, false],
    ['icons/icon-512.png', 512, false],
    ['icons/icon-maskable-512.png', 512, true],
    ['icons/apple-touch-icon.png', 180, true],
  ];
  for (const [file, size, bleed] of shots) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${iconSvg(bleed)}</body></html>`);
    await page.screenshot({ path: out(file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  }
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(ogHtml);
  await page.screenshot({ path: out('og-image.png'), clip: { x: 0, y: 0, width: 1200, height: 630 } });
  // A favicon that matches the larger icons.
  writeFileSync(out('favicon.svg'), iconSvg(false).replace(' width="100%" height="100%"', '') + '\n');
} finally {
  await browser.close();
}
console.log('Wrote icons and og-image.png under web/public');

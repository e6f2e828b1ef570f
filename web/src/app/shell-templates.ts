// The <template>s of web/index.html, one per static shell (app/shells.tsx),
// made at build time by web/prerender-shells.ts; public/shell.js picks one.
//
// The Content-Security-Policy forbids style attributes (style-src-attr
// 'none'), and React writes Mantine's style props as such: each is moved into
// the template's <style> as a rule on a data attribute, with !important so it
// still wins over the stylesheets as an inline style does.
import type { Shell } from './shells';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);

/** `html` without style attributes, and the CSS rules that stand for them. */
export function hoistStyleAttributes(html: string, prefix: string): { html: string; css: string } {
  const rules: string[] = [];
  const out = html.replace(/ style="([^"]*)"/g, (_match, style: string) => {
    const id = `${prefix}${rules.length}`;
    const declarations = decode(style)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => `${d} !important`)
      .join(';');
    rules.push(`[data-shell-style="${id}"]{${declarations}}`);
    return ` data-shell-style="${id}"`;
  });
  return { html: out, css: rules.join('') };
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * One <template> per shell, to put before #root, after one <style> with the
 * rules of all of them: a shell copied into the page (public/shell.js, the
 * join page twice: loading, then with its plan) then brings no stylesheet of
 * its own, which would make the browser recompute the styles of the page
 * each time. The rules only match the shells' own `data-shell-style`
 * attributes. `apiBase`: where the API is (VITE_API_BASE_URL, empty for this
 * origin), for shell.js's early plan request. A plan's shell says which plan
 * statuses it is for (`data-plan-statuses`) and the slug its links were
 * rendered with (`data-plan-slug`).
 */
export function shellTemplates(shells: Record<string, Shell>, apiBase = ''): string {
  const rules: string[] = [];
  const templates = Object.entries(shells).map(([name, { markup, planStatuses, planSlug }], index) => {
    const { html, css } = hoistStyleAttributes(markup, `s${index}-`);
    if (css) rules.push(css);
    const plan = planStatuses ? ` data-plan-statuses="${attribute(planStatuses.join(' '))}" data-plan-slug="${attribute(planSlug ?? '')}"` : '';
    return `<template id="shell-${name}" data-api="${attribute(apiBase)}"${plan}>${html}</template>`;
  });
  return [`<style id="shell-styles">${rules.join('')}</style>`, ...templates].join('\n    ');
}

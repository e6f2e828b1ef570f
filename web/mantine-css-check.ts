// A build check for web/src/app/mantine-styles.ts, which imports Mantine's CSS
// per component instead of the whole styles.css: every Mantine class name the
// bundled JavaScript refers to (`m_` and eight hex digits, from each
// component's CSS-module map) must occur in the CSS the build emits. A
// component used without its stylesheet would render unstyled; this makes it
// a build error that names the classes, instead.
import type { Plugin } from 'vite';

const MANTINE_CLASS = /\bm_[0-9a-f]{6,8}\b/g;

/** The Mantine class names `js` refers to that `css` never mentions. */
export function missingMantineClasses(js: string, css: string): string[] {
  const used = new Set(js.match(MANTINE_CLASS) ?? []);
  return [...used].filter((name) => !new RegExp(`\\b${name}\\b`).test(css)).sort();
}

export function mantineCssCheck(): Plugin {
  return {
    name: 'hangplan:mantine-css-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      let js = '';
      let css = '';
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') js += file.code;
        else if (file.fileName.endsWith('.css')) css += String(file.source);
      }
      const missing = missingMantineClasses(js, css);
      if (missing.length > 0) {
        this.error(
          `Mantine classes without CSS: ${missing.join(', ')}. Import the component's stylesheet ` +
            `(@mantine/core/styles/<Component>.css) in web/src/app/mantine-styles.ts.`,
        );
      }
    },
  };
}

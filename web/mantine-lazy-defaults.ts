// Mantine computes the CSS variables of its default theme when its module is
// evaluated (remove-default-variables.mjs: every color's ten shades, each
// converted to rgba, for light and dark), only to compare against them when
// it renders its own variables, which this app never does (MantineProvider
// `withCssVariables={false}`: they are a stylesheet, docs/web-app.md
// "First paint"). On the join page that was a fifth of the entry's evaluation, in
// the task that starts the app (docs/performance.md). The production build
// computes them on first use instead; the build fails if the module no
// longer looks like the one this rewrites, so that an upgrade is looked at.
import type { Plugin } from 'vite';

export const MANTINE_REMOVE_DEFAULT_VARIABLES =
  /[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineCssVariables[\\/]remove-default-variables\.mjs$/;

const EAGER = 'const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);';
const FUNCTION = 'function removeDefaultVariables(input) {';

/** `source` with the default variables computed on the first call of removeDefaultVariables, or null when it is not the module this rewrites. */
export function lazyDefaultVariables(source: string): string | null {
  if (source.split(EAGER).length !== 2 || source.split(FUNCTION).length !== 2) return null;
  return source
    .replace(EAGER, 'let defaultCssVariables;')
    .replace(FUNCTION, `${FUNCTION} defaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME);`);
}

export function mantineLazyDefaults(): Plugin {
  return {
    name: 'hangplan:mantine-lazy-defaults',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!MANTINE_REMOVE_DEFAULT_VARIABLES.test(id.replace(/\?.*$/, ''))) return null;
      const lazy = lazyDefaultVariables(code);
      if (lazy === null) {
        this.error(`${id} does not compute Mantine's default CSS variables as web/mantine-lazy-defaults.ts expects; check that the rewrite still fits this version of @mantine/core`);
      }
      // Same lines: the module's source map still fits.
      return { code: lazy, map: null };
    },
  };
}

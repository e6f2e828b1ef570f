// Light, dark or the phone's own (docs/web-app.md "Dark mode"): the member's
// choice (the profile's Appearance), kept on this device, is Mantine's colour
// scheme, with 'auto' (System) as the default. public/shell.js reads the same
// key before the first paint and sets the same attribute and theme-color, so
// the page never paints in the other scheme first.
import { localStorageColorSchemeManager, type MantineColorScheme } from '@mantine/core';

/** The localStorage key of the choice: 'light', 'dark' or 'auto' (public/shell.js reads it too). */
export const COLOR_SCHEME_KEY = 'colorScheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });

/**
 * The browser's bar in each scheme, as index.html's two `theme-color` metas
 * have them (kept equal by a test): the primary colour in light, the dark
 * body (dark 7, the headers' colour) in dark, so the bar is part of the page.
 */
export const THEME_COLORS = { light: '#7048e8', dark: '#242424' } as const;

/**
 * Points the `theme-color` metas at the chosen scheme: both at its colour
 * when the choice overrides the system, each at its own scheme's (the one
 * its media query names) on System, so the browser picks by the phone.
 */
export function applyThemeColor(choice: MantineColorScheme, doc: Document = document): void {
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const own = meta.getAttribute('media')?.includes('dark') ? 'dark' : 'light';
    meta.content = THEME_COLORS[choice === 'auto' ? own : choice];
  }
}

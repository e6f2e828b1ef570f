import { createTheme, type CSSVariablesResolver, type MantineThemeComponent, type NotificationProps } from '@mantine/core';
import { COLOR_ROLES, type ColorRole } from '../lib/colors';

// The platform's own UI font (San Francisco, Roboto, Segoe UI...): system-ui
// names it on every current browser. A list of those families by name made
// the browser look each one up for every new text style on platforms that
// lack them (the join page's first layout took 2.5x as long on Linux).
const systemFont = 'system-ui, sans-serif';

// Violet 7 (#7048e8) on white is 5.5:1, so filled buttons and links pass WCAG AA
// for normal text. autoContrast picks the label colour of filled components.
// Filled components are shade 7 in both schemes: white on Mantine's dark
// default (5, 4.3:1) fails AA, and autoContrast judges a filled colour by its
// light shade, so one shade keeps its label right in both.
export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: 7,
  autoContrast: true,
  defaultRadius: 'md',
  fontFamily: systemFont,
  headings: { fontFamily: systemFont, fontWeight: '800' },
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    // Toasts: the close button needs a name, and the message Mantine greys with
    // gray 6 (3.3:1) uses the AA dimmed colour instead. A plain object, not
    // Notification.extend(), which would bring the Notification component into
    // every page's first load instead of the toasts' own chunk (app/toaster.tsx).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } satisfies Partial<NotificationProps>,
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    } satisfies MantineThemeComponent,
  },
});

const roles = (values: Record<ColorRole, string>) =>
  Object.fromEntries(Object.entries(values).map(([role, value]) => [COLOR_ROLES[role as ColorRole], value]));

// Mantine's default dimmed grey (gray 6, 3.3:1) and error red (red 6, 3.3:1) fail
// AA on white; these pass (8.2:1, 5.5:1, 3.3:1 for placeholders only). In dark
// (docs/web-app.md "Dark mode"), against the body (dark 7), the page (dark 8),
// a field (dark 6) and the tints (the colours' `light` variant, Mantine's own
// dark tint): Mantine's dimmed (dark 2, 3.5:1 on a field), error (red 8,
// 3.4:1) and anchor (violet 4, 4.0:1 on a field) fail AA; dark 1, red 4 and
// violet 3 pass on all of them (5.4:1, 4.7:1, 4.5:1 at the least, on a
// selected tint). theme.test.ts checks every pair.
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    // Red outline/light/subtle text (red 6, 3.8:1) fails AA: red 9 is 6.4:1.
    '--mantine-color-red-outline': 'var(--mantine-color-red-9)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-red-text': 'var(--mantine-color-red-9)',
    // Teal outline text (teal 7, 2.9:1) likewise: teal 9 is 5:1.
    '--mantine-color-teal-outline': 'var(--mantine-color-teal-9)',
    ...roles({
      page: 'var(--mantine-color-gray-0)',
      tint: 'var(--mantine-color-violet-0)',
      tintSelected: 'var(--mantine-color-violet-1)',
      tintBorder: 'var(--mantine-color-violet-3)',
      success: 'var(--mantine-color-teal-0)',
      accentText: 'var(--mantine-color-violet-7)',
      successText: 'var(--mantine-color-teal-9)',
      line: 'var(--mantine-color-gray-3)',
    }),
  },
  dark: {
    // Text a step brighter than Mantine's dark 0 (#c9c9c9), so the dimmed
    // text (dark 1) stays a distinct, quieter level under it.
    '--mantine-color-text': 'var(--mantine-color-gray-2)',
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
    '--mantine-color-anchor': 'var(--mantine-color-violet-3)',
    // Red subtle text and the light variant's: Mantine's red 0 reads as white; red 3 is still red (8.4:1).
    '--mantine-color-red-light-color': 'var(--mantine-color-red-3)',
    ...roles({
      page: 'var(--mantine-color-dark-8)',
      // Violet 8 at 18% over the body: a quieter violet than the light
      // variant's (the buttons on these cards), so they stand out on it.
      tint: '#302945',
      tintSelected: 'var(--mantine-color-violet-light-hover)',
      tintBorder: 'var(--mantine-color-violet-8)',
      // Teal 8 at 18% over the body.
      success: '#1f3830',
      accentText: 'var(--mantine-color-violet-3)',
      successText: 'var(--mantine-color-teal-3)',
      line: 'var(--mantine-color-dark-4)',
    }),
  },
});

import { createTheme, type CSSVariablesResolver, type MantineThemeComponent, type NotificationProps } from '@mantine/core';

// The platform's own UI font (San Francisco, Roboto, Segoe UI...): system-ui
// names it on every current browser. A list of those families by name made
// the browser look each one up for every new text style on platforms that
// lack them (the join page's first layout took 2.5x as long on Linux).
const systemFont = 'system-ui, sans-serif';

// Violet 7 (#7048e8) on white is 5.5:1, so filled buttons and links pass WCAG AA
// for normal text. autoContrast picks the label colour of filled components.
export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 7, dark: 5 },
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

// Mantine's default dimmed grey (gray 6, 3.3:1) and error red (red 6, 3.3:1) fail
// AA on white; these pass (8.2:1, 5.5:1, 3.3:1 for placeholders only).
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
  },
  dark: {},
});

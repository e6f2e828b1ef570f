/**
 * The app's own colour roles: what a colour is for, one CSS variable each,
 * which the theme defines for the light and the dark scheme
 * (app/theme.ts, `cssVariablesResolver`; docs/web-app.md "Dark mode"). A
 * screen paints with these (or Mantine's own scheme-aware variables: body,
 * text, dimmed, the `filled`, `light` and `outline` variants) rather than a
 * palette shade, which is right in one scheme only.
 */
export const COLOR_ROLES = {
  /** The page behind the cards: gray 0 in light, dark 8 in dark. */
  page: '--hangplan-color-page',
  /** A card that stands out in the primary colour (violet 0 in light). */
  tint: '--hangplan-color-tint',
  /** A selected item on a tinted card (violet 1 in light). */
  tintSelected: '--hangplan-color-tint-selected',
  /** The border of an item on a tinted card. */
  tintBorder: '--hangplan-color-tint-border',
  /** A card that says something is settled (teal 0 in light). */
  success: '--hangplan-color-success',
  /** Text of the primary colour on the page, a card or a tint (violet 7 in light). */
  accentText: '--hangplan-color-accent-text',
  /** Text on a settled card (teal 9 in light). */
  successText: '--hangplan-color-success-text',
  /** Hairlines and quiet tracks (gray 3 in light). */
  line: '--hangplan-color-line',
} as const;

export type ColorRole = keyof typeof COLOR_ROLES;

/** `var(--hangplan-color-…)` of each role, for style props (`bg`, `c`, `color`) and inline styles. */
export const colors = Object.fromEntries(Object.entries(COLOR_ROLES).map(([role, name]) => [role, `var(${name})`])) as Record<
  ColorRole,
  string
>;

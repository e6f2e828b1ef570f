import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core';
import { COLOR_ROLES } from '../lib/colors';
import { THEME_COLORS } from './color-scheme';
import { cssVariablesResolver, theme } from './theme';

/** '#rrggbb' or an opaque 'rgba(r, g, b, 1)', as Mantine writes its colours. */
function channels(color: string): number[] {
  const rgb = /^rgba?\((\d+), (\d+), (\d+)(?:, 1)?\)$/.exec(color);
  if (rgb) return rgb.slice(1, 4).map(Number);
  if (/^#[0-9a-f]{3}$/i.test(color)) return [1, 2, 3].map((i) => parseInt(color[i]!.repeat(2), 16));
  if (!/^#[0-9a-f]{6}$/i.test(color)) throw new Error(`not an opaque colour: ${color}`);
  return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
}

function luminance(color: string): number {
  const [r, g, b] = channels(color)
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const shadeOf = (cssVar: string) => {
  const [, color, shade] = /--mantine-color-(\w+)-(\d)/.exec(cssVar)!;
  return merged.colors[color!]![Number(shade)]!;
};

describe('theme', () => {
  it('has a primary colour with AA contrast against white', () => {
    const shade = typeof merged.primaryShade === 'number' ? merged.primaryShade : merged.primaryShade.light;
    expect(contrast(merged.colors[merged.primaryColor]![shade]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('has dimmed and error text with AA contrast against white', () => {
    const light = cssVariablesResolver(merged).light;
    expect(contrast(shadeOf(light['--mantine-color-dimmed']!), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(shadeOf(light['--mantine-color-error']!), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('theme: outline red and toasts', () => {
  it('gives red outline and light text AA contrast against white', () => {
    const light = cssVariablesResolver(merged).light;
    for (const name of ['--mantine-color-red-outline', '--mantine-color-red-light-color', '--mantine-color-red-text'] as const) {
      expect(contrast(shadeOf(light[name]!), '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('names the close button of every toast', () => {
    const props = merged.components.Notification?.defaultProps as { closeButtonProps?: Record<string, string> };
    expect(props.closeButtonProps?.['aria-label']).toBe('Close notification');
  });
});

describe('theme: dark (docs/web-app.md "Dark mode")', () => {
  type Variables = Record<string, string | undefined>;
  const mantine = defaultCssVariablesResolver(merged) as unknown as Record<'variables' | 'light' | 'dark', Variables>;
  const ours = cssVariablesResolver(merged) as unknown as Record<'light' | 'dark', Variables>;
  /** The colour a CSS variable has in `scheme`: the app's resolver first, then Mantine's, as the stylesheet orders them. */
  function colorOf(variable: string, scheme: 'light' | 'dark'): string {
    const value = ours[scheme][variable] ?? mantine[scheme][variable] ?? mantine.variables[variable];
    if (value === undefined) throw new Error(`${variable} is not defined in ${scheme}`);
    const reference = /^var\((--[\w-]+)\)$/.exec(value);
    return reference ? colorOf(reference[1]!, scheme) : value;
  }

  // What text is put on: the body (cards, headers), the page, a field, the
  // tints; each text colour on the surfaces it is used on.
  const body = '--mantine-color-body';
  const page = COLOR_ROLES.page;
  const field = '--mantine-color-default';
  const everywhere = [body, page, field, COLOR_ROLES.tint, COLOR_ROLES.success];
  const pairs: [string, string[]][] = [
    ['--mantine-color-text', [...everywhere, COLOR_ROLES.tintSelected]],
    ['--mantine-color-dimmed', [...everywhere, COLOR_ROLES.tintSelected]],
    ['--mantine-color-error', everywhere],
    ['--mantine-color-anchor', everywhere],
    ['--mantine-color-red-light-color', [body, page]],
    ['--mantine-color-red-outline', [body, page]],
    ['--mantine-color-teal-outline', [body, page]],
    [COLOR_ROLES.accentText, [body, page, COLOR_ROLES.tint]],
    [COLOR_ROLES.successText, [body, page, COLOR_ROLES.success]],
  ];

  for (const scheme of ['light', 'dark'] as const) {
    it(`gives every text colour AA contrast on the surfaces it is used on in ${scheme}`, () => {
      for (const [text, surfaces] of pairs) {
        for (const surface of surfaces) {
          expect(contrast(colorOf(text, scheme), colorOf(surface, scheme)), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });

    it(`labels filled components in white with AA contrast in ${scheme}`, () => {
      // The primary colour and gray as `filled`; red and teal the app fills with shade 9 (confirm-dialog.tsx, date-list.tsx).
      for (const fill of ['--mantine-color-violet-filled', '--mantine-color-gray-filled', '--mantine-color-red-9', '--mantine-color-teal-9']) {
        expect(contrast('#ffffff', colorOf(fill, scheme)), fill).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('defines every colour role in both schemes, and the dark page is dark', () => {
    for (const name of Object.values(COLOR_ROLES)) {
      expect(ours.light[name], name).toBeDefined();
      expect(ours.dark[name], name).toBeDefined();
    }
    expect(luminance(colorOf('--mantine-color-body', 'dark'))).toBeLessThan(0.05);
    expect(luminance(colorOf(COLOR_ROLES.page, 'dark'))).toBeLessThan(0.05);
  });

  it("colours the browser's bar with the primary colour in light and the dark body (the headers) in dark", () => {
    expect(THEME_COLORS.light).toBe(colorOf('--mantine-primary-color-filled', 'light'));
    expect(THEME_COLORS.dark).toBe(colorOf('--mantine-color-body', 'dark'));
  });
});

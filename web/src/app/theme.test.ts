import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { cssVariablesResolver, theme } from './theme';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
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

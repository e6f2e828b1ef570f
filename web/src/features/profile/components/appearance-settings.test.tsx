import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLOR_SCHEME_KEY, THEME_COLORS } from '../../../app/color-scheme';
import { renderWithProviders } from '../../../test/test-utils';
import { AppearanceSettings } from './appearance-settings';

/** A phone whose light or dark setting the test flips, telling every listener as a browser does. */
function phoneScheme(initial: 'light' | 'dark') {
  let dark = initial === 'dark';
  const listeners = new Set<(event: { matches: boolean }) => void>();
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      get matches() {
        return query.includes('dark') ? dark : query.includes('light') ? !dark : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: { matches: boolean }) => void) =>
        query.includes('prefers-color-scheme') && listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: { matches: boolean }) => void) => listeners.delete(listener),
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    })),
  );
  return {
    set(scheme: 'light' | 'dark') {
      dark = scheme === 'dark';
      act(() => listeners.forEach((listener) => listener({ matches: dark })));
    },
  };
}

const html = document.documentElement;
const scheme = () => html.getAttribute('data-mantine-color-scheme');
const barColors = () => [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content);
const choice = (name: 'System' | 'Light' | 'Dark') => screen.getByRole('radio', { name });

beforeEach(() => {
  // index.html's two theme-color metas.
  document.head.innerHTML =
    `<meta name="theme-color" media="(prefers-color-scheme: light)" content="${THEME_COLORS.light}">` +
    `<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${THEME_COLORS.dark}">`;
});
afterEach(() => {
  document.head.innerHTML = '';
  html.removeAttribute('data-mantine-color-scheme');
});

describe('Appearance', () => {
  it('offers System, Light and Dark as one named group of radios, System when nothing was chosen', () => {
    phoneScheme('light');
    renderWithProviders(<AppearanceSettings />);
    const group = screen.getByRole('radiogroup', { name: 'Appearance' });
    expect(group).toHaveAccessibleDescription("System follows your phone's light or dark setting. Your choice is kept on this device.");
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['auto', 'light', 'dark']);
    expect(choice('System')).toBeChecked();
    expect(scheme()).toBe('light');
  });

  it('applies a choice at once, keeps it on the device and points the browser bar at it', async () => {
    phoneScheme('light');
    const { user } = renderWithProviders(<AppearanceSettings />);

    await user.click(choice('Dark'));
    expect(choice('Dark')).toBeChecked();
    expect(scheme()).toBe('dark');
    expect(localStorage.getItem(COLOR_SCHEME_KEY)).toBe('dark');
    expect(barColors()).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);

    await user.click(choice('Light'));
    expect(scheme()).toBe('light');
    expect(localStorage.getItem(COLOR_SCHEME_KEY)).toBe('light');
    expect(barColors()).toEqual([THEME_COLORS.light, THEME_COLORS.light]);

    // Back to System: each meta its own scheme's colour, the browser picks by the phone.
    await user.click(choice('System'));
    expect(localStorage.getItem(COLOR_SCHEME_KEY)).toBe('auto');
    expect(scheme()).toBe('light');
    expect(barColors()).toEqual([THEME_COLORS.light, THEME_COLORS.dark]);
  });

  it('starts from the choice stored on this device', () => {
    phoneScheme('light');
    localStorage.setItem(COLOR_SCHEME_KEY, 'dark');
    renderWithProviders(<AppearanceSettings />);
    expect(choice('Dark')).toBeChecked();
    expect(scheme()).toBe('dark');
    expect(barColors()).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
  });

  it('on System follows the phone while the app is open; a chosen scheme does not', async () => {
    const phone = phoneScheme('dark');
    const { user } = renderWithProviders(<AppearanceSettings />);
    expect(scheme()).toBe('dark');
    phone.set('light');
    expect(scheme()).toBe('light');
    phone.set('dark');
    expect(scheme()).toBe('dark');

    await user.click(choice('Light'));
    phone.set('light');
    phone.set('dark');
    expect(scheme()).toBe('light');
  });
});

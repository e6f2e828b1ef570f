import { act, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { listenForInstallPrompt } from '../lib/install-prompt';
import { renderWithProviders } from '../test/test-utils';
import { InstallHint } from './install-hint';

/** What Chromium fires when Hangplan can be installed. */
function offerInstall(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome }),
  });
  act(() => void window.dispatchEvent(event));
  return event;
}

beforeAll(() => listenForInstallPrompt());

describe('InstallHint', () => {
  it('shows nothing until the browser offers the install', () => {
    renderWithProviders(<InstallHint />);
    expect(screen.queryByRole('region', { name: 'Hangplan on your phone' })).not.toBeInTheDocument();
  });

  it("holds back the browser's own bar, and opens its install dialog on a tap; the offer is used up", async () => {
    const { user } = renderWithProviders(<InstallHint />);
    const offer = offerInstall();
    expect(offer.defaultPrevented).toBe(true);
    const card = screen.getByRole('region', { name: 'Hangplan on your phone' });
    await user.click(screen.getByRole('button', { name: 'Install Hangplan' }));
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    expect(card).not.toBeInTheDocument();
  });

  it('goes away once installed', () => {
    renderWithProviders(<InstallHint />);
    offerInstall();
    expect(screen.getByRole('button', { name: 'Install Hangplan' })).toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('appinstalled')));
    expect(screen.queryByRole('button', { name: 'Install Hangplan' })).not.toBeInTheDocument();
  });

  it('"Not now" is remembered on the device: the next offer is left to the browser', async () => {
    const { user } = renderWithProviders(<InstallHint />);
    offerInstall();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('button', { name: 'Install Hangplan' })).not.toBeInTheDocument();
    expect(localStorage.getItem('installHintDismissed')).toBe('true');
    const next = offerInstall();
    expect(next.defaultPrevented).toBe(false);
    expect(screen.queryByRole('button', { name: 'Install Hangplan' })).not.toBeInTheDocument();
  });
});

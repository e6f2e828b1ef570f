import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { showSuccessToast } from '../lib/toast';
import { renderWithProviders } from '../test/test-utils';
import { Toaster } from './providers';

// The toasts' code (app/toaster.tsx) is fetched when the page is first idle;
// the toaster is rendered once a toast is raised.
describe('AppProviders: the toasts', () => {
  afterEach(() => {
    act(() => notifications.clean());
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const toasterIn = (container: HTMLElement) => container.ownerDocument.querySelector('.mantine-Notifications-root');

  it('a toast raised before the page is idle shows at once', async () => {
    vi.stubGlobal('requestIdleCallback', vi.fn(() => 1));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    renderWithProviders(<p>page</p>);
    act(() => showSuccessToast('Link Copied', 'Share it with your friends.'));
    expect(await screen.findByText('Link Copied')).toBeInTheDocument();
  });

  it('when the page is first idle, the code is fetched but nothing is rendered until a toast is raised', async () => {
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', vi.fn((callback: () => void) => ((idle = callback), 1)));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    const preload = vi.spyOn(Toaster, 'preload');
    const { container } = renderWithProviders(<p>page</p>);
    await act(async () => {});
    expect(preload).not.toHaveBeenCalled();
    expect(idle).toBeDefined();

    await act(async () => idle!());
    expect(preload).toHaveBeenCalledTimes(1);
    await act(async () => preload.mock.results[0]!.value);
    expect(toasterIn(container)).toBeNull();

    act(() => showSuccessToast('Link Copied', 'Share it with your friends.'));
    expect(await screen.findByText('Link Copied')).toBeInTheDocument();
    expect(toasterIn(container)).not.toBeNull();
  });
});

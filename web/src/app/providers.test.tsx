import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { showSuccessToast } from '../lib/toast';
import { renderWithProviders } from '../test/test-utils';

// The toasts' code (app/toaster.tsx) loads when the page is first idle, or at
// once when a toast is raised before that.
describe('AppProviders: the toasts', () => {
  afterEach(() => {
    act(() => notifications.clean());
    vi.unstubAllGlobals();
  });

  it('a toast raised before the page is idle shows at once', async () => {
    vi.stubGlobal('requestIdleCallback', vi.fn(() => 1));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    renderWithProviders(<p>page</p>);
    act(() => showSuccessToast('Link Copied', 'Share it with your friends.'));
    expect(await screen.findByText('Link Copied')).toBeInTheDocument();
  });

  it('without a toast, the toaster loads when the page is first idle', async () => {
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', vi.fn((callback: () => void) => ((idle = callback), 1)));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    const { container } = renderWithProviders(<p>page</p>);
    const toaster = () => container.ownerDocument.querySelector('.mantine-Notifications-root');
    await act(async () => {});
    expect(toaster()).toBeNull();
    expect(idle).toBeDefined();
    await act(async () => idle!());
    await vi.waitFor(() => expect(toaster()).not.toBeNull());
  });
});

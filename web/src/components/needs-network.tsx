import { useEffect } from 'react';
import { Alert } from '@mantine/core';
import { OFFLINE_PAGE } from '../lib/api-error';

/** How often a screen that could not load with no network tries again. */
const RETRY_MS = 5000;

/**
 * Tries `retry` again every few seconds and when the browser says it is back
 * online: a phone's dead zone often ends with no `online` event at all.
 */
export function useRetryUntilOnline(retry: () => unknown): void {
  useEffect(() => {
    const again = () => void retry();
    const timer = setInterval(again, RETRY_MS);
    window.addEventListener('online', again);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', again);
    };
  }, [retry]);
}

/**
 * A screen whose data needs the network, with none (docs/offline.md
 * "Offline"): one calm sentence, and the screen loads by itself once the
 * network is back.
 */
export function NeedsNetwork({ retry }: { retry: () => unknown }) {
  useRetryUntilOnline(retry);
  return (
    <Alert color="gray" title="No connection" mt="md">
      {OFFLINE_PAGE}
    </Alert>
  );
}

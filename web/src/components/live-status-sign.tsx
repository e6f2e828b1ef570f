import { Badge } from '@mantine/core';
import { atClock } from '../lib/local-date';
import { useLiveConnectionDown } from '../lib/live/live-context';
import { useShowingSavedSince } from '../lib/offline-reads';

/** What the page says while it shows answers the service worker saved (docs/offline.md "Offline"). */
export const offlineNotice = (savedAt: number, now: Date) => `You're offline: showing what you saw ${atClock(new Date(savedAt), now)}`;

/**
 * "You're offline: showing what you saw at 7:42 PM" while the page shows
 * saved answers; otherwise "Reconnecting…", only once a live connection has
 * been down for a few seconds; nothing while all is well. Fixed over the page
 * (below the header), so it never moves the content, and it lets taps
 * through.
 */
export function LiveStatusSign() {
  const down = useLiveConnectionDown();
  const savedSince = useShowingSavedSince();
  if (!down && savedSince === null) return null;
  return (
    <div
      style={{
        position: 'fixed',
        top: 72,
        left: 0,
        right: 0,
        display: 'flex',
        justifyContent: 'center',
        padding: '0 12px',
        pointerEvents: 'none',
        zIndex: 300,
      }}
    >
      <Badge
        role="status"
        color="gray.8"
        variant="filled"
        size="lg"
        radius="xl"
        tt="none"
        fw={600}
        h="auto"
        py={6}
        style={{ whiteSpace: 'normal', textAlign: 'center', maxWidth: '100%' }}
      >
        {savedSince === null ? 'Reconnecting…' : offlineNotice(savedSince, new Date())}
      </Badge>
    </div>
  );
}

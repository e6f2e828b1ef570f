import { Badge } from '@mantine/core';
import { useLiveConnectionDown } from '../lib/live/live-context';

/**
 * "Reconnecting…", only once a live connection has been down for a few
 * seconds; nothing while all is well. Fixed over the page (below the header),
 * so it never moves the content, and it lets taps through.
 */
export function LiveStatusSign() {
  const down = useLiveConnectionDown();
  if (!down) return null;
  return (
    <div
      style={{
        position: 'fixed',
        top: 72,
        left: 0,
        right: 0,
        display: 'flex',
        justifyContent: 'center',
        pointerEvents: 'none',
        zIndex: 300,
      }}
    >
      <Badge role="status" color="gray.8" variant="filled" size="lg" radius="xl" tt="none" fw={600}>
        Reconnecting…
      </Badge>
    </div>
  );
}

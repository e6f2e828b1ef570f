import { Alert, Button } from '@mantine/core';

/** A section whose read failed, with 'Try again'. */
export function LoadFailed({ what, onRetry, retrying }: { what: string; onRetry: () => void; retrying: boolean }) {
  return (
    <Alert color="red" title={`Couldn't load ${what}`}>
      <Button mt="xs" variant="light" color="red" onClick={onRetry} disabled={retrying}>
        Try again
      </Button>
    </Alert>
  );
}

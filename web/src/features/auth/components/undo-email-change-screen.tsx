import { useState } from 'react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { getServerMessage } from '../../../lib/api-error';
import { useUndoEmailChange } from '../mutations';
import { LogoCardPage } from '../../../components/logo-card-page';

/** The undo link's token, from the URL's fragment (`#token=...`), which no server or Referer ever sees. */
function tokenFromFragment(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}

/**
 * Behind the link mailed to the old address after an e-mail change
 * (docs/auth-and-guests.md "E-mail change"): it says what undoing does and
 * asks for one tap; the link works once, for 7 days.
 */
export function UndoEmailChangeScreen() {
  const { hash } = useLocation();
  const [token] = useState(() => tokenFromFragment(hash));
  const undo = useUndoEmailChange();

  if (undo.isSuccess) {
    return (
      <LogoCardPage>
        <Stack gap="md">
          <Title order={1} fz="h3">
            Your e-mail address is back
          </Title>
          <Text>
            Your account uses <strong style={{ overflowWrap: 'anywhere' }}>{undo.data.email}</strong> again, and every
            device that was signed in to it is signed out.
          </Text>
          <Button component={Link} to={paths.auth.getHref()} fullWidth>
            Sign In
          </Button>
        </Stack>
      </LogoCardPage>
    );
  }

  return (
    <LogoCardPage>
      <Stack gap="md">
        <Title order={1} fz="h3">
          Undo the e-mail change?
        </Title>
        <Text>
          The e-mail address of your Hangplan account was changed. If that was not you, undo it: your account goes back
          to the address this link was sent to, and every device signed in to it is signed out.
        </Text>
        {!token ? (
          <Alert color="red" title="This link is incomplete">
            Open the link from the e-mail again.
          </Alert>
        ) : (
          <>
            {undo.isError && (
              <Alert color="red" title="Couldn't undo the change">
                {getServerMessage(undo.error) ?? 'Please check your connection and try again.'}
              </Alert>
            )}
            <Button onClick={() => undo.mutate(token)} loading={undo.isPending} color="red.9" fullWidth>
              Undo the change
            </Button>
          </>
        )}
        <Text fz="sm" c="dimmed">
          If you made this change yourself, there is nothing to do.
        </Text>
      </Stack>
    </LogoCardPage>
  );
}

import { type ReactNode, useEffect, useRef } from 'react';
import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { ApiError, getServerMessage } from '../../../lib/api-error';
import { getAuthToken } from '../../../lib/auth-token';
import { LogoCardPage } from '../../../components/logo-card-page';
import { useResubscribe, useUnsubscribe } from '../mutations';
import { planEmailsQueryOptions } from '../queries';
import type { PlanEmailsState } from '../../../../../supabase/functions/_shared/contract/notifications';

// A plan's title is the host's text: a long word must not widen the card on a phone.
const wrapAnywhere = { overflowWrap: 'anywhere' } as const;

function GoToHangplan() {
  return (
    <Button component={Link} to={paths.landing.getHref()} variant="default" fullWidth>
      Go to Hangplan
    </Button>
  );
}

/**
 * The link's answer failed. A 404 is the server's sentence ("This unsubscribe
 * link is not valid", "This plan no longer exists"). A 410 (a link over 90
 * days old, or mailed to an address the account no longer uses) or a 401 (a
 * signed-in visitor's session ended) asks its member to sign in: back here,
 * the page asks again as them (docs/api.md "Notifications"). Anything else
 * can be tried again.
 */
function LinkProblem({ token, error, onRetry, retrying }: { token: string; error: Error; onRetry: () => void; retrying: boolean }) {
  const sentence = getServerMessage(error);
  if (error instanceof ApiError && (error.status === 410 || error.status === 401)) {
    // Signed in and still refused: the link is another account's.
    const signedIn = error.status === 410 && getAuthToken() !== null;
    return (
      <Stack gap="md">
        <Title order={1} fz="h3" style={wrapAnywhere}>
          {sentence ?? 'This unsubscribe link has expired, please sign in to change the e-mails about this plan'}
        </Title>
        {signedIn ? (
          <Text>This link was sent to another account.</Text>
        ) : (
          <Button component={Link} to={paths.auth.getHref(paths.unsubscribe.getHref(token))} fullWidth>
            Sign in
          </Button>
        )}
        <GoToHangplan />
      </Stack>
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return (
      <Stack gap="md">
        <Title order={1} fz="h3" style={wrapAnywhere}>
          {sentence ?? 'This unsubscribe link is not valid'}
        </Title>
        <GoToHangplan />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={1} fz="h3">
        Couldn't load this page
      </Title>
      <Text>{sentence ?? 'Please check your connection and try again.'}</Text>
      <Button onClick={onRetry} loading={retrying} fullWidth>
        Try again
      </Button>
      <GoToHangplan />
    </Stack>
  );
}

/** Whether the link's plan still sends e-mails, and the one button that changes that. */
function PlanEmails({ token, state }: { token: string; state: PlanEmailsState }) {
  const unsubscribe = useUnsubscribe(token);
  const resubscribe = useResubscribe(token);
  const { planTitle, emails } = state;

  // The button just pressed is gone with the state it changed: focus goes to
  // the new heading, so a screen reader reads the new state from its start.
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(emails);
  useEffect(() => {
    if (shown.current === emails) return;
    shown.current = emails;
    heading.current?.focus();
  }, [emails]);

  return (
    <Stack gap="md">
      <Title ref={heading} tabIndex={-1} order={1} fz="h3" style={wrapAnywhere}>
        {emails ? `Stop e-mails about ${planTitle}?` : "You're unsubscribed"}
      </Title>
      {emails ? (
        <>
          {resubscribe.isSuccess && (
            <Alert color="teal" role="status" style={wrapAnywhere}>
              E-mails about {planTitle} are on again.
            </Alert>
          )}
          <Text>You'll still see everything in the app. Notifications on your phone are set separately.</Text>
          <Button onClick={() => unsubscribe.mutate()} loading={unsubscribe.isPending} fullWidth>
            Unsubscribe
          </Button>
        </>
      ) : (
        <>
          <Text style={wrapAnywhere}>You won't get e-mails about {planTitle} any more.</Text>
          <Button onClick={() => resubscribe.mutate()} loading={resubscribe.isPending} variant="default" fullWidth>
            Turn e-mails back on
          </Button>
        </>
      )}
    </Stack>
  );
}

/**
 * /unsubscribe/{token}, behind the link in a notification e-mail's footer:
 * stops (or restarts) the e-mails about one plan for the member the link
 * names. No sign-in while the link is fresh: the token is the credential
 * (docs/api.md "Notifications"); after that, its member signs in.
 */
export function UnsubscribeScreen() {
  const { token = '' } = useParams<'token'>();
  const query = useQuery(planEmailsQueryOptions(token));

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <Stack align="center" gap="sm" py="xl" role="status">
        <Loader aria-hidden="true" />
        <Text fw={600}>Loading...</Text>
      </Stack>
    );
  } else if (query.isError) {
    content = <LinkProblem token={token} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  } else {
    content = <PlanEmails key={token} token={token} state={query.data} />;
  }
  return <LogoCardPage>{content}</LogoCardPage>;
}

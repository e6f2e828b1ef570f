import { useState } from 'react';
import { ActionIcon, Box, Button, Card, Center, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { IconCopy, IconMessage, IconShare, IconSms } from '../../../components/icons';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { copyText } from '../../../lib/clipboard';
import { smsHref, whatsAppHref } from '../../../lib/share-links';
import { showErrorMessage, showSuccessToast } from '../../../lib/toast';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { useResetPlanLink } from '../host-mutations';
import { publicPlanUrl, SHARE_BODY, shareMessage, shareTitle } from '../share-message';
import { colors } from '../../../lib/colors';
import { LinkPreviewSection } from '../../previews';

// Spec §9: QR code size 200 with margin 2.
const QR_SIZE = 200;
const QR_MARGIN = 2;

// Icon above label: three tiles fit side by side on a 390 px phone.
const tileProps = {
  variant: 'default',
  h: 'auto',
  py: 'sm',
  px: 4,
  styles: { label: { flexDirection: 'column', gap: 6 } },
} as const;

async function copyLink(link: string): Promise<void> {
  if (!link) {
    showErrorMessage('Cannot copy link', 'Plan link is not available yet');
    return;
  }
  try {
    await copyText(link);
    showSuccessToast('Link copied!', 'Share this link with your friends');
  } catch {
    showErrorMessage('Failed to copy', 'Please copy the link manually');
  }
}

/** The share sheet when the device has one, else the link is copied. */
async function shareNatively(data: { title: string; text: string; url: string }): Promise<void> {
  if (!data.url || typeof navigator.share !== 'function') return copyLink(data.url);
  try {
    await navigator.share(data);
  } catch (error) {
    // Closing the share sheet is a choice, not a failure.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    await copyLink(data.url);
  }
}

interface SharePlanProps {
  plan: Plan;
  sender: { firstName?: string | null; lastName?: string | null } | null | undefined;
  /** The host may reset the link (the old one stops working). */
  isHost?: boolean;
}

/**
 * "Reset link" (docs/api.md "Plans"): a new link, the old one and its QR code
 * stop working at once, so it asks first; everyone already in keeps their
 * access. The page shows the new link when the answer is in.
 */
function ResetLink({ planId }: { planId: string }) {
  const [confirming, setConfirming] = useState(false);
  const reset = useResetPlanLink(planId);
  return (
    <>
      <Button variant="subtle" color="red" onClick={() => setConfirming(true)} disabled={reset.isPending}>
        Reset link
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Reset the plan link?"
        message="The old link and QR code stop working at once: anyone who has not joined yet needs the new link. Everyone already in the plan keeps their access."
        confirmLabel="Reset link"
        pendingLabel="Resetting..."
        pending={reset.isPending}
        onConfirm={() => reset.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}

export function SharePlan({ plan, sender, isHost = false }: SharePlanProps) {
  const link = plan.slug ? publicPlanUrl(window.location.origin, plan.slug) : '';
  const title = shareTitle(sender);
  const message = shareMessage(title, link);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz="h2">
          {plan.title}
        </Title>
        <Text c="dimmed">Invite your friends: scan the code or send the link.</Text>
      </div>

      <Card withBorder radius="lg" padding="lg">
        <Stack gap="md">
          <Center>
            {link ? (
              // Dark on light in both schemes, on a white frame: a camera
              // reads a light-on-dark code poorly, and in dark the frame
              // keeps the quiet zone white (docs/web-app.md "Dark mode").
              <Box bg="white" p="sm" style={{ borderRadius: 'var(--mantine-radius-md)', lineHeight: 0 }}>
                <QRCodeSVG
                  value={link}
                  size={QR_SIZE}
                  marginSize={QR_MARGIN}
                  bgColor="#ffffff"
                  fgColor="#000000"
                  role="img"
                  aria-label="QR code of the plan link"
                />
              </Box>
            ) : (
              <Text c="dimmed" py="xl" ta="center">
                The QR code appears once the plan link is ready.
              </Text>
            )}
          </Center>
          <TextInput
            label="Plan link"
            value={link}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            rightSectionWidth={44}
            rightSection={
              <ActionIcon variant="subtle" size="lg" aria-label="Copy link" onClick={() => copyLink(link)}>
                <IconCopy size={18} />
              </ActionIcon>
            }
          />
          {isHost && link && <ResetLink planId={plan.id} />}
        </Stack>
      </Card>

      <Stack gap="xs">
        <Title order={2} fz="h4">
          Share via
        </Title>
        <SimpleGrid cols={3} spacing="xs">
          <Button
            component="a"
            href={whatsAppHref(message)}
            target="_blank"
            rel="noopener noreferrer"
            disabled={!link}
            {...tileProps}
          >
            <IconMessage size={22} color="var(--mantine-color-green-8)" />
            WhatsApp
          </Button>
          <Button component="a" href={smsHref(message)} disabled={!link} {...tileProps}>
            <IconSms size={22} color={colors.accentText} />
            SMS
          </Button>
          <Button onClick={() => shareNatively({ title, text: SHARE_BODY, url: link })} {...tileProps}>
            <IconShare size={22} color="var(--mantine-color-dimmed)" />
            More
          </Button>
        </SimpleGrid>
      </Stack>

      {plan.slug && <LinkPreviewSection plan={plan} slug={plan.slug} isHost={isHost} />}

      <Button component={Link} to={paths.plan.getHref(plan.id)} variant="default" size="md" fullWidth>
        View Plan Details
      </Button>
    </Stack>
  );
}

import { useId } from 'react';
import { Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { previewDetailsOf, useSetPreviewDetails } from '../mutations';
import { linkPreviewQueryOptions } from '../queries';
import { LinkPreviewCard, LinkPreviewCardSkeleton } from './link-preview-card';

export const PREVIEW_DETAILS_LABEL = 'Show details in link previews';
export const PREVIEW_DETAILS_HINT = 'When off, the link shows only "Hangplan", not this plan\'s title, date or place.';
export const PREVIEW_UNAVAILABLE = 'The link preview is not available right now.';

/** The host's switch; the card follows it at once. */
function PreviewDetailsSwitch({ plan, slug }: { plan: Plan; slug: string }) {
  const labelId = useId();
  const setDetails = useSetPreviewDetails(plan, slug);
  return (
    <Switch
      // Mantine's <label> also wraps the description: name the switch by its
      // label alone, the description stays its description.
      label={<span id={labelId}>{PREVIEW_DETAILS_LABEL}</span>}
      aria-labelledby={labelId}
      description={PREVIEW_DETAILS_HINT}
      checked={previewDetailsOf(plan)}
      disabled={setDetails.isPending}
      onChange={(event) => setDetails.mutate(event.currentTarget.checked)}
      size="md"
    />
  );
}

/**
 * The share page's "Link preview" (docs/web-app.md "Link preview"): the card
 * a chat will show for the plan's link, and for the host the switch that
 * turns its details off.
 */
export function LinkPreviewSection({ plan, slug, isHost }: { plan: Plan; slug: string; isHost: boolean }) {
  const preview = useQuery(linkPreviewQueryOptions(plan.id, slug));
  return (
    <Stack gap="xs" component="section" aria-labelledby="link-preview-title">
      <Title order={2} fz="h4" id="link-preview-title">
        Link preview
      </Title>
      {preview.data ? (
        <LinkPreviewCard card={preview.data} site={window.location.host} />
      ) : preview.isError ? (
        <Text c="dimmed">{PREVIEW_UNAVAILABLE}</Text>
      ) : (
        <LinkPreviewCardSkeleton />
      )}
      {isHost && <PreviewDetailsSwitch plan={plan} slug={slug} />}
    </Stack>
  );
}

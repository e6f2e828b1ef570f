import { Box, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, type LinkPreview } from '../../../../../supabase/functions/_shared/contract/previews';
import { colors } from '../../../lib/colors';

// The picture's frame keeps its 1200:630 before and after it loads (no shift).
const frameStyle = { aspectRatio: `${PREVIEW_WIDTH} / ${PREVIEW_HEIGHT}`, lineHeight: 0, overflow: 'hidden' } as const;
const pictureStyle = { display: 'block', width: '100%', height: 'auto' } as const;

/** A chat's message bubble, with the card in it: the bubble tinted, the card's text on the body colour (both schemes). */
function Bubble({ children }: { children: React.ReactNode }) {
  return (
    <Box bg={colors.tint} p="sm" style={{ borderRadius: 'var(--mantine-radius-lg)' }}>
      <Paper withBorder radius="lg" maw={400} style={{ overflow: 'hidden' }}>
        {children}
      </Paper>
    </Box>
  );
}

/**
 * The card as a chat app shows the plan's link: the picture (a path on the
 * app's origin; light in both schemes), the title, the line on where the
 * plan stands and the site's host name.
 */
export function LinkPreviewCard({ card, site }: { card: LinkPreview; site: string }) {
  return (
    <Bubble>
      <Box style={frameStyle}>
        <img src={card.image} alt={card.imageAlt} width={PREVIEW_WIDTH} height={PREVIEW_HEIGHT} style={pictureStyle} />
      </Box>
      <Stack gap={2} p="sm">
        <Text size="xs" c="dimmed">
          {site}
        </Text>
        <Text fw={600} lineClamp={2}>
          {card.title}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {card.description}
        </Text>
      </Stack>
    </Bubble>
  );
}

/** The card's place while it loads: the same frame and lines. */
export function LinkPreviewCardSkeleton() {
  return (
    <Bubble>
      <Skeleton style={frameStyle} radius={0} aria-hidden="true" />
      <Stack gap={6} p="sm" aria-hidden="true">
        <Skeleton h={12} w="40%" />
        <Skeleton h={18} w="80%" />
        <Skeleton h={14} w="95%" />
      </Stack>
    </Bubble>
  );
}

// Link previews (docs/api.md "Link previews", docs/decisions/0105-link-previews.md):
// the card a chat app shows for a plan's link /l/{slug} before anyone taps it,
// and the picture on it. What a card may say is public like the slug: the
// plan's title, where it stands and the host's first name; never a guest's
// name, an e-mail, a description or a comment. The host can turn the details
// off (`previewDetails`); the card is then the generic one of every link.
import { z } from 'zod/mini';
import { formatPeriod, parseCalendarDate } from './periods.ts';
import { plainText } from './text.ts';
import type { PlanStatus } from './common.ts';

/** The picture's size in pixels (Open Graph's large image, 1.91:1). */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

/** 503 when a plan's picture could not be drawn (logged; the next request tries again). */
export const PICTURE_NOT_DRAWN = 'The preview picture could not be drawn, please try again';

/** The generic card: every link whose plan is unknown or whose host turned details off. */
export const GENERIC_PREVIEW_TITLE = 'Hangplan';
export const GENERIC_PREVIEW_DESCRIPTION =
  'Turn "we should hang out" into a real plan: collect ideas, vote, find a time that works for everyone and lock it in.';
export const GENERIC_PREVIEW_IMAGE = '/og-image.png';
export const GENERIC_PREVIEW_ALT = 'Hangplan: turn "we should hang out" into a real plan.';

/** The status line of a cancelled plan. */
export const CANCELLED_LINE = 'Cancelled';

/** What a card is drawn from: the plan's public facts, read by its slug. */
export interface PreviewFacts {
  title: string;
  status: PlanStatus;
  /** The host's name as the plan shows it (only its first word is used). */
  hostName: string | null;
  /** The locked day, 'YYYY-MM-DD', or null. */
  date: string | null;
  /** The host's event time ('7:30 PM'), or null. */
  eventTime: string | null;
  /** The locked slot's period ('Evening', '19:30'), or null. */
  period: string | null;
  location: string | null;
  /** People who answered "going" (not counting the friends they bring). */
  going: number;
}

/** User text on one line (./text.ts plainText: no line break, control or invisible character). */
const oneLine = (text: string | null | undefined) => plainText(text ?? '');

/** 'Hana' of 'Hana Sato'; null for an empty name. */
export function firstName(name: string | null | undefined): string | null {
  return oneLine(name).split(' ')[0] || null;
}

/** 'Saturday, December 5' (en-US, no year: a card is about the coming days). */
export function formatCardDate(value: string): string {
  const date = parseCalendarDate(value);
  if (!date) return value;
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The card's one line on where the plan stands:
 * - planning: "Hana wants to hang out. Suggest ideas and vote on dates."
 * - a date set: "Saturday, December 5 at 7:30 PM, Kenji Ramen", with
 *   " · 5 going" once someone answered going;
 * - cancelled: "Cancelled".
 */
export function previewStatusLine(facts: PreviewFacts): string {
  if (facts.status === 'cancelled') return CANCELLED_LINE;
  if (facts.status === 'planning' || !facts.date) {
    const host = firstName(facts.hostName);
    return `${host ?? 'A friend'} wants to hang out. Suggest ideas and vote on dates.`;
  }
  const time = oneLine(facts.eventTime) || formatPeriod(facts.period);
  const place = oneLine(facts.location);
  const when = `${formatCardDate(facts.date)}${time ? ` at ${time}` : ''}`;
  const going = facts.going > 0 ? ` · ${facts.going} going` : '';
  return `${when}${place ? `, ${place}` : ''}${going}`;
}

/**
 * GET /api/plans/slug/{slug}/preview: the card, as the page's head and the
 * share screen show it. With details off it is the generic card.
 */
const linkPreviewShape = () => ({
  /** The host's setting "Show details in link previews". */
  previewDetails: z.boolean(),
  /** og:title: the plan's title, or 'Hangplan'. */
  title: z.string(),
  /** og:description: the status line, or the generic sentence. */
  description: z.string(),
  /** The host's first name on the picture, or null (details off). */
  hostFirstName: z.nullable(z.string()),
  /** og:image, a path on the app's origin: the plan's picture with its version, or the generic image. */
  image: z.string(),
  /** og:image:alt. */
  imageAlt: z.string(),
  /** The plan's version (the picture's ETag says the same). */
  version: z.string(),
});
export const linkPreviewSchema = z.lazy(() => z.object(linkPreviewShape()));
export type LinkPreview = z.infer<typeof linkPreviewSchema>;

/** The path of a plan's picture: /api/plans/slug/{slug}/preview.png?v={version}. */
export function previewImagePath(slug: string, version: string): string {
  return `/api/plans/slug/${encodeURIComponent(slug)}/preview.png?v=${encodeURIComponent(version)}`;
}

/** The card of a plan, from its facts (details on) or the generic card (details off, or no facts). */
export function linkPreviewOf(
  slug: string,
  version: string,
  facts: PreviewFacts | null,
  previewDetails: boolean,
): LinkPreview {
  if (!previewDetails || !facts) {
    return {
      previewDetails: false,
      title: GENERIC_PREVIEW_TITLE,
      description: GENERIC_PREVIEW_DESCRIPTION,
      hostFirstName: null,
      image: GENERIC_PREVIEW_IMAGE,
      imageAlt: GENERIC_PREVIEW_ALT,
      version,
    };
  }
  const title = oneLine(facts.title);
  const description = previewStatusLine(facts);
  return {
    previewDetails,
    title,
    description,
    hostFirstName: firstName(facts.hostName),
    image: previewImagePath(slug, version),
    imageAlt: `${title}: ${description}`,
    version,
  };
}

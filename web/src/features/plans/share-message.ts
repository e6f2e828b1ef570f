import { paths } from '../../config/paths';

// Spec §2 "Share Plan": the public link and the message sent with it.

export const SHARE_BODY = "Click here to plan what you're doing and when. Looking forward to seeing you soon!";

/** {origin}/l/{slug}, the link anyone can open to join. */
export function publicPlanUrl(origin: string, slug: string): string {
  return `${origin}${paths.join.getHref(slug)}`;
}

/**
 * '{name} wants to hang out!' with the sender's name, else 'Someone'. Only the
 * names the user typed: the e-mail's local part is never put in a message
 * that goes to other people.
 */
export function shareTitle(user: { firstName?: string | null; lastName?: string | null } | null | undefined): string {
  const name = [user?.firstName?.trim(), user?.lastName?.trim()].filter(Boolean).join(' ');
  return `${name || 'Someone'} wants to hang out!`;
}

/** The whole message for apps that take one text (WhatsApp, SMS). */
export function shareMessage(title: string, url: string): string {
  return `${title}\n\n${SHARE_BODY}\n${url}`;
}

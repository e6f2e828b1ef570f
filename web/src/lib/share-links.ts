// Links that open a messaging app with a prefilled message, and the link to
// a plan that goes into calendars and shared details.

export function whatsAppHref(message: string): string {
  return `https://wa.me/?text=${encodeURIComponent(message)}`;
}

/** `sms:?&body=`: the form both iOS and Android read (no recipient). */
export function smsHref(message: string): string {
  return `sms:?&body=${encodeURIComponent(message)}`;
}

/**
 * The link that opens a plan for whoever gets it: its public {origin}/l/{slug}
 * (members go on to the plan, guests to their dashboard), or, for a reader
 * who is not shown the slug (closed invitations, not the host: docs/api.md
 * "Plans"), the plan's own page {origin}/plan/{id}, as the e-mailed invite has.
 */
export function planLinkUrl(origin: string, plan: { id: string; slug: string | null }): string {
  return plan.slug ? `${origin}/l/${encodeURIComponent(plan.slug)}` : `${origin}/plan/${encodeURIComponent(plan.id)}`;
}

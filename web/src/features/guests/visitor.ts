// Who is acting in a plan: the signed-in user (a valid token wins, as on the
// server), else the guest session stored for THIS plan (with its device
// secret: a session without one must confirm the name again first), else
// nobody. Every participation feature (ideas, dates, comments) asks this one
// hook, and sends `guestBody(visitor)` with its writes so a guest is
// identified by its id (the secret goes in a header, lib/api.ts).
import { useCurrentUser } from '../auth';
import { displayName } from '../../lib/display-name';
import { getGuestSessionFor, useGuestSession } from '../../lib/guest-storage';

export type PlanVisitor =
  | { kind: 'member'; userId: string; name: string; email: string; guestId?: undefined }
  | { kind: 'guest'; guestId: string; name: string; userId?: undefined };

/**
 * The visitor of plan `planId`: undefined while the session loads, null when
 * the visitor is neither signed in nor a guest of this plan (spec §6: such
 * visitors are sent to the join page).
 */
export function usePlanVisitor(planId: string | undefined): PlanVisitor | null | undefined {
  const me = useCurrentUser();
  const stored = useGuestSession();
  if (me.isPending) return undefined;
  const user = me.data;
  if (user) {
    return {
      kind: 'member',
      userId: user.id,
      email: user.email,
      name: displayName({ firstName: user.firstName, lastName: user.lastName, email: user.email }),
    };
  }
  const guest = stored && getGuestSessionFor(planId);
  return guest?.secret ? { kind: 'guest', guestId: guest.id, name: guest.name } : null;
}

/** The body fields that identify a guest in a write (members go by their token). */
export function guestBody(visitor: PlanVisitor | null | undefined): { guestId?: string } {
  return visitor?.kind === 'guest' ? { guestId: visitor.guestId } : {};
}

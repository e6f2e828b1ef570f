// "Your name was continued on another device" (decision 0064): when another
// device continues as this device's guest by name ("Yes, that's me"), the
// guest's session read answers `continuedAt`, and this device says so once
// per new value. The restore reaches open devices through the live feed
// (part participants re-reads the guest session), and a device opened later
// learns it on its first read. What was told is kept in the guest session
// item (spec §3 keeps local storage to three items).
import { useEffect } from 'react';
import { getGuestSession, markContinuedSeen } from '../../lib/guest-storage';
import { formatMoment } from '../../lib/local-date';
import { showNotice } from '../../lib/toast';

export const CONTINUED_NOTICE_TITLE = 'Your name was continued on another device';

export function continuedNoticeMessage(name: string, continuedAt: string): string {
  return (
    `On ${formatMoment(continuedAt)}, another device continued as ${name} with "Yes, that's me". ` +
    'It can vote and comment as you, but cannot remove you from the plan. If that was not you, tell the host.'
  );
}

/** Shows the notice when `continuedAt` is newer than what this device already told its guest. */
export function useContinuedElsewhereNotice(guest: { id: string; name: string } | undefined, continuedAt: string | null | undefined): void {
  const guestId = guest?.id;
  const name = guest?.name;
  useEffect(() => {
    if (!guestId || !name || !continuedAt) return;
    const stored = getGuestSession();
    if (stored?.id !== guestId) return;
    if (stored.continuedSeenAt && Date.parse(stored.continuedSeenAt) >= Date.parse(continuedAt)) return;
    markContinuedSeen(guestId, continuedAt);
    showNotice(CONTINUED_NOTICE_TITLE, continuedNoticeMessage(name, continuedAt));
  }, [guestId, name, continuedAt]);
}

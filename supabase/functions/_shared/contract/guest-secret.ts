// Guest secrets (docs/auth-and-guests.md "Guests"): the header a guest's
// device sends its secret in, the two refusals the web app recognises to
// send the visitor through "Is this you?" again, and the one that says the
// host removed the guest. No imports: the web app uses
// this file too. The same sentences are raised by private.check_request
// (migration 20261126090003_sessions.sql).

/** Request header carrying the device's guest secret (never a URL or a JSON body). */
export const GUEST_SECRET_HEADER = 'X-Guest-Secret';

/** 401: a guest id came without a secret (e.g. a session stored before secrets existed). */
export const GUEST_SECRET_MISSING = 'Please confirm your name to continue as a guest on this device';

/** 403: the secret does not belong to that guest (or no longer: too many devices, or restored elsewhere). */
export const GUEST_SECRET_WRONG = 'This device is no longer confirmed as that guest, please confirm your name again';

/**
 * 403 to a person the host removed (docs/decisions/0083-removal-holds.md):
 * a removed guest's device (its secret, here at the gate), a member joining
 * or writing, and a device holding a removed secret creating a new guest.
 */
export const REMOVED_FROM_PLAN = 'The host removed you from this plan';

/** True for the answers that mean "this device must confirm the guest's name again". */
export function isGuestSecretRefusal(status: number, text: string): boolean {
  return (status === 401 && text === GUEST_SECRET_MISSING) || (status === 403 && text === GUEST_SECRET_WRONG);
}

/**
 * HOOK POINT for work that must run after a successful sign-in, before the
 * welcome toast and the redirect. The guests issue plugs the guest-vote
 * transfer in here (spec §4: POST /api/auth/transfer-guest-votes when a guest
 * session exists; a failure is only logged) and returns the "Your N previous
 * vote(s) have been saved" text when votes moved.
 *
 * Until then there is nothing to transfer: the plain welcome text.
 */
export async function afterSignIn(): Promise<{ welcomeMessage: string }> {
  return { welcomeMessage: "You're now signed in" };
}

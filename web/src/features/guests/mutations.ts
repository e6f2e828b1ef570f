import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GUEST_SECRET_HEADER } from '../../../../supabase/functions/_shared/contract/guest-secret';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getRemovedGuestSecret, setGuestSession, setGuestVotes, type GuestSession } from '../../lib/guest-storage';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { planKeys, refreshPlanMembership } from '../plans';
import type { LinkedPlan } from '../plans';
import { type GuestCheckResult, guestCheckResultSchema, guestCredentialsSchema } from '../../../../supabase/functions/_shared/contract/guests';

/** An existing guest of the plan, as the "Is this you?" card shows it. */
export type ExistingGuest = GuestCheckResult & { guestId: string };

/**
 * The plan as its join page has it: read by its link, whose slug goes with
 * every way in (joining, a new guest, "Yes, that's me"), since a plan whose
 * invitations are closed takes newcomers only by its link (docs/api.md "Plans").
 */
type JoinablePlan = Pick<LinkedPlan, 'id' | 'slug'>;

/** Spec §2 Join, signed in: POST /api/plans/{id}/join {name, userId, slug}. */
export function useJoinPlan(plan: JoinablePlan) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'join'),
    mutationFn: async (input: { name: string; userId: string }) => {
      await apiRequest('POST', apiPaths.planAction(plan.id, 'join'), { ...input, slug: plan.slug });
    },
    onSuccess: () => {
      void refreshPlanMembership(queryClient, plan);
      showSuccessToast('Joined successfully!', 'This plan is now available on your home page');
    },
    onError: (error) => showErrorToast(error, 'Failed to join plan'),
  });
}

/** "Continue": is there already a guest of that name in the plan? */
export function useCheckGuest(planId: string) {
  return useMutation({
    mutationFn: async (name: string): Promise<GuestCheckResult> => {
      const res = await apiRequest('POST', apiPaths.planAction(planId, 'check-guest'), { name });
      return guestCheckResultSchema.parse(await res.json());
    },
    onError: (error) => showErrorToast(error, 'Failed to check for existing guest'),
  });
}

/**
 * A new guest: POST /api/guest-session {name, planId, slug}, which also joins the
 * plan and answers this device's secret, kept in the session. A device the
 * host removed from the plan sends its old secret along: the server refuses
 * it (403) unless the host allowed it back.
 */
export function useCreateGuest(plan: JoinablePlan) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'create-guest'),
    mutationFn: async (name: string): Promise<GuestSession> => {
      const removedSecret = getRemovedGuestSecret(plan.id);
      const res = await apiRequest(
        'POST',
        apiPaths.guestSessions(),
        { name, planId: plan.id, slug: plan.slug },
        removedSecret ? { headers: { [GUEST_SECRET_HEADER]: removedSecret } } : {},
      );
      const guest = guestCredentialsSchema.parse(await res.json());
      return { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret, slug: plan.slug };
    },
    onSuccess: (session) => {
      setGuestSession(session);
      void refreshPlanMembership(queryClient, plan);
      showSuccessToast('Welcome!', "You've joined the planning session");
    },
    // A 409 says "Someone named {name} already joined this plan"; a 403 that the host removed that name, or this device.
    onError: (error) => showErrorToast(error, 'Failed to create guest session'),
  });
}

/**
 * "Yes, that's me": this device continues as the guest of that name
 * (POST /api/guest-session/restore {planId, name, slug}, which answers a NEW secret
 * for this device), makes sure it is joined (POST join {name, guestId} with
 * that secret, idempotent), then stores the session with its secret and the
 * votes the check returned (spec §2: "Confirming restores the previous votes").
 */
export function useRestoreGuest(plan: JoinablePlan) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'restore-guest'),
    mutationFn: async (existing: ExistingGuest): Promise<GuestSession> => {
      const res = await apiRequest('POST', apiPaths.restoreGuestSession(), { planId: plan.id, name: existing.name, slug: plan.slug });
      const guest = guestCredentialsSchema.parse(await res.json());
      if (guest.planId !== plan.id) throw new Error('The guest belongs to another plan');
      await apiRequest(
        'POST',
        apiPaths.planAction(plan.id, 'join'),
        { name: guest.name, guestId: guest.id },
        { headers: { [GUEST_SECRET_HEADER]: guest.secret } },
      );
      return { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret, slug: plan.slug };
    },
    onSuccess: (session, existing) => {
      setGuestSession(session);
      // After the session: storing a different guest's session clears the votes.
      setGuestVotes({ planIdeaIds: existing.ideaVotes, timeSlotIds: existing.timeSlotVotes });
      void refreshPlanMembership(queryClient, plan);
      showSuccessToast('Welcome back!', 'Your previous votes have been restored.');
    },
    onError: (error) => showErrorToast(error, 'Failed to retrieve existing session'),
  });
}

/**
 * "That wasn't me" (decision 0064): from the device that joined as the guest,
 * DELETE /api/guest-session/{id}/other-devices signs out every other device
 * of the guest and stops "Yes, that's me" for that name while this one is used.
 */
export function useEndOtherDevices(guest: { id: string; name: string }) {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', apiPaths.guestOtherDevices(guest.id));
    },
    onSuccess: () => showSuccessToast('Other devices signed out', `Only this device can continue as ${guest.name} now.`),
    onError: (error) => showErrorToast(error, 'Failed to sign out the other devices'),
  });
}

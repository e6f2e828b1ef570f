import { lazy } from 'react';
import { matchPath } from 'react-router-dom';
import { paths } from '../config/paths';
import { getAuthToken } from '../lib/auth-token';
import { preloadable } from '../lib/preloadable';

// One chunk per screen: a visitor on the landing page never downloads the
// signed-in screens, and the reverse. The two pages people arrive on from
// outside, the landing page and a plan's join page, are in the entry chunk
// instead (app-routes): they render with no second round of requests.
export const AuthScreen = preloadable(() => import('../features/auth/components/auth-screen').then((m) => m.AuthScreen));
export const HomeScreen = preloadable(() => import('../features/plans/components/home-screen').then((m) => m.HomeScreen));
// The page behind the undo link mailed after an e-mail change.
export const UndoEmailChangeScreen = preloadable(() =>
  import('../features/auth/components/undo-email-change-screen').then((m) => m.UndoEmailChangeScreen),
);
// The page behind the unsubscribe link of a notification e-mail.
export const UnsubscribeScreen = preloadable(() =>
  import('../features/notifications/components/unsubscribe-screen').then((m) => m.UnsubscribeScreen),
);
export const ProfileScreen = preloadable(() => import('../features/profile/components/profile-screen').then((m) => m.ProfileScreen));
export const CreatePlanScreen = preloadable(() => import('../features/plans/components/create-plan-screen').then((m) => m.CreatePlanScreen));
// The share page alone carries the QR code library.
export const ShareScreen = preloadable(() => import('../features/plans/components/share-screen').then((m) => m.ShareScreen));
export const PlanScreen = preloadable(() => import('../features/plans/components/plan-screen').then((m) => m.PlanScreen));
// The public plan pages of guests (/l/{slug}/dashboard; /l/{slug} is in the entry).
export const GuestDashboardScreen = preloadable(() => import('../features/dashboard/components/guest-dashboard-screen').then((m) => m.GuestDashboardScreen));
// The availability pages (step 2 of 3): /plan/{id}/availability, /l/{slug}/availability.
export const PlanAvailabilityScreen = preloadable(() => import('../features/availability/components/availability-screens').then((m) => m.PlanAvailabilityScreen));
export const GuestAvailabilityScreen = preloadable(() => import('../features/availability/components/availability-screens').then((m) => m.GuestAvailabilityScreen));

// The ideas pages (step 1 of 3) and the interests pages.
export const PlanIdeasScreen = preloadable(() => import('../features/ideas/components/ideas-screen').then((m) => m.PlanIdeasScreen));
export const GuestIdeasScreen = preloadable(() => import('../features/ideas/components/ideas-screen').then((m) => m.GuestIdeasScreen));
export const InterestsScreen = preloadable(() => import('../features/interests/components/interests-screen').then((m) => m.InterestsScreen));
export const ManageInterestsScreen = preloadable(() => import('../features/interests/components/manage-interests-screen').then((m) => m.ManageInterestsScreen));

// The plan page's tab panels belong to their own features and load with the
// tab: the app layer hands them to the plans feature (imports flow one way).
export const planTabs = {
  ideas: lazy(() => import('../features/ideas/components/ideas-tab').then((m) => ({ default: m.IdeasTab }))),
  availability: lazy(() =>
    import('../features/availability/components/availability-tab').then((m) => ({ default: m.AvailabilityTab })),
  ),
};

// The screen of the address the app starts on loads together with the session
// (main.tsx), not after it: by the time the session is known, its code is
// there and it renders at once (preloadable). Signed out, the signed-in pages
// send to sign-in, so that is the screen to fetch.
const signedInScreens = [
  [paths.home.path, HomeScreen],
  [paths.profile.path, ProfileScreen],
  [paths.createPlan.path, CreatePlanScreen],
  [paths.planShare.path, ShareScreen],
  [paths.plan.path, PlanScreen],
  [paths.planIdeas.path, PlanIdeasScreen],
  [paths.planAvailability.path, PlanAvailabilityScreen],
  [paths.interests.path, InterestsScreen],
  [paths.manageInterests.path, ManageInterestsScreen],
] as const;
const anyoneScreens = [
  [paths.auth.path, AuthScreen],
  [paths.undoEmailChange.path, UndoEmailChangeScreen],
  [paths.unsubscribe.path, UnsubscribeScreen],
  [paths.guestDashboard.path, GuestDashboardScreen],
  [paths.guestIdeas.path, GuestIdeasScreen],
  [paths.guestAvailability.path, GuestAvailabilityScreen],
] as const;

/** Starts loading the screen `pathname` shows (nothing for the pages in the entry chunk). */
export function preloadScreenOf(pathname: string, signedIn = getAuthToken() !== null): void {
  if (pathname === paths.landing.path) {
    if (signedIn) HomeScreen.preload().catch(() => {});
    return;
  }
  const matches = ([path]: readonly [string, unknown]) => matchPath(path, pathname) !== null;
  const signedInScreen = signedInScreens.find(matches);
  const screen = signedInScreen ? (signedIn ? signedInScreen[1] : AuthScreen) : anyoneScreens.find(matches)?.[1];
  // A failed download is no error yet: rendering the screen tries again.
  screen?.preload().catch(() => {});
}

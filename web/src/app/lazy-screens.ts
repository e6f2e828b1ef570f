import { lazy } from 'react';

// One chunk per screen: a visitor on the landing page never downloads the
// signed-in screens, and the reverse. The two pages people arrive on from
// outside, the landing page and a plan's join page, are in the entry chunk
// instead (app-routes): they render with no second round of requests.
export const AuthScreen = lazy(() =>
  import('../features/auth/components/auth-screen').then((m) => ({ default: m.AuthScreen })),
);
export const HomeScreen = lazy(() =>
  import('../features/plans/components/home-screen').then((m) => ({ default: m.HomeScreen })),
);
export const ProfileScreen = lazy(() =>
  import('../features/profile/components/profile-screen').then((m) => ({ default: m.ProfileScreen })),
);
export const CreatePlanScreen = lazy(() =>
  import('../features/plans/components/create-plan-screen').then((m) => ({ default: m.CreatePlanScreen })),
);
// The share page alone carries the QR code library.
export const ShareScreen = lazy(() =>
  import('../features/plans/components/share-screen').then((m) => ({ default: m.ShareScreen })),
);
export const PlanScreen = lazy(() =>
  import('../features/plans/components/plan-screen').then((m) => ({ default: m.PlanScreen })),
);
// The public plan pages of guests (/l/{slug}/dashboard; /l/{slug} is in the entry).
export const GuestDashboardScreen = lazy(() =>
  import('../features/guests/components/guest-dashboard-screen').then((m) => ({ default: m.GuestDashboardScreen })),
);
// The availability pages (step 2 of 3): /plan/{id}/availability, /l/{slug}/availability.
export const PlanAvailabilityScreen = lazy(() =>
  import('../features/availability/components/availability-screens').then((m) => ({ default: m.PlanAvailabilityScreen })),
);
export const GuestAvailabilityScreen = lazy(() =>
  import('../features/availability/components/availability-screens').then((m) => ({ default: m.GuestAvailabilityScreen })),
);

// The ideas pages (step 1 of 3) and the interests pages.
export const PlanIdeasScreen = lazy(() =>
  import('../features/ideas/components/ideas-screen').then((m) => ({ default: m.PlanIdeasScreen })),
);
export const GuestIdeasScreen = lazy(() =>
  import('../features/ideas/components/ideas-screen').then((m) => ({ default: m.GuestIdeasScreen })),
);
export const InterestsScreen = lazy(() =>
  import('../features/interests/components/interests-screen').then((m) => ({ default: m.InterestsScreen })),
);
export const ManageInterestsScreen = lazy(() =>
  import('../features/interests/components/manage-interests-screen').then((m) => ({ default: m.ManageInterestsScreen })),
);

// The plan page's tab panels belong to their own features and load with the
// tab: the app layer hands them to the plans feature (imports flow one way).
export const planTabs = {
  ideas: lazy(() => import('../features/ideas/components/ideas-tab').then((m) => ({ default: m.IdeasTab }))),
  availability: lazy(() =>
    import('../features/availability/components/availability-tab').then((m) => ({ default: m.AvailabilityTab })),
  ),
};

import { lazy } from 'react';

// One chunk per screen: a visitor on the landing page never downloads the
// signed-in screens, and the reverse.
export const LandingScreen = lazy(() =>
  import('../features/landing/components/landing-screen').then((m) => ({ default: m.LandingScreen })),
);
export const AuthScreen = lazy(() =>
  import('../features/auth/components/auth-screen').then((m) => ({ default: m.AuthScreen })),
);
export const HomeScreen = lazy(() =>
  import('../features/plans/components/home-screen').then((m) => ({ default: m.HomeScreen })),
);
export const ProfileScreen = lazy(() =>
  import('../features/profile/components/profile-screen').then((m) => ({ default: m.ProfileScreen })),
);

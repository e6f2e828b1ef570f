import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthScreen, GuestDashboardScreen, HomeScreen, PlanScreen, ProfileScreen, ShareScreen, UnsubscribeScreen, preloadScreenOf } from './lazy-screens';

describe('preloadScreenOf', () => {
  afterEach(() => vi.restoreAllMocks());

  const spies = () => {
    const screens = { AuthScreen, GuestDashboardScreen, HomeScreen, PlanScreen, ProfileScreen, ShareScreen, UnsubscribeScreen };
    return Object.fromEntries(
      Object.entries(screens).map(([name, screen]) => [name, vi.spyOn(screen, 'preload').mockResolvedValue(undefined)]),
    ) as Record<keyof typeof screens, ReturnType<typeof vi.spyOn>>;
  };

  it("loads the screen of the address: the plan's own screen, not its share page", () => {
    const spy = spies();
    preloadScreenOf('/plan/p1', true);
    expect(spy.PlanScreen).toHaveBeenCalledOnce();
    expect(spy.ShareScreen).not.toHaveBeenCalled();
    preloadScreenOf('/l/abc/dashboard', false);
    expect(spy.GuestDashboardScreen).toHaveBeenCalledOnce();
  });

  it('signed out, a signed-in page loads sign-in instead; / signed in loads home, signed out nothing', () => {
    const spy = spies();
    preloadScreenOf('/profile', false);
    expect(spy.AuthScreen).toHaveBeenCalledOnce();
    expect(spy.ProfileScreen).not.toHaveBeenCalled();
    preloadScreenOf('/', false);
    expect(spy.HomeScreen).not.toHaveBeenCalled();
    preloadScreenOf('/', true);
    expect(spy.HomeScreen).toHaveBeenCalledOnce();
  });

  it('the unsubscribe page loads itself, signed in or not', () => {
    const spy = spies();
    preloadScreenOf('/unsubscribe/abc', false);
    preloadScreenOf('/unsubscribe/abc', true);
    expect(spy.UnsubscribeScreen).toHaveBeenCalledTimes(2);
    expect(spy.AuthScreen).not.toHaveBeenCalled();
  });
});

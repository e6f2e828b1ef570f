import { describe, expect, it } from 'vitest';
import { PLAN_STATUSES } from '../../../supabase/functions/_shared/contract/common';
import { planSlot, renderShells } from './shells';

// The shells' texts are the spec's, each only where it is right (public/shell.js picks them).
describe('static shells', () => {
  const shells = renderShells();

  it('landing: the signed-out landing page, not the splash', () => {
    const { markup } = shells.landing;
    expect(markup).toContain('Turn &quot;we should hang out&quot; into a real plan');
    for (const text of ['Sign In', 'Start Planning', 'Collect Ideas', 'How it works', 'Get Started Free']) {
      expect(markup).toContain(text);
    }
    expect(markup).not.toContain('Loading Hangplan...');
  });

  it("join: the public header and 'Loading plan...', nothing of a plan yet", () => {
    const { markup, planStatuses } = shells.join;
    expect(markup).toContain('aria-label="Hangplan home"');
    expect(markup).toContain('Loading plan...');
    expect(markup).not.toContain('Join the Plan');
    expect(planStatuses).toBeUndefined();
  });

  it('join with its plan: one shell per phase badge, together for every plan status', () => {
    const planShells = Object.entries(shells).filter(([, shell]) => shell.planStatuses);
    expect(planShells.map(([name]) => name).sort()).toEqual(['join-active', 'join-cancelled', 'join-planning-phase']);
    expect(planShells.flatMap(([, shell]) => shell.planStatuses).sort()).toEqual([...PLAN_STATUSES].sort());
    expect(shells['join-planning-phase']!.planStatuses).toEqual(['planning']);
    expect(shells['join-planning-phase']!.markup).toContain('>Planning phase<');
    expect(shells['join-active']!.markup).toContain('>Active<');
    expect(shells['join-active']!.markup).not.toContain('Planning phase');
    expect(shells['join-cancelled']!.planStatuses).toEqual(['cancelled']);
    expect(shells['join-cancelled']!.markup).toContain('>Cancelled<');
  });

  it("join with its plan: the signed-out join page of spec §2, the plan's texts as slots, its links on the shell's slug", () => {
    for (const name of ['join-planning-phase', 'join-active', 'join-cancelled']) {
      const { markup, planSlug } = shells[name]!;
      for (const text of ['Join the Plan', 'What&#x27;s your name?', 'Your friends will see this name next to your votes.', 'Continue', 'Sign In Instead']) {
        expect(markup).toContain(text);
      }
      // Each slot is a text of its own, the whole of its element (shell.js replaces it, or removes the element).
      expect(markup).toContain(`id="join-plan-title">${planSlot('title')}</h1>`);
      expect(markup).toMatch(new RegExp(`<p [^>]*>${planSlot('description').replace(/[[\].]/g, '\\$&')}</p>`));
      expect(planSlug).toBe('shell-slug');
      expect(markup).toContain(`href="/auth?returnTo=/l/${planSlug}"`);
      expect(markup).not.toContain('Loading plan...');
    }
  });

  it("splash: 'Loading Hangplan...' alone", () => {
    expect(shells.splash.markup).toContain('Loading Hangplan...');
    expect(shells.splash.markup).not.toContain('Start Planning');
  });
});

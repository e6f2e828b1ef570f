import { describe, expect, it } from 'vitest';
import { preloadDependencies } from './background-imports';

describe('what the build preloads with a dynamic import', () => {
  const deps = ['assets/OptionalPortal-BEq-yZOl.js', 'assets/use-merged-ref-BuinRdYC.js'];

  it("preloads a screen's chunk with everything it imports", () => {
    expect(preloadDependencies('assets/plan-screen-BkbtLLOA.js', deps)).toEqual(deps);
    expect(preloadDependencies('assets/auth-screen-_qB5y43G.js', deps)).toEqual(deps);
  });

  it("adds no preload for a background chunk's imports (the toasts' code)", () => {
    expect(preloadDependencies('assets/toaster-C1wiycoD.js', deps)).toEqual([]);
    expect(preloadDependencies('assets/toaster-a_b-9.js', deps)).toEqual([]);
    expect(preloadDependencies('assets/not-a-toaster-screen-C1wiycoD.js', deps)).toEqual(deps);
  });
});

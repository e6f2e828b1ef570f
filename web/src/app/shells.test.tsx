import { describe, expect, it } from 'vitest';
import { renderShells } from './shells';

// The shells' texts are the spec's, each only where it is right (public/shell.js picks them).
describe('static shells', () => {
  const shells = renderShells();

  it('landing: the signed-out landing page, not the splash', () => {
    expect(shells.landing).toContain('Turn &quot;we should hang out&quot; into a real plan');
    for (const text of ['Sign In', 'Start Planning', 'Collect Ideas', 'How it works', 'Get Started Free']) {
      expect(shells.landing).toContain(text);
    }
    expect(shells.landing).not.toContain('Loading Hangplan...');
  });

  it("join: the public header and 'Loading plan...', nothing of a plan yet", () => {
    expect(shells.join).toContain('aria-label="Hangplan home"');
    expect(shells.join).toContain('Loading plan...');
    expect(shells.join).not.toContain('Join the Plan');
  });

  it("splash: 'Loading Hangplan...' alone", () => {
    expect(shells.splash).toContain('Loading Hangplan...');
    expect(shells.splash).not.toContain('Start Planning');
  });
});

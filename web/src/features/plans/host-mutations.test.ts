import { describe, expect, it } from 'vitest';
import { MissingPlanIdError, requirePlanId } from './host-mutations';

describe('host actions need a plan id (spec §5)', () => {
  it("refuses a missing id with 'Plan not found' before any request", () => {
    expect(() => requirePlanId(undefined)).toThrow(MissingPlanIdError);
    expect(() => requirePlanId('')).toThrow('Plan not found');
    expect(requirePlanId('p1')).toBe('p1');
  });
});

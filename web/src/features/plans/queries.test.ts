import { describe, expect, it } from 'vitest';
import { planKeys } from './queries';

describe('planKeys', () => {
  it('are the API paths, nested under the list', () => {
    expect(planKeys.lists()).toEqual(['/api/plans']);
    expect(planKeys.detail('p1')).toEqual(['/api/plans', 'p1']);
    expect(planKeys.participants('p1')).toEqual(['/api/plans', 'p1', 'participants']);
    expect(planKeys.participants('p1').join('/')).toBe('/api/plans/p1/participants');
  });

  it('encode the id so it stays one path segment', () => {
    expect(planKeys.detail('../../auth/me').join('/')).toBe('/api/plans/..%2F..%2Fauth%2Fme');
  });
});

import { describe, expect, it } from 'vitest';
import { dateKeys, ideaKeys, planKeys, previewKeys, rsvpKeys } from './query-keys';

describe('query keys', () => {
  it('name what is cached, everything about one plan under planKeys.plan(id)', () => {
    expect(planKeys.list()).toEqual(['plans', 'list']);
    expect(planKeys.detail('p1')).toEqual(['plans', 'p1', 'detail']);
    expect(planKeys.participants('p1')).toEqual(['plans', 'p1', 'participants']);
    expect(planKeys.bySlug('abc')).toEqual(['plans', 'slug', 'abc']);
    expect(ideaKeys.list('p1', 'g1')).toEqual(['plans', 'p1', 'ideas', 'list', { guestId: 'g1' }]);
    expect(ideaKeys.comments('p1', 'i1')).toEqual(['plans', 'p1', 'ideas', 'comments', 'i1']);
    expect(dateKeys.myVotes('p1', undefined)).toEqual(['plans', 'p1', 'dates', 'my-votes', { guestId: null }]);
    expect(dateKeys.voters('p1', 's1')).toEqual(['plans', 'p1', 'dates', 'voters', 's1']);
    expect(rsvpKeys.list('p1', undefined)).toEqual(['plans', 'p1', 'rsvps', { guestId: null }]);
    expect(previewKeys.card('p1', 'abc')).toEqual(['plans', 'p1', 'preview', 'abc']);
    const plan = planKeys.plan('p1');
    for (const key of [planKeys.detail('p1'), ideaKeys.suggestions('p1'), dateKeys.timeSlots('p1'), rsvpKeys.list('p1', 'g1'), previewKeys.card('p1', 'abc'), planKeys.mutation('p1', 'x')]) {
      expect(key.slice(0, plan.length)).toEqual(plan);
    }
  });

  it('keep ids as they are: no query strings, no encoding', () => {
    expect(planKeys.detail('../../auth/me')).toEqual(['plans', '../../auth/me', 'detail']);
  });
});

import { describe, expect, it } from 'vitest';
import { apiPaths } from './api-paths';

describe('apiPaths', () => {
  it('build the spec §7 URLs', () => {
    expect(apiPaths.participants('p1')).toBe('/api/plans/p1/participants');
    expect(apiPaths.ideas('p1', null)).toBe('/api/plans/p1/ideas');
    expect(apiPaths.ideas('p1', 'g 1')).toBe('/api/plans/p1/ideas?guestId=g%201');
    expect(apiPaths.myVotes('p1', undefined)).toBe('/api/plans/p1/my-votes?answers=true');
    expect(apiPaths.myVotes('p1', 'g 1')).toBe('/api/plans/p1/my-votes?answers=true&guestId=g%201');
    expect(apiPaths.timeSlot('s1', 'voters')).toBe('/api/timeslots/s1/voters');
    expect(apiPaths.planEvents('p1')).toBe('/api/plans/p1/events');
    expect(apiPaths.planEvents('p1', 12)).toBe('/api/plans/p1/events?since=12');
    expect(apiPaths.unsubscribe('aB-_9')).toBe('/api/unsubscribe/aB-_9');
    expect(apiPaths.rsvp('p1')).toBe('/api/plans/p1/rsvp');
    expect(apiPaths.rsvps('p1', 'g1')).toBe('/api/plans/p1/rsvps?guestId=g1');
    expect(apiPaths.rsvpFor('p1', 'pp/1')).toBe('/api/plans/p1/rsvps/pp%2F1');
    expect(apiPaths.capacity('p1')).toBe('/api/plans/p1/capacity');
    expect(apiPaths.linkPreview('a/b')).toBe('/api/plans/slug/a%2Fb/preview');
    expect(apiPaths.previewDetails('p1')).toBe('/api/plans/p1/preview-details');
  });

  it('encode ids so they stay one path segment', () => {
    expect(apiPaths.plan('../../auth/me')).toBe('/api/plans/..%2F..%2Fauth%2Fme');
    expect(apiPaths.planBySlug('a/b')).toBe('/api/plans/slug/a%2Fb');
    expect(apiPaths.idea('../x', 'comments')).toBe('/api/ideas/..%2Fx/comments');
    expect(apiPaths.unsubscribe('../plans')).toBe('/api/unsubscribe/..%2Fplans');
  });
});

import { describe, expect, it } from 'vitest';
import { buildPanelSuggestions, GENERIC_SUGGESTIONS, MAX_PANEL_SUGGESTIONS } from './suggestions';
import { ideaJson } from './test-fixtures';

const me = { userId: 'u1' };

describe('buildPanelSuggestions', () => {
  it("shows the server's suggestions as 'ai', at most 3", () => {
    const result = buildPanelSuggestions({ server: ['Go bowling', 'Host a board game night', 'Go on a day hike', 'Go dancing'], ideas: [], viewer: me });
    expect(MAX_PANEL_SUGGESTIONS).toBe(3);
    expect(result).toEqual([
      { text: 'Go bowling', source: 'ai' },
      { text: 'Host a board game night', source: 'ai' },
      { text: 'Go on a day hike', source: 'ai' },
    ]);
  });

  it('drops suggestions equal to an existing idea (trimmed, any case) and repeats', () => {
    const ideas = [ideaJson({ text: ' go BOWLING ' })];
    const result = buildPanelSuggestions({ server: ['Go bowling', 'Go dancing', 'go  dancing', ' '], ideas, viewer: me });
    expect(result).toEqual([{ text: 'Go dancing', source: 'ai' }]);
  });

  it("falls back to the most-voted ideas by others the viewer hasn't backed, then the generic ones", () => {
    const ideas = [
      ideaJson({ id: 'mine', text: 'Karaoke', userId: 'u1', voteCount: 9 }),
      ideaJson({ id: 'few', text: 'Picnic', userId: 'u2', voteCount: 1 }),
      ideaJson({ id: 'most', text: 'Escape room', userId: null, guestId: 'g1', voteCount: 4 }),
      ideaJson({ id: 'none', text: 'Bowling', userId: 'u3', voteCount: 0 }),
      ideaJson({ id: 'backed', text: 'Sushi', userId: 'u3', voteCount: 5, hasUserVoted: true }),
    ];
    expect(buildPanelSuggestions({ server: undefined, ideas, viewer: me })).toEqual([
      { text: 'Escape room', source: 'popular', ideaId: 'most', voteCount: 4 },
      { text: 'Picnic', source: 'popular', ideaId: 'few', voteCount: 1 },
      { text: 'Grab coffee and catch up', source: 'popular' },
    ]);
  });

  it('treats a guest viewer by guest id', () => {
    const ideas = [ideaJson({ id: 'own', text: 'Escape room', userId: null, guestId: 'g1', voteCount: 4 })];
    const result = buildPanelSuggestions({ server: [], ideas, viewer: { guestId: 'g1' } });
    expect(result.map((s) => s.text)).toEqual(GENERIC_SUGGESTIONS.slice(0, 3));
  });

  it('gives the 5 generic ideas in order when there is nothing else, minus existing ones', () => {
    expect(GENERIC_SUGGESTIONS).toEqual([
      'Grab coffee and catch up',
      'Try a new restaurant',
      'Go for a walk in the park',
      'Have a game night',
      'Watch a movie together',
    ]);
    const all = buildPanelSuggestions({ server: [], ideas: [], viewer: null, limit: 5 });
    expect(all).toEqual(GENERIC_SUGGESTIONS.map((text) => ({ text, source: 'popular' })));
    const ideas = [ideaJson({ text: 'try a new RESTAURANT' })];
    expect(buildPanelSuggestions({ server: undefined, ideas, viewer: me }).map((s) => s.text)).toEqual([
      'Grab coffee and catch up',
      'Go for a walk in the park',
      'Have a game night',
    ]);
  });

  it('falls back when every server suggestion is already an idea', () => {
    const ideas = [ideaJson({ text: 'Go bowling' })];
    expect(buildPanelSuggestions({ server: ['Go bowling'], ideas, viewer: me })[0]).toEqual({
      text: 'Grab coffee and catch up',
      source: 'popular',
    });
  });
});

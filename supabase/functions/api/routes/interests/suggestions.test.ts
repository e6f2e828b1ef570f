import { describe, expect, it } from 'vitest';
import { activityFor, buildSuggestions, MAX_SUGGESTIONS, normalizeText, type SharedInterest } from './suggestions.ts';

const shared = (...entries: Array<[string, number]>): SharedInterest[] =>
  entries.map(([interest, memberCount]) => ({ interest, memberCount }));

describe('activityFor', () => {
  it('maps every catalogue item to its own activity', () => {
    const texts = ['Board Games', 'Food & Dining', 'Hiking & Outdoors', 'Travel', 'Coffee', 'Live Music', 'Movies', 'Reading'].map(
      activityFor,
    );
    expect(texts).toEqual([
      'Host a board game night',
      'Try a new restaurant together',
      'Go on a day hike',
      'Plan a day trip out of town',
      'Meet for coffee at a new café',
      'Catch a live music show',
      'See a new movie at the cinema',
      'Browse a bookstore together',
    ]);
    expect(new Set(texts).size).toBe(8);
  });

  it('ignores case and spacing of a catalogue name', () => {
    expect(activityFor('  board   GAMES ')).toBe('Host a board game night');
    expect(activityFor('coffee')).toBe('Meet for coffee at a new café');
  });

  it('matches free text by keyword, on whole words', () => {
    expect(activityFor('sushi')).toBe('Go out for sushi');
    expect(activityFor('Tacos')).toBe('Go out for tacos');
    expect(activityFor('Rock climbing')).toBe('Go climbing at a bouldering gym');
    expect(activityFor('wine')).toBe('Go wine tasting');
    expect(activityFor('Escape rooms')).toBe('Try an escape room');
    expect(activityFor('café hopping')).toBe('Meet for coffee at a new café');
    expect(activityFor('Theme parks')).toBe('Spend a day at a theme park');
    expect(activityFor('tennis')).toBe('Play a match of tennis');
    expect(activityFor('Pottery')).toBe('Take a pottery class together');
    expect(activityFor('video games')).toBe('Have a video game night');
    expect(activityFor('Playing chess')).toBe('Host a board game night');
    // 'art' is a whole word here, not inside 'party' or 'martial'.
    expect(activityFor('Art')).toBe('Visit a museum or gallery');
    expect(activityFor('Partying')).toBe('Go partying together');
  });

  it('phrases other interests sensibly', () => {
    expect(activityFor('Skiing')).toBe('Go skiing together');
    expect(activityFor('bird watching')).toBe('Go bird watching together');
    expect(activityFor('Learning languages')).toBe('Spend an afternoon learning languages together');
    expect(activityFor('Origami')).toBe('Plan an origami day');
    expect(activityFor('Harry Potter')).toBe('Plan a Harry Potter day');
    expect(activityFor('NBA')).toBe('Plan an NBA day');
    expect(activityFor('Spring')).toBe('Plan a spring day');
  });
});

describe('normalizeText', () => {
  it('trims, collapses inner whitespace and ignores case', () => {
    expect(normalizeText('  Host a  BOARD game\tnight ')).toBe('host a board game night');
  });
});

describe('buildSuggestions', () => {
  it('puts the most shared interests first, keeping the order of ties', () => {
    const interests = shared(['Reading', 1], ['Movies', 3], ['Coffee', 2], ['Travel', 3]);
    expect(buildSuggestions(interests, [])).toEqual([
      'See a new movie at the cinema',
      'Plan a day trip out of town',
      'Meet for coffee at a new café',
      'Browse a bookstore together',
    ]);
  });

  it('drops texts equal to an existing idea, trimmed and in any case', () => {
    const interests = shared(['Coffee', 2], ['Board Games', 2], ['Movies', 1]);
    const existing = ['  meet for COFFEE at a new café ', 'See a new movie'];
    expect(buildSuggestions(interests, existing)).toEqual(['Host a board game night', 'See a new movie at the cinema']);
  });

  it('gives one text once, for the most shared interest that leads to it', () => {
    const interests = shared(['espresso', 1], ['Coffee', 4], ['lattes', 2], ['Board Games', 3]);
    expect(buildSuggestions(interests, [])).toEqual(['Meet for coffee at a new café', 'Host a board game night']);
  });

  it(`answers at most ${MAX_SUGGESTIONS} (or the limit given)`, () => {
    const interests = shared(
      ['Board Games', 9],
      ['Food & Dining', 8],
      ['Hiking & Outdoors', 7],
      ['Travel', 6],
      ['Coffee', 5],
      ['Live Music', 4],
      ['Movies', 3],
      ['Reading', 2],
    );
    const all = buildSuggestions(interests, []);
    expect(all).toHaveLength(MAX_SUGGESTIONS);
    expect(all[0]).toBe('Host a board game night');
    expect(buildSuggestions(interests, [], 3)).toEqual(all.slice(0, 3));
    // Skipped duplicates do not use up the limit.
    expect(buildSuggestions(interests, ['Host a board game night'], 2)).toEqual([
      'Try a new restaurant together',
      'Go on a day hike',
    ]);
  });

  it('answers nothing without interests, and skips blank ones', () => {
    expect(buildSuggestions([], ['Bowling'])).toEqual([]);
    expect(buildSuggestions(shared(['  ', 3], ['Coffee', 1]), [])).toEqual(['Meet for coffee at a new café']);
  });
});

import { describe, expect, it } from 'vitest';
import { groupByCategory, INTEREST_CATEGORIES, interestCategory } from './categories';

describe('interestCategory', () => {
  it.each([
    ['Board Games', 'Indoor Activities'],
    ['Food & Dining', 'Dining'],
    ['Hiking & Outdoors', 'Outdoor Activities'],
    ['Travel', 'Outdoor Activities'],
    ['Coffee', 'Dining'],
    ['Live Music', 'Indoor Activities'],
    ['Movies', 'Indoor Activities'],
    ['Reading', 'Indoor Activities'],
  ])('places the catalogue item %s in %s', (text, category) => {
    expect(interestCategory(text)).toBe(category);
  });

  it.each([
    ['video games', 'Online Activities'],
    ['Online chess', 'Online Activities'],
    ['Twitch streams', 'Online Activities'],
    ['board game café', 'Indoor Activities'],
    ['Escape rooms', 'Indoor Activities'],
    ['  SUSHI  ', 'Dining'],
    ['Cooking', 'Dining'],
    ['Wine tasting', 'Dining'],
    ['Cafés', 'Dining'],
    ['rock climbing', 'Outdoor Activities'],
    ['Beach volleyball', 'Outdoor Activities'],
    ['Volunteering', 'Other'],
    ['Team building', 'Other'],
    ['', 'Other'],
  ])('places %s in %s by keyword (whole words, any case)', (text, category) => {
    expect(interestCategory(text)).toBe(category);
  });
});

describe('groupByCategory', () => {
  it('lists every category in order, with its interests in the given order', () => {
    const interests = [
      { id: '1', freeFormText: 'Hiking' },
      { id: '2', freeFormText: 'Sushi' },
      { id: '3', freeFormText: 'Volunteering' },
      { id: '4', freeFormText: 'Camping' },
    ];
    const groups = groupByCategory(interests);
    expect(groups.map((group) => group.category)).toEqual([...INTEREST_CATEGORIES]);
    expect(INTEREST_CATEGORIES).toEqual(['Indoor Activities', 'Dining', 'Outdoor Activities', 'Online Activities', 'Other']);
    expect(groups.map((group) => group.interests.map((i) => i.id))).toEqual([[], ['2'], ['1', '4'], [], ['3']]);
  });
});

// Manage Interests' categories (spec §2, §9; docs/web-app.md "Behaviour the spec leaves open"): assigned by
// keyword, never stored. Whole words, any case; the first category whose
// keywords match wins, in the order below (so 'video games' is Online before
// 'games' makes it Indoor, and 'board game café' is Indoor before Dining).
// Pure; tested in categories.test.ts.

export const INTEREST_CATEGORIES = [
  'Indoor Activities',
  'Dining',
  'Outdoor Activities',
  'Online Activities',
  'Other',
] as const;
export type InterestCategory = (typeof INTEREST_CATEGORIES)[number];

const RULES: ReadonlyArray<readonly [Exclude<InterestCategory, 'Other'>, RegExp]> = [
  [
    'Online Activities',
    /\b(online|internet|web|virtual|video ?games?|gaming|gamer|e-?sports?|streaming|streams?|twitch|discord|zoom|podcasts?|youtube|mmos?|coding|programming|social media)\b/,
  ],
  [
    'Indoor Activities',
    /\b(board ?games?|card games?|games?|puzzles?|chess|movies?|films?|cinema|tv|series|reading|books?|book club|novels?|museums?|galler(y|ies)|art|painting|drawing|pottery|ceramics|crafts?|crafting|knitting|sewing|music|concerts?|live music|karaoke|bowling|escape rooms?|trivia|quiz(zes)?|theat(er|re)|musicals?|comedy|dancing|dance|yoga|pilates|gym|fitness|workouts?|spa|billiards|pool|darts|arcade)\b/,
  ],
  [
    'Dining',
    /\b(food|foodie|dining|dine|dinner|lunch|brunch|breakfast|restaurants?|cuisine|eating|eat|cooking|cook|baking|bake|coffee|caf[eé]s?|espresso|tea|wine|beers?|brewer(y|ies)|cocktails?|bars?|drinks?|pubs?|sushi|pizza|tacos?|ramen|burgers?|bbq|barbecue|tapas|dim sum|desserts?|ice cream|bakery|bakeries)(?!\w)/,
  ],
  [
    'Outdoor Activities',
    /\b(outdoors?|hik(e|es|ing)|trails?|nature|parks?|camping|camp|beach(es)?|climbing|bouldering|cycling|bik(e|es|ing)|running|jogging|walks?|walking|travel(l?ing)?|trips?|road ?trips?|mountains?|ski(ing)?|snowboarding|surf(ing)?|swimming|swim|kayak(ing)?|fishing|gardening|garden|picnics?|golf|tennis|soccer|football|basketball|baseball|sports?|sailing|festivals?|sightseeing|exploring)\b/,
  ],
];

/** The category of one interest text. */
export function interestCategory(text: string): InterestCategory {
  const key = text.trim().replace(/\s+/g, ' ').toLowerCase();
  for (const [category, pattern] of RULES) if (pattern.test(key)) return category;
  return 'Other';
}

/** Every category in display order, each with its interests (kept in the given order). */
export function groupByCategory<T extends { freeFormText: string }>(
  interests: readonly T[],
): Array<{ category: InterestCategory; interests: T[] }> {
  const groups = new Map<InterestCategory, T[]>(INTEREST_CATEGORIES.map((category) => [category, []]));
  for (const interest of interests) groups.get(interestCategory(interest.freeFormText))!.push(interest);
  return INTEREST_CATEGORIES.map((category) => ({ category, interests: groups.get(category)! }));
}

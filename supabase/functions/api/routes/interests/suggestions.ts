// Activity suggestions from shared interests (GET /api/plans/{id}/activity-
// suggestions; docs/api.md "Interests and suggestions"). Pure: the route reads
// the plan's shared interests (private.plan_shared_interests, most shared first)
// and its ideas, this module turns them into at most MAX_SUGGESTIONS concrete
// activity texts. No external AI service: a small hand-written mapping.
//
//   1. the catalogue items map to a fixed text each (Coffee -> 'Meet for coffee
//      at a new café');
//   2. free-text interests are matched by keyword (whole words, any case:
//      'sushi' -> 'Go out for sushi', 'rock climbing' -> 'Go climbing at a
//      bouldering gym');
//   3. anything else is phrased from the interest itself: an activity in -ing
//      ('Skiing', 'wine tasting') -> 'Go skiing together', one that starts
//      with a verb in -ing ('playing chess') -> 'Spend an afternoon playing chess
//      together', a thing ('Pottery') -> 'Plan a pottery day'.
//
// Texts equal to an existing idea (trimmed, case-insensitive, spec §5) and
// repeats (two interests giving one text) are dropped; the most shared interest
// keeps its place.

/** The client shows 3 (spec §9); a few more leave room for its own filtering. */
export const MAX_SUGGESTIONS = 6;

/** One row of private.plan_shared_interests. */
export interface SharedInterest {
  interest: string;
  /** How many of the plan's members hold it. */
  memberCount: number;
}

/** The seeded catalogue (docs/api.md "Interests and suggestions"), by lower-cased name. */
const CATALOGUE: Record<string, string> = {
  'board games': 'Host a board game night',
  'food & dining': 'Try a new restaurant together',
  'hiking & outdoors': 'Go on a day hike',
  travel: 'Plan a day trip out of town',
  coffee: 'Meet for coffee at a new café',
  'live music': 'Catch a live music show',
  movies: 'See a new movie at the cinema',
  reading: 'Browse a bookstore together',
};

/**
 * Keyword rules for free text, first match wins (so the more specific come
 * first: 'board games' before 'games'). `{match}` in a text is replaced by the
 * keyword as found, lower-cased.
 */
const KEYWORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bboard ?games?\b|\bboardgames?\b|\bcard games?\b|\bchess\b/, 'Host a board game night'],
  [/\bvideo ?games?\b|\bgaming\b|\bgamer\b|\besports?\b|\bconsoles?\b/, 'Have a video game night'],
  [/\bescape rooms?\b/, 'Try an escape room'],
  [/\btrivia\b|\bpub quiz\b|\bquiz(zes)?\b/, 'Go to a trivia night'],
  [/\bkaraoke\b/, 'Sing your hearts out at karaoke'],
  [/\bbowling\b/, 'Go bowling'],
  [/\bsushi\b|\bpizza\b|\btacos?\b|\bramen\b|\bburgers?\b|\bdim sum\b|\btapas\b|\bbbq\b|\bbarbecue\b|\bbrunch\b/, 'Go out for {match}'],
  [/\bfood\b|\bfoodie\b|\bdining\b|\brestaurants?\b|\bcuisine\b|\beating out\b/, 'Try a new restaurant together'],
  [/\bcooking\b|\bcook\b|\bchef\b/, 'Cook dinner together'],
  [/\bbaking\b|\bbake\b/, 'Bake something together'],
  // (?!\w) rather than \b after 'é', which JavaScript does not count as a word character.
  [/\bcoffee\b|\bcaf[eé]s?(?!\w)|\bespresso\b|\blattes?\b/, 'Meet for coffee at a new café'],
  [/\btea\b/, 'Meet for tea at a cozy tea room'],
  [/\bwines?\b/, 'Go wine tasting'],
  [/\bbeers?\b|\bbrewer(y|ies)\b|\bcraft beer\b/, 'Visit a local brewery'],
  [/\bcocktails?\b|\bbars?\b|\bmixology\b/, 'Grab cocktails at a new bar'],
  [/\bcamping\b|\bcamp\b/, 'Go camping for a night'],
  [/\btheme parks?\b|\bamusement parks?\b|\broller ?coasters?\b/, 'Spend a day at a theme park'],
  [/\bhik(e|es|ing)\b|\btrails?\b|\boutdoors?\b|\bnature\b|\bmountains?\b|\bnational parks?\b/, 'Go on a day hike'],
  [/\bpicnics?\b|\bparks?\b/, 'Have a picnic in the park'],
  [/\bbeach(es)?\b|\bswimming\b|\bswim\b|\bsurf(ing)?\b/, 'Spend a day at the beach'],
  [/\bclimbing\b|\bbouldering\b/, 'Go climbing at a bouldering gym'],
  [/\bcycling\b|\bbik(e|es|ing)\b|\bbicycles?\b/, 'Go on a bike ride together'],
  [/\brunning\b|\bjogging\b|\bmarathons?\b/, 'Go for a run together'],
  [/\byoga\b|\bpilates\b/, 'Take a yoga class together'],
  [/\bgym\b|\bfitness\b|\bworkouts?\b/, 'Work out together'],
  [/\bdanc(e|es|ing)\b|\bsalsa\b/, 'Go dancing'],
  [/\btravel(l?ing)?\b|\btrips?\b|\broad ?trips?\b|\bexploring\b/, 'Plan a day trip out of town'],
  [/\bconcerts?\b|\bgigs?\b|\blive music\b|\bfestivals?\b|\bjazz\b/, 'Catch a live music show'],
  [/\bmusic\b|\bvinyl\b|\brecords?\b/, 'Go record shopping together'],
  [/\bmovies?\b|\bfilms?\b|\bcinema\b/, 'See a new movie at the cinema'],
  [/\banime\b|\bmanga\b/, 'Have an anime marathon night'],
  [/\bseries\b|\btv\b|\bnetflix\b|\bstreaming\b/, 'Have a movie night in'],
  [/\btheat(er|re)\b|\bmusicals?\b|\bplays?\b|\bopera\b/, 'See a show at the theater'],
  [/\bcomedy\b|\bstand-?up\b|\bimprov\b/, 'See a stand-up comedy show'],
  [/\bmuseums?\b|\bart\b|\bgaller(y|ies)\b|\bexhibitions?\b/, 'Visit a museum or gallery'],
  [/\bbooks?\b|\breading\b|\bnovels?\b|\bliterature\b|\bbook club\b/, 'Browse a bookstore together'],
  [/\bphotography\b|\bphotos?\b/, 'Go on a photo walk'],
  [/\bfootball\b|\bsoccer\b|\bbasketball\b|\bbaseball\b|\bhockey\b|\bsports?\b/, 'Watch a game at a sports bar'],
  [/\btennis\b|\bpadel\b|\bbadminton\b|\bpickleball\b|\bping ?pong\b/, 'Play a match of {match}'],
  [/\bpottery\b|\bceramics\b|\bpainting\b|\bdrawing\b|\bknitting\b/, 'Take a {match} class together'],
  [/\bcrafts?\b|\bcrafting\b|\bdiy\b/, 'Have a crafts afternoon'],
];

/** -ing words that are not activities ('Spring', 'King', 'Wedding'). */
const NOT_GERUNDS = new Set([
  'anything', 'bring', 'building', 'ceiling', 'clothing', 'evening', 'everything', 'king', 'morning', 'nothing',
  'pudding', 'ring', 'something', 'spring', 'string', 'sing', 'swing', 'thing', 'wedding', 'wing',
]);

function isGerund(word: string): boolean {
  const w = word.toLowerCase();
  return w.length >= 5 && w.endsWith('ing') && !NOT_GERUNDS.has(w);
}

/** Trimmed, inner whitespace collapsed, lower-cased: how texts are compared. */
export function normalizeText(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

const CAPITALISED = /^[A-Z][a-z'’-]*$/;

/**
 * The interest as it reads inside a sentence: capitalised words lower-cased
 * ('Pottery' -> 'pottery', 'Rock climbing' -> 'rock climbing'), acronyms and
 * mixed case kept ('NBA', 'iPhone'), and Title Case of several words kept as a
 * probable name ('Harry Potter').
 */
function inSentence(interest: string): string {
  const words = interest.split(' ');
  if (words.length > 1 && words.every((word) => CAPITALISED.test(word))) return interest;
  return words.map((word) => (CAPITALISED.test(word) ? word.toLowerCase() : word)).join(' ');
}

/** 'a' or 'an' by sound, roughly: a vowel, or an acronym whose first letter is spoken with one ('an NBA'). */
function article(phrase: string): 'a' | 'an' {
  if (/^[A-Z]{2,}\b/.test(phrase)) return /^[AEFHILMNORSX]/.test(phrase) ? 'an' : 'a';
  return /^[aeiou]/i.test(phrase) ? 'an' : 'a';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One interest as an activity text (never empty for a non-blank interest). */
export function activityFor(interest: string): string {
  const cleaned = interest.trim().replace(/\s+/g, ' ');
  const key = cleaned.toLowerCase();
  const fromCatalogue = CATALOGUE[key];
  if (fromCatalogue) return fromCatalogue;

  for (const [pattern, text] of KEYWORDS) {
    const found = pattern.exec(key);
    if (found) return text.replace('{match}', found[0]);
  }

  const phrase = inSentence(cleaned);
  const words = phrase.split(' ');
  if (isGerund(words[words.length - 1])) return capitalise(`go ${phrase} together`);
  if (isGerund(words[0])) return `Spend an afternoon ${phrase} together`;
  return `Plan ${article(phrase)} ${phrase} day`;
}

/**
 * The suggestions for a plan: most shared interests first (ties keep their
 * order), one activity text each, without texts equal to an existing idea or
 * to an earlier suggestion, at most `limit`.
 */
export function buildSuggestions(
  interests: readonly SharedInterest[],
  existingIdeaTexts: readonly string[],
  limit = MAX_SUGGESTIONS,
): string[] {
  const taken = new Set(existingIdeaTexts.map(normalizeText));
  const ranked = interests
    .map((entry, index) => ({ ...entry, index }))
    .filter((entry) => entry.interest.trim() !== '')
    .sort((a, b) => b.memberCount - a.memberCount || a.index - b.index);
  const suggestions: string[] = [];
  for (const { interest } of ranked) {
    if (suggestions.length >= limit) break;
    const text = activityFor(interest);
    const key = normalizeText(text);
    if (taken.has(key)) continue;
    taken.add(key);
    suggestions.push(text);
  }
  return suggestions;
}

// The public entry of features/rsvps: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { AreYouComingSkeleton } from './components/are-you-coming-skeleton';
export { LazyAnswerForDialog, LazyAreYouComing } from './lazy';
export type { Answerer } from './mutations';
export { rsvpKeys, rsvpsQueryOptions } from './queries';
export { answerLabel, answersLine, answersOpen, goingFirst, goingLine, type AnswerCounts } from './rsvps';
export type { AnswerForPerson } from './components/answer-for-dialog';

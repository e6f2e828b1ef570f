// The public entry of features/guests: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { PublicLayout } from './components/public-layout';
export { RequirePlanVisitor } from './components/require-plan-visitor';
export { type PlanVisitor, guestBody, usePlanVisitor } from './visitor';

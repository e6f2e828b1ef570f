// The public entry of features/ideas: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { DashboardIdeasTab } from './components/dashboard-ideas-tab';
export { useHasVotedOnIdeas } from './voted';

// The public entry of features/auth: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { CodeStep } from './components/code-step';
export { useSendCode } from './mutations';
export { authKeys, useCurrentUser } from './queries';
export { checkEmail } from './schema';
export type { User } from '../../../../supabase/functions/_shared/contract/auth';
export { signOut, signOutLocally } from './sign-out';

// The public entry of features/auth: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { CodeStep } from './components/code-step';
export { useSendCode } from './mutations';
export { authKeys, useCurrentUser } from './queries';
export { type User, checkEmail, userSchema, userShape } from './schema';
export { signOut, signOutLocally } from './sign-out';

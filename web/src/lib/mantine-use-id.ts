// The `useId` of @mantine/hooks as the production build serves it
// (web/mantine-stable-ids.ts): React's own id, from the first render on.
// Mantine's gives React's id on the first render and a random one in a layout
// effect after it: a state change on mount in every component that uses it
// (inputs and their labels, popovers, menus, accordions), which React renders
// and commits a second time, synchronously, in the task of the first commit.
// React's useId is unique within the app and stable, so the second id buys
// nothing.
import { useId as useReactId } from 'react';

/** `staticId` when given, else an id unique in the app, the same on every render (a valid HTML id and CSS identifier). */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/[^\w-]/g, '')}`;
}

import { Notifications } from '@mantine/notifications';

/** Spec §9: one toast at a time, shown for 2500 ms. */
export function Toaster() {
  return <Notifications limit={1} autoClose={2500} position="top-center" />;
}

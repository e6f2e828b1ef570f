import { Center, Loader } from '@mantine/core';

/** While a screen's code is downloading. */
export function PageLoader() {
  return (
    <Center mih="60dvh" role="status" aria-label="Loading page">
      <Loader />
    </Center>
  );
}

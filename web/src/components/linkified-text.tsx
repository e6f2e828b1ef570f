import { Anchor } from '@mantine/core';
import { linkify } from '../lib/linkify';

/** Text whose http(s) URLs are links that open in a new tab. */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, index) =>
        part.kind === 'url' ? (
          <Anchor key={index} href={part.text} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
            {part.text}
          </Anchor>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

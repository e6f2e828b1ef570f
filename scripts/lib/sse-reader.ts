// Reads a text/event-stream body block by block, as a browser would (for the
// API tests and the live bench; the web app has its own parser).

export interface SseBlock {
  event: string;
  id?: string;
  data?: string;
  /** Comment lines (`: ping`), without the colon. */
  comments: string[];
}

/** Calls onBlock for every block of the stream; resolves when it ends, rejects when it is aborted. */
export async function readEventStream(body: AsyncIterable<Uint8Array>, onBlock: (block: SseBlock) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block: SseBlock = { event: 'message', comments: [] };
      for (const line of buffer.slice(0, cut).split('\n')) {
        if (line.startsWith(':')) {
          block.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).trimStart();
        if (field === 'event' || field === 'id' || field === 'data') block[field] = value;
      }
      buffer = buffer.slice(cut + 2);
      onBlock(block);
    }
  }
}

// A streaming parser of text/event-stream (the WHATWG "event stream
// interpretation"), fed with decoded text chunks that may split anywhere,
// even between a CR and its LF.

export interface SseMessage {
  /** The `event:` field; 'message' when absent. */
  event: string;
  /** The `data:` lines joined by '\n'. */
  data: string;
  /** The last `id:` seen on the stream (ids persist across events), '' before any. */
  id: string;
}

interface SseParser {
  push(chunk: string): void;
  /** The stream ended: a last event without its blank line is dropped (as browsers do). */
  end(): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let pendingCr = false;
  let event = '';
  let data: string[] = [];
  let lastId = '';

  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), id: lastId });
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment, e.g. ': ping'
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    // 'retry' and unknown fields: the reconnect policy is the client's own.
  };

  return {
    push(chunk) {
      let text = chunk;
      // A CR that ended the previous chunk already ended its line: skip its LF.
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    end() {
      buffer = '';
      event = '';
      data = [];
    },
  };
}

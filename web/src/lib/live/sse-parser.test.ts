import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser';

function parse(...chunks: string[]) {
  const messages: SseMessage[] = [];
  const parser = createSseParser((message) => messages.push(message));
  chunks.forEach((chunk) => parser.push(chunk));
  return messages;
}

describe('createSseParser', () => {
  it('reads events with their names, data and ids', () => {
    expect(parse('event: ready\nid: 7\ndata: {"planId":"p1","version":7}\n\n')).toEqual([
      { event: 'ready', id: '7', data: '{"planId":"p1","version":7}' },
    ]);
  });

  it('reads several events from one chunk and skips comments (pings)', () => {
    const messages = parse(': ping\n\nevent: change\nid: 8\ndata: a\n\n: ping\n\nevent: change\nid: 9\ndata: b\n\n');
    expect(messages.map((m) => [m.event, m.id, m.data])).toEqual([
      ['change', '8', 'a'],
      ['change', '9', 'b'],
    ]);
  });

  it('joins chunks split anywhere, even mid-field and between CR and LF', () => {
    const text = 'event: change\r\nid: 12\r\ndata: {"planId":"p1",\r\ndata: "version":12}\r\n\r\n';
    for (let at = 1; at < text.length; at++) {
      expect(parse(text.slice(0, at), text.slice(at))).toEqual([
        { event: 'change', id: '12', data: '{"planId":"p1",\n"version":12}' },
      ]);
    }
    const oneByOne = parse(...text.split(''));
    expect(oneByOne).toHaveLength(1);
  });

  it('keeps the last id for later events, defaults the name, strips one space only', () => {
    expect(parse('id: 3\ndata:  two spaces\n\ndata:x\n\n')).toEqual([
      { event: 'message', id: '3', data: ' two spaces' },
      { event: 'message', id: '3', data: 'x' },
    ]);
  });

  it('dispatches nothing without data, nor an event cut off by the end of the stream', () => {
    const messages: SseMessage[] = [];
    const parser = createSseParser((message) => messages.push(message));
    parser.push('event: ready\n\nevent: change\ndata: partial');
    parser.end();
    expect(messages).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify', () => {
  it('finds http and https URLs among text', () => {
    expect(linkify('Meet at https://maps.app/xyz?q=1 or http://example.com')).toEqual([
      { kind: 'text', text: 'Meet at ' },
      { kind: 'url', text: 'https://maps.app/xyz?q=1' },
      { kind: 'text', text: ' or ' },
      { kind: 'url', text: 'http://example.com' },
    ]);
  });

  it('keeps plain text as one part', () => {
    expect(linkify("Ada's place, 3rd floor")).toEqual([{ kind: 'text', text: "Ada's place, 3rd floor" }]);
    expect(linkify('')).toEqual([]);
  });

  it('leaves sentence punctuation and unbalanced brackets out of the URL', () => {
    expect(linkify('See https://example.com/a.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'url', text: 'https://example.com/a' },
      { kind: 'text', text: '.' },
    ]);
    expect(linkify('(https://example.com/x)')).toEqual([
      { kind: 'text', text: '(' },
      { kind: 'url', text: 'https://example.com/x' },
      { kind: 'text', text: ')' },
    ]);
    expect(linkify('https://en.wikipedia.org/wiki/Foo_(bar)')).toEqual([
      { kind: 'url', text: 'https://en.wikipedia.org/wiki/Foo_(bar)' },
    ]);
  });

  it('never links other schemes or a bare scheme', () => {
    expect(linkify('javascript:alert(1) ftp://x.org www.example.com')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) ftp://x.org www.example.com' },
    ]);
    expect(linkify('https://')).toEqual([{ kind: 'text', text: 'https://' }]);
  });

  it('is case-insensitive on the scheme', () => {
    expect(linkify('HTTPS://Example.com')).toEqual([{ kind: 'url', text: 'HTTPS://Example.com' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { cleanText, plainText, stripInvisible } from './text.ts';

const INVISIBLES = [
  ...Array.from({ length: 5 }, (_, i) => 0x200b + i),
  ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
  ...Array.from({ length: 5 }, (_, i) => 0x2060 + i),
  ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
  0xfeff,
].map((code) => String.fromCharCode(code));

const CONTROLS = [
  ...Array.from({ length: 32 }, (_, i) => i).filter((code) => code !== 0x0a),
  ...Array.from({ length: 33 }, (_, i) => 0x7f + i),
  0x2028,
  0x2029,
].map((code) => String.fromCharCode(code));

describe('cleanText', () => {
  it('refuses every control character inside one-line text, and \\n too', () => {
    for (const ch of [...CONTROLS, '\n']) {
      expect(cleanText(`a${ch}b`, 'line'), `U+${ch.charCodeAt(0).toString(16)}`).toEqual({ ok: false, problem: 'control' });
      expect(cleanText(`a${ch}b`, 'name')).toEqual({ ok: false, problem: 'control' });
    }
  });

  it('allows \\n only in multi-line text, turning CR LF, CR and U+2028/9 into \\n', () => {
    expect(cleanText('one\ntwo', 'multiline')).toEqual({ ok: true, value: 'one\ntwo' });
    expect(cleanText('one\r\ntwo\rthree\u2028four', 'multiline')).toEqual({ ok: true, value: 'one\ntwo\nthree\nfour' });
    for (const ch of CONTROLS.filter((c) => !['\r', '\u2028', '\u2029'].includes(c))) {
      expect(cleanText(`a${ch}b`, 'multiline'), `U+${ch.charCodeAt(0).toString(16)}`).toEqual({ ok: false, problem: 'control' });
    }
  });

  it('trims first, so stray whitespace at the ends (a pasted CR LF, a tab) is no error', () => {
    expect(cleanText(' \t Bowling \r\n', 'line')).toEqual({ ok: true, value: 'Bowling' });
    expect(cleanText('\u0000Bowling', 'line')).toEqual({ ok: false, problem: 'control' });
  });

  it('refuses NUL everywhere', () => {
    for (const kind of ['line', 'multiline', 'name'] as const) {
      expect(cleanText('x\u0000', kind)).toEqual({ ok: false, problem: 'control' });
    }
  });

  it('refuses lone surrogates, keeps emoji', () => {
    expect(cleanText('a\uD800b', 'line')).toEqual({ ok: false, problem: 'malformed' });
    expect(cleanText('a\uDC00', 'line')).toEqual({ ok: false, problem: 'malformed' });
    expect(cleanText('Pizza 🍕', 'line')).toEqual({ ok: true, value: 'Pizza 🍕' });
  });

  it('normalises to NFC', () => {
    const decomposed = 'Cafe\u0301';
    const result = cleanText(decomposed, 'line');
    expect(result).toEqual({ ok: true, value: 'Caf\u00e9' });
    expect(cleanText('Zoe\u0308', 'name')).toEqual({ ok: true, value: 'Zo\u00eb' });
  });

  it('removes every zero-width and bidi control from names, and collapses whitespace', () => {
    for (const ch of INVISIBLES) {
      expect(cleanText(`Sa${ch}m`, 'name'), `U+${ch.charCodeAt(0).toString(16)}`).toEqual({ ok: true, value: 'Sam' });
    }
    expect(cleanText('\u202EmaS', 'name')).toEqual({ ok: true, value: 'maS' });
    expect(cleanText('Sam \u00A0\u3000 Lee', 'name')).toEqual({ ok: true, value: 'Sam Lee' });
    expect(cleanText('\u200B \u200B', 'name')).toEqual({ ok: true, value: '' });
  });

  it('keeps ZWJ/ZWNJ and LRM/RLM in free text, removes the rest', () => {
    const family = '👨\u200D👩\u200D👧';
    expect(cleanText(`Picnic ${family}`, 'line')).toEqual({ ok: true, value: `Picnic ${family}` });
    expect(cleanText('\u05E9\u05DC\u05D5\u05DD\u200F!', 'multiline')).toEqual({ ok: true, value: '\u05E9\u05DC\u05D5\u05DD\u200F!' });
    expect(cleanText('evil\u202Etxt.exe', 'line')).toEqual({ ok: true, value: 'eviltxt.exe' });
    expect(cleanText('a\u200Bb\u2066c\u2069\uFEFF', 'multiline')).toEqual({ ok: true, value: 'abc' });
    // Inner whitespace of free text is the author's.
    expect(cleanText('a  b', 'line')).toEqual({ ok: true, value: 'a  b' });
  });
});

describe('stripInvisible', () => {
  it('names lose all of them, free text keeps the joiners and marks', () => {
    const all = INVISIBLES.join('');
    expect(stripInvisible(`x${all}y`, 'name')).toBe('xy');
    expect(stripInvisible(`x${all}y`, 'line')).toBe('x\u200C\u200D\u200E\u200Fy');
  });
});

describe('plainText (for calendar files and e-mails)', () => {
  it('drops CR and every other control character, and the invisible ones', () => {
    expect(plainText('Bowling\rATTENDEE:mailto:evil@example.com')).toBe('Bowling ATTENDEE:mailto:evil@example.com');
    expect(plainText('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\u202Eg')).toBe('abcdefg');
    expect(plainText('a\u200Bb\uFEFF')).toBe('ab');
  });

  it('one line: every line break and whitespace run is one space', () => {
    expect(plainText('  Park\r\n  entrance\n\tB \u2028 gate ')).toBe('Park entrance B gate');
  });

  it('multi-line: line breaks are \\n, nothing else survives', () => {
    expect(plainText('one\r\ntwo\rthree\u2029four\u0000\n', { multiline: true })).toBe('one\ntwo\nthree\nfour');
  });

  it('drops lone surrogates and normalises to NFC', () => {
    expect(plainText('a\uD800b🍕e\u0301')).toBe('ab🍕\u00e9');
  });
});

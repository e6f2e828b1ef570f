import { describe, expect, it } from 'vitest';
import { publicPlanUrl, shareMessage, shareTitle } from './share-message';

describe('share message', () => {
  it('builds the public link', () => {
    expect(publicPlanUrl('https://hangplan.app', 'abcDEF12')).toBe('https://hangplan.app/l/abcDEF12');
  });

  it("titles the message with the user's full name", () => {
    expect(shareTitle({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace wants to hang out!');
    expect(shareTitle({ firstName: ' Ada ', lastName: null })).toBe('Ada wants to hang out!');
  });

  it("says 'Someone' without a name, never the e-mail", () => {
    expect(shareTitle({ firstName: null, lastName: '  ' })).toBe('Someone wants to hang out!');
    expect(shareTitle(null)).toBe('Someone wants to hang out!');
  });

  it('puts the body then the link after the title', () => {
    expect(shareMessage('Ada wants to hang out!', 'https://h.app/l/x')).toBe(
      "Ada wants to hang out!\n\nClick here to plan what you're doing and when. Looking forward to seeing you soon!\nhttps://h.app/l/x",
    );
  });
});

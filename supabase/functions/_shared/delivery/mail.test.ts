import { describe, expect, it } from 'vitest';
import { signInCodeMail } from './mail.ts';

describe('signInCodeMail', () => {
  it('puts the code in the subject, the text and the HTML, and says when it expires', () => {
    const mail = signInCodeMail('012345');
    expect(mail.subject).toBe('Your Hangplan code is 012345');
    expect(mail.text).toContain('012345');
    expect(mail.text).toContain('expires in 10 minutes');
    expect(mail.html).toContain('012345');
    expect(mail.html).toContain('expires in 10 minutes');
  });
});

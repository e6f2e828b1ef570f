import { describe, expect, it } from 'vitest';
import { planLinkUrl, smsHref, whatsAppHref } from './share-links';

describe('share links', () => {
  const message = "Ada wants to hang out!\n\nLet's go & see https://hangplan.app/l/abc?x=1";

  it('prefills WhatsApp', () => {
    const href = whatsAppHref(message);
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    expect(new URL(href).searchParams.get('text')).toBe(message);
  });

  it('prefills an SMS', () => {
    const href = smsHref(message);
    expect(href.startsWith('sms:?&body=')).toBe(true);
    expect(decodeURIComponent(href.slice('sms:?&body='.length))).toBe(message);
    expect(href).not.toMatch(/[\s&](?!body=)/);
  });

  it('links a plan by its public link, or by its own page for a reader not shown the link', () => {
    expect(planLinkUrl('https://hangplan.app', { id: 'p1', slug: 'abc_DEF-123' })).toBe('https://hangplan.app/l/abc_DEF-123');
    expect(planLinkUrl('https://hangplan.app', { id: 'p1', slug: null })).toBe('https://hangplan.app/plan/p1');
  });
});

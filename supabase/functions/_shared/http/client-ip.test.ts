import { describe, expect, it } from 'vitest';
import { clientNetwork, networkKey, siteKey } from './client-ip.ts';

describe('networkKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]:443', '2001:db8:1:2::/64'],
    ['2001:DB8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s -> %s', (raw, key) => {
    expect(networkKey(raw)).toBe(key);
  });

  it.each([['', null], ['unknown', null], ['256.1.1.1', null], ['1.2.3', null], ['1:2:3', null], ['1::2::3', null], ['a.b.c.d', null], ['1.2.3.4; drop', null], ['01.2.3.4', null], ['1:2:3:4:5:6:7:8:9', null]])(
    'refuses %j',
    (raw, key) => {
      expect(networkKey(raw)).toBe(key);
    },
  );
});

describe('siteKey', () => {
  it.each([
    ['2001:db8:1:2::/64', '2001:db8:1:0::/56'],
    ['2001:db8:1:2ff::/64', '2001:db8:1:200::/56'],
    ['2001:db8:1:ffff::/64', '2001:db8:1:ff00::/56'],
    ['0:0:0:0::/64', '0:0:0:0::/56'],
  ])('%s -> %s', (network, site) => {
    expect(siteKey(network)).toBe(site);
  });

  it('the 256 /64s of a /56 are one site, the next /56 another', () => {
    const sites = new Set(Array.from({ length: 256 }, (_, i) => siteKey(networkKey(`2001:db8:7:${(0x1200 + i).toString(16)}::1`) ?? '')));
    expect([...sites]).toEqual(['2001:db8:7:1200::/56']);
    expect(siteKey(networkKey('2001:db8:7:1300::1') ?? '')).toBe('2001:db8:7:1300::/56');
  });

  it('none for IPv4 and unknown', () => {
    expect(siteKey('203.0.113.7')).toBeNull();
    expect(siteKey('unknown')).toBeNull();
  });
});

describe('clientNetwork', () => {
  const headers = (xff?: string, extra: Record<string, string> = {}) => new Headers({ ...(xff ? { 'x-forwarded-for': xff } : {}), ...extra });
  const config = { header: 'x-forwarded-for', hops: 1 };

  it('trusts the entry our proxy appended (the last), never what the client put first', () => {
    expect(clientNetwork(headers('198.51.100.1'), '10.0.0.1', config)).toBe('198.51.100.1');
    expect(clientNetwork(headers('6.6.6.6, 198.51.100.1'), '10.0.0.1', config)).toBe('198.51.100.1');
    expect(clientNetwork(headers('6.6.6.6, 198.51.100.1, 10.1.1.1'), '10.0.0.1', { ...config, hops: 2 })).toBe('198.51.100.1');
  });

  it('falls back to the socket address: no header, too few entries, or garbage', () => {
    expect(clientNetwork(headers(), '192.0.2.9', config)).toBe('192.0.2.9');
    expect(clientNetwork(headers('198.51.100.1'), '192.0.2.9', { ...config, hops: 2 })).toBe('192.0.2.9');
    expect(clientNetwork(headers('6.6.6.6, not-an-ip'), '192.0.2.9', config)).toBe('192.0.2.9');
    expect(clientNetwork(headers(), undefined, config)).toBe('unknown');
  });

  it('another header, or none at all', () => {
    expect(clientNetwork(headers('6.6.6.6', { 'cf-connecting-ip': '198.51.100.2' }), '10.0.0.1', { header: 'cf-connecting-ip', hops: 1 })).toBe(
      '198.51.100.2',
    );
    expect(clientNetwork(headers('6.6.6.6'), '192.0.2.9', { header: null, hops: 1 })).toBe('192.0.2.9');
  });
});

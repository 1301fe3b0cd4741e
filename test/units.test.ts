/** Small units with sharp edges: keys, keyword matching, marketplaces, geolocation, clock. */
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../src/index.js';
import { hashesEqual, isWellFormedKey } from '../src/core/keys.js';
import { KeywordMatcher } from '../src/core/keyword-matcher.js';
import { MARKETPLACES, routeToMarketplace, storesFor } from '../src/core/resolve/marketplaces.js';
import { openGeoIp, isPublicIp } from '../src/core/geoip.js';
import { normalizeCountry } from '../src/core/country.js';
import { nextUtcMidnight, nextUtcMonthStart, secondsUntil } from '../src/core/clock.js';
import { screenMessage } from '../src/core/team-rules.js';
import { parseRules } from '../src/core/teams.js';

describe('keys', () => {
  it('are prefixed, 256-bit, distinct, stored as SHA-256 hex', () => {
    const a = generateKey();
    const b = generateKey();
    expect(a.key).toMatch(/^cak_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.key.slice(4), 'base64url')).toHaveLength(32);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).toBe(hashKey(a.key));
    expect(a.hash).not.toContain(a.key.slice(4, 12));
    expect(isWellFormedKey(a.key)).toBe(true);
    expect(isWellFormedKey(a.key + 'x')).toBe(false);
    expect(isWellFormedKey('cak_' + '!'.repeat(43))).toBe(false);
    expect(hashesEqual(a.hash, a.hash)).toBe(true);
    expect(hashesEqual(a.hash, b.hash)).toBe(false);
    expect(hashesEqual(a.hash, '')).toBe(false);
  });
});

describe('KeywordMatcher', () => {
  const m = new KeywordMatcher(['casino', 'Online Gambling', 'vape pen', '赌场', 'crème brûlée']);
  it.each([
    ['Casino tips', true],
    ['the best CASINO!', true],
    ['casinos', false],
    ['online   gambling sites', true],
    ['online-gambling', true],
    ['gambling online', false],
    ['my VAPE PEN broke', true],
    ['vape', false],
    ['这个赌场怎么样', true],
    ['Crème Brûlée torch', true],
    ['creme brulee torch', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(m.matches(text)).toBe(expected);
  });
  it('treats keyword text literally (no regular expression from user text)', () => {
    const r = new KeywordMatcher(['a.b', '(x+)+y', '[z]']);
    expect(r.matches('a b')).toBe(true); // punctuation separates words on both sides
    expect(r.matches('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!')).toBe(false);
    expect(r.matches('x y')).toBe(true);
    expect(new KeywordMatcher([]).matches('anything')).toBe(false);
    expect(new KeywordMatcher(['!!!']).empty).toBe(true);
  });
});

describe('rules', () => {
  it('geo allow list admits only listed countries; deny wins', () => {
    const allow = parseRules({ geo: { allow: ['US', 'CA'], deny: [] } });
    const code = (s: ReturnType<typeof screenMessage>) => (s.kind === 'refused' ? s.failure.code : s.kind);
    expect(code(screenMessage('hi', 'US', allow))).toBe('pass');
    expect(code(screenMessage('hi', 'DE', allow))).toBe('GEO_RESTRICTED');
    const both = parseRules({ geo: { allow: ['US'], deny: ['US'] } });
    expect(code(screenMessage('hi', 'US', both))).toBe('GEO_RESTRICTED');
  });
});

describe('marketplaces', () => {
  it('has the 21 stores with their hosts', () => {
    expect(MARKETPLACES.size).toBe(21);
    expect(MARKETPLACES.get('GB')!.host).toBe('www.amazon.co.uk');
    expect(MARKETPLACES.get('JP')!.name).toBe('Amazon.co.jp');
  });
  it('tries a store of its own first, then neighbours, and every store exactly once', () => {
    expect(storesFor('IE').slice(0, 2)).toEqual(['GB', 'DE']);
    expect(storesFor('AT')[0]).toBe('DE');
    expect(storesFor('NZ')[0]).toBe('AU');
    for (const country of ['US', 'IE', 'ZW', 'AR', 'TO', 'KP']) {
      const list = storesFor(country);
      expect(new Set(list).size).toBe(list.length);
      expect(list.length).toBe(MARKETPLACES.size);
    }
  });
  it('routes to the nearest store with a tag, or null without tags', () => {
    expect(routeToMarketplace('AT', { US: 'u', DE: 'd' })).toMatchObject({ tag: 'd', marketplace: { host: 'www.amazon.de' } });
    expect(routeToMarketplace('AR', { GB: 'g', US: 'u' })?.tag).toBe('u');
    expect(routeToMarketplace('US', {})).toBeNull();
  });
});

describe('countries and geolocation', () => {
  it('normalises codes, accepts UK for GB, refuses non-countries', () => {
    expect(normalizeCountry(' de ')).toBe('DE');
    expect(normalizeCountry('uk')).toBe('GB');
    expect(normalizeCountry('XK')).toBe('XK');
    for (const bad of ['ZZ', 'EU', 'USA', 'U', '', '12']) expect(normalizeCountry(bad)).toBeNull();
  });
  it('locates public addresses with the shipped database; private and reserved ones are nobody', () => {
    const geo = openGeoIp();
    expect(geo.lookup('81.2.69.142')).toBe('GB');
    expect(geo.lookup('8.8.8.8')).toBe('US');
    expect(geo.lookup('2a01:4f8::1')).toBe('DE');
    expect(geo.lookup('::ffff:81.2.69.142')).toBe('GB');
    for (const ip of ['127.0.0.1', '10.0.0.1', '192.168.0.1', '172.16.5.4', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '2001:db8::1', 'nonsense']) {
      expect(geo.lookup(ip)).toBeNull();
    }
    expect(isPublicIp('::ffff:10.0.0.1')).toBe(false);
  });
});

describe('UTC clock', () => {
  it('finds the next midnight and month start, across years', () => {
    expect(nextUtcMidnight(Date.UTC(2026, 11, 31, 23, 0))).toBe(Date.UTC(2027, 0, 1));
    expect(nextUtcMonthStart(Date.UTC(2026, 11, 15))).toBe(Date.UTC(2027, 0, 1));
    expect(secondsUntil(0, 1)).toBe(1);
    expect(secondsUntil(0, 1001)).toBe(2);
    expect(secondsUntil(5000, 0)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { compressSource, decodeUrl, decompressSource, encodeUrl, UrlError } from './url.js';

describe('URL encoding', () => {
  it('round-trips a shipped scenario with tunables, cursor and views', () => {
    const u = { scenario: 'fault-around/sequential', set: { fault_around_bytes: '4096', mthp: '[16384, 65536]' }, cursor: 812, views: ['address' as const, 'log' as const], enlarged: 'log' as const };
    const s = encodeUrl(u);
    expect(s).toContain('scenario=fault-around%2Fsequential');
    expect(decodeUrl(s)).toEqual(u);
  });

  it('round-trips an edited scenario, compressed, and cursor forms', () => {
    const src = `name: edited\nsteps: []\n# ${'x'.repeat(2000)}\n`;
    const s = encodeUrl({ src, set: {}, cursor: 'end' });
    expect(s.length).toBeLessThan(200); /* compressed */
    expect(decodeUrl(s)).toMatchObject({ src, cursor: 'end', set: {} });
    expect(decodeUrl(encodeUrl({ scenario: 'a/b', set: {}, cursor: { step: 2, frac: 0.5 } })).cursor).toEqual({ step: 2, frac: 0.5 });
    expect(decompressSource(compressSource('héllo ✓'))).toBe('héllo ✓');
  });

  it('leaves defaults out of the URL', () => {
    expect(encodeUrl({ scenario: 'a/b', set: {}, cursor: 0, views: ['address', 'walk', 'counters', 'log', 'steps'] })).toBe('?scenario=a%2Fb');
  });

  it('refuses a damaged edited scenario with a clear error, and ignores unknown views', () => {
    expect(() => decodeUrl('?src=not-deflate!!')).toThrow(UrlError);
    expect(decodeUrl('?scenario=x&views=address,bogus').views).toEqual(['address']);
  });
});

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

describe('compare and sweep in the URL', () => {
  it('round-trips compare (repeatable) and a sweep with values and a counter', () => {
    const u = { scenario: 'fault-around/sequential', set: { readahead_kb: '16' }, compare: { fault_around_bytes: '4096', 'machine.io_latency': '30' },
      sweep: { key: 'mthp', values: ['[16KiB, 64KiB]', '[]'], y: 'pgmajfault' } };
    const back = decodeUrl(encodeUrl(u));
    expect(back.compare).toEqual(u.compare);
    expect(back.sweep).toEqual(u.sweep);
    expect(back.set).toEqual(u.set);
  });
  it('reads the forms people type', () => {
    expect(decodeUrl('?scenario=x&sweep=fault_around_bytes').sweep).toEqual({ key: 'fault_around_bytes', values: null, y: null });
    expect(decodeUrl('?scenario=x&sweep=readahead_kb:0,64&y=pgfault').sweep).toEqual({ key: 'readahead_kb', values: ['0', '64'], y: 'pgfault' });
    expect(decodeUrl('?scenario=x&compare=fault_around_bytes=4096').compare).toEqual({ fault_around_bytes: '4096' });
    expect(() => decodeUrl('?scenario=x&compare=oops')).toThrow(/key=value/);
  });
});

import { describe, expect, it } from 'vitest';
import { compressSource, decodeUrl, decompressSource, encodeUrl, UrlError } from './url.js';

describe('URL encoding', () => {
  it('round-trips a shipped scenario with tunables, cursor and views', () => {
    const u = {
      scenario: 'fault-around/sequential',
      set: { fault_around_bytes: '4096', mthp: '[16384, 65536]' },
      cursor: 812,
      views: ['address' as const, 'log' as const],
      enlarged: 'log' as const,
    };
    const s = encodeUrl(u);
    expect(s).toContain('scenario=fault-around%2Fsequential');
    expect(decodeUrl(s)).toEqual(u);
  });

  it('round-trips an edited scenario, compressed, and cursor forms', () => {
    const src = `name: edited\nsteps: []\n# ${'x'.repeat(2000)}\n`;
    const s = encodeUrl({ src, set: {}, cursor: 'end' });
    expect(s.length).toBeLessThan(200); /* compressed */
    expect(decodeUrl(s)).toMatchObject({ src, cursor: 'end', set: {} });
    expect(decodeUrl(encodeUrl({ scenario: 'a/b', set: {}, cursor: { step: 2, frac: 0.5 } })).cursor).toEqual({
      step: 2,
      frac: 0.5,
    });
    expect(decompressSource(compressSource('héllo ✓'))).toBe('héllo ✓');
  });

  it('puts an edited text in the fragment (never sent to a server), and still reads ?src= links', () => {
    const src = 'name: edited\nsteps: []\n';
    const s = encodeUrl({ src, set: { readahead_kb: '16' }, cursor: 12 });
    expect(s).toMatch(/^\?set=readahead_kb%3D16&cursor=12#src=[\w-]+$/);
    expect(decodeUrl(s)).toMatchObject({ src, cursor: 12, set: { readahead_kb: '16' } });
    const old = `?src=${compressSource(src)}&cursor=3`;
    expect(decodeUrl(old)).toMatchObject({ src, cursor: 3 });
    expect(decodeUrl('?cursor=3', `#src=${compressSource(src)}`)).toMatchObject({ src, cursor: 3 });
  });

  it('refuses a link that inflates beyond 16 MiB without inflating it all, and opens one over source_bytes', () => {
    const bomb = compressSource(`name: bomb\n# ${'x'.repeat(17 * 2 ** 20)}\n`);
    expect(bomb.length).toBeLessThan(40_000);
    expect(() => decodeUrl(`#src=${bomb}`)).toThrow(/more than 16 MiB, the most a link may hold/);
    /* over source_bytes but under the link's bound: opened, and the loader asks (Run anyway) */
    const big = `name: big\n# ${'x'.repeat(3 * 2 ** 20)}\n`;
    expect(decodeUrl(`#src=${compressSource(big)}`).src).toBe(big);
  });

  it('keys from the link never reach a prototype', () => {
    const u = decodeUrl('?scenario=x&set=__proto__=1&set=constructor=2&compare=__proto__=3');
    expect(Object.keys(u.set)).toEqual(['__proto__', 'constructor']);
    expect(u.set.constructor).toBe('2');
    expect(Object.getPrototypeOf(u.set)).toBeNull();
    expect(Object.keys(u.compare!)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('compresses a text once, however often the URL is rewritten', () => {
    const src = `name: big\n# ${'y'.repeat(50_000)}\n`;
    const a = compressSource(src);
    const t = performance.now();
    for (let i = 0; i < 200; i++) encodeUrl({ src, set: {}, cursor: i });
    expect(performance.now() - t).toBeLessThan(50);
    expect(compressSource(src)).toBe(a);
  });

  it('leaves defaults out of the URL', () => {
    expect(
      encodeUrl({ scenario: 'a/b', set: {}, cursor: 0, views: ['address', 'walk', 'counters', 'log', 'steps'] }),
    ).toBe('?scenario=a%2Fb');
  });

  it('refuses a damaged edited scenario with a clear error, and ignores unknown views', () => {
    expect(() => decodeUrl('?src=not-deflate!!')).toThrow(UrlError);
    expect(decodeUrl('?scenario=x&views=address,bogus').views).toEqual(['address']);
  });
});

describe('compare and sweep in the URL', () => {
  it('round-trips compare (repeatable) and a sweep with values and a counter', () => {
    const u = {
      scenario: 'fault-around/sequential',
      set: { readahead_kb: '16' },
      compare: { fault_around_bytes: '4096', 'machine.io_latency': '30' },
      sweep: { key: 'mthp', values: ['[16KiB, 64KiB]', '[]'], y: 'pgmajfault' },
    };
    const back = decodeUrl(encodeUrl(u));
    expect(back.compare).toEqual(u.compare);
    expect(back.sweep).toEqual(u.sweep);
    expect(back.set).toEqual(u.set);
  });
  it('reads the forms people type', () => {
    expect(decodeUrl('?scenario=x&sweep=fault_around_bytes').sweep).toEqual({
      key: 'fault_around_bytes',
      values: null,
      y: null,
    });
    expect(decodeUrl('?scenario=x&sweep=readahead_kb:0,64&y=pgfault').sweep).toEqual({
      key: 'readahead_kb',
      values: ['0', '64'],
      y: 'pgfault',
    });
    expect(decodeUrl('?scenario=x&compare=fault_around_bytes=4096').compare).toEqual({ fault_around_bytes: '4096' });
    expect(() => decodeUrl('?scenario=x&compare=oops')).toThrow(/key=value/);
  });
  it("an edited tour's text rides in the fragment, like an edited scenario's", () => {
    const text = 'title: t\nbeats:\n  - scenario: fault-around/sequential\n    caption: hello\n';
    const url = encodeUrl({ tour: 'fault-around/talk', tourSrc: text, beat: 2, set: {} });
    expect(url).toMatch(/^\?tour=fault-around%2Ftalk&beat=2#tour-src=/);
    const back = decodeUrl(url);
    expect([back.tour, back.tourSrc, back.beat]).toEqual(['fault-around/talk', text, 2]);
    expect(() => decodeUrl('?tour=fault-around/talk#tour-src=@@@')).toThrow(/edited tour/);
  });
  it('runs C and D (c=, d=) beside B: round-trip, and each needs the run before it', () => {
    const q =
      '?scenario=prefault/sequential&compare=anon_prefault=off&c=thp=always&d=mthp=[65536]&d=anon_prefault_cap=8';
    const u = decodeUrl(q);
    expect(u.more).toEqual([{ thp: 'always' }, { mthp: '[65536]', anon_prefault_cap: '8' }]);
    expect(decodeUrl(encodeUrl(u)).more).toEqual(u.more);
    expect(() => decodeUrl('?scenario=x&c=thp=always')).toThrow(/give compare= too/);
    expect(() => decodeUrl('?scenario=x&compare=thp=always&d=thp=never')).toThrow(/give c= too/);
    expect(() => decodeUrl('?scenario=x&compare=thp=always&c=oops')).toThrow(/c=oops: expected key=value/);
  });

  it('a link from before a group was renamed opens the scenario under its new name', () => {
    expect(decodeUrl('?scenario=vmacache/ebizzy&cursor=5').scenario).toBe('vma-cache/ebizzy');
    expect(decodeUrl('?scenario=folios/thp').scenario).toBe('large-folios/thp');
    expect(decodeUrl('?scenario=fault-around/sequential').scenario).toBe('fault-around/sequential');
  });
});

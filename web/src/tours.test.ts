/**
 * Tours: every shipped tour loads and every beat's moment is reached in the
 * run the beat shows (a moment a run does not reach would silently put the
 * cursor at the end); a broken tour is refused with the file, line and key;
 * a caption's figures are the model's counters.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COUNTERS } from '../../wasm-core/ts/abi.js';
import { compile } from '../../wasm-core/ts/compile.js';
import { Core } from '../../wasm-core/ts/core.js';
import { parseScenario } from '../../wasm-core/ts/load/index.js';
import { captionParts, captionText, counterKey } from '../../wasm-core/ts/load/tour-format.js';
import { applyOverrides } from '../../wasm-core/ts/overrides.js';
import type { Timeline } from './engine/protocol.js';
import { Engine } from './frames/engine.js';
import { computeMarks } from './mechanisms/registry.js';
import { momentCursor, momentReached } from './store/reducer.js';
import { settingsText } from '../../wasm-core/ts/multirun.js';
import { loadTour, tourIssues } from './tour-load.js';
import { TEXTS } from './texts.js';
import { isExercise, TOURS, type TourBeat } from './tours.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** the message a broken tour gets, or '' */
function refusal(source: string): string {
  try {
    loadTour(source, 'scenarios/x/bad.tour.yaml', 'x/bad');
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('tours', () => {
  it('one per mechanism at least, each beat placed where its run gets to', async () => {
    expect(TOURS.map((t) => t.group).sort()).toEqual(
      expect.arrayContaining(['fault-around', 'large-folios', 'lru', 'prefault', 'vma-cache']),
    );
    const core = await Core.fromBytes(readFileSync(`${repo}wasm-core/build/wasm/mmsim.wasm`));
    const runs = new Map<string, Timeline>();
    const counterMoments = TOURS.flatMap((e) =>
      loadTour(TEXTS[e.file], e.file, e.name).beats.flatMap((x) =>
        x.at.kind === 'counter' ? [{ scenario: x.scenario, counter: x.at.counter, reaches: x.at.reaches }] : [],
      ),
    );
    const timelineOf = (b: TourBeat): Timeline => {
      const key = `${b.scenario} ${JSON.stringify(settingsText(b.set))}`;
      let t = runs.get(key);
      if (!t) {
        const s = applyOverrides(parseScenario(b.source, b.file), settingsText(b.set));
        const engine = new Engine(core, compile(s), { interval: 4096 });
        const info = engine.recordAll();
        /* the tours' counter moments in this scenario, placed as the worker places them */
        const located: Record<string, number | null> = {};
        for (const m of counterMoments.filter((x) => x.scenario === b.scenario))
          located[counterKey(m)] = engine.locateCounter(m.counter, m.reaches);
        t = { ...info, marks: info.big ? {} : computeMarks(info.nEvents, (i) => engine.event(i)), located };
        engine.destroy();
        runs.set(key, t);
      }
      return t;
    };
    let beats = 0;
    for (const entry of TOURS) {
      const tour = loadTour(TEXTS[entry.file], entry.file, entry.name);
      /* a talk tells in four beats or more; an exercise sets the scene and asks */
      expect(tour.beats.length, entry.name).toBeGreaterThanOrEqual(isExercise(tour) ? 2 : 4);
      for (const [i, b] of tour.beats.entries()) {
        const t = timelineOf(b);
        const where = `${entry.name} beat ${i + 1} (${JSON.stringify(b.at)})`;
        /* a big run keeps no events: its moment is its final state */
        if (t.big) expect(b.at.kind, where).toMatch(/^(start|end)$/);
        else {
          expect(momentReached(t, b.at), where).toBe(true);
          const c = momentCursor(t, b.at);
          expect(c, where).toBeGreaterThanOrEqual(0);
          expect(c, where).toBeLessThanOrEqual(t.nEvents);
        }
        beats++;
      }
    }
    expect(beats).toBeGreaterThanOrEqual(30);
  }, 180_000);

  it('within one scenario, A settings and views carry on until a beat changes them', () => {
    const t = loadTour(
      `title: t
beats:
  - scenario: fault-around/sequential
    set: { fault_around_bytes: 4KiB }
    views: [address, walk]
    caption: one
  - caption: two
  - set: {}
    caption: three
  - scenario: fault-around/partly-cached
    caption: four
`,
      'scenarios/x/t.tour.yaml',
      'x/t',
    );
    expect(t.beats.map((b) => settingsText(b.set))).toEqual([
      { fault_around_bytes: '4096' },
      { fault_around_bytes: '4096' },
      {},
      {},
    ]);
    expect(t.beats.map((b) => b.views)).toEqual([['address', 'walk'], ['address', 'walk'], ['address', 'walk'], null]);
  });

  const base = (beat: string) => `title: t\nbeats:\n  - scenario: fault-around/sequential\n${beat}`;
  it.each([
    [
      'an unknown scenario',
      'title: t\nbeats:\n  - scenario: fault-around/nope\n    caption: x\n',
      /bad\.tour\.yaml:3:\d+: .*no scenario 'fault-around\/nope'/,
    ],
    [
      'an unknown jump key',
      base('    at: { jump: faults }\n    caption: x\n'),
      /bad\.tour\.yaml:4:\d+: .*no jump 'faults'.*fault/,
    ],
    ['an unknown view', base('    views: [adress]\n    caption: x\n'), /bad\.tour\.yaml:4:\d+: .*no view 'adress'/],
    [
      'an unknown counter in a caption',
      base('    caption: "{pgfaults} faults"\n'),
      /bad\.tour\.yaml:4:\d+: .*caption.*no counter 'pgfaults'/,
    ],
    [
      'run B figures without a run B',
      base('    caption: "{b.pgfault} faults"\n'),
      /bad\.tour\.yaml:4:\d+: .*b\.pgfault.*no compare/,
    ],
    [
      'run C figures without a run C',
      base('    compare: { fault_around_bytes: 4KiB }\n    caption: "{c.pgfault} faults"\n'),
      /bad\.tour\.yaml:5:\d+: .*c\.pgfault.*run C's.*no c:/,
    ],
    [
      'a run C without a run B',
      base('    c: { fault_around_bytes: 4KiB }\n    caption: x\n'),
      /bad\.tour\.yaml:4:\d+: .*run C stands beside run B: give compare: too/,
    ],
    [
      'a run D without a run C',
      base('    compare: { fault_around_bytes: 4KiB }\n    d: { fault_around_bytes: 8KiB }\n    caption: x\n'),
      /bad\.tour\.yaml:5:\d+: .*run D stands beside run C: give c: too/,
    ],
    [
      'a moment of two kinds',
      base('    at: { jump: fault, step: 2 }\n    caption: x\n'),
      /bad\.tour\.yaml:4:\d+: .*at.*one of jump:, step:, say:, event: or counter:/,
    ],
    [
      'no scenario on the first beat',
      'title: t\nbeats:\n  - caption: x\n',
      /bad\.tour\.yaml:3:\d+: .*first beat names its scenario/,
    ],
    [
      'pages the wrong way round',
      base('    highlight: { pages: [9, 2] }\n    caption: x\n'),
      /bad\.tour\.yaml:4:\d+: .*pages.*from ≤ to/,
    ],
    ['an unknown key', base('    captoin: x\n'), /bad\.tour\.yaml:4:\d+: .*captoin/],
    ['a beat without a caption', base('    at: end\n'), /bad\.tour\.yaml:3:\d+: .*caption/],
    [
      'a tunable that does not exist',
      base('    set: { fault_around: 4KiB }\n    caption: x\n'),
      /bad\.tour\.yaml:4:\d+: .*fault_around/,
    ],
  ])('refuse %s with the file, line and key', (_, source, message) => {
    expect(refusal(source)).toMatch(message);
  });

  it("list a tour's problems for the editor: line, column, key and what", () => {
    const bad = 'title: t\nbeats:\n  - scenario: fault-around/sequential\n    at: { jump: faults }\n    caption: x\n';
    const issues = tourIssues(bad, 'my.tour.yaml');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 4 });
    expect(issues[0].message).toMatch(/no jump 'faults'/);
    expect(tourIssues(bad.replace('faults', 'fault'), 'my.tour.yaml')).toEqual([]);
  });

  it('fill a caption with A and B counters, ratios and percentages', () => {
    const a = COUNTERS.map(() => 0);
    const b = COUNTERS.map(() => 0);
    a[COUNTERS.indexOf('pgfault')] = 256;
    b[COUNTERS.indexOf('pgfault')] = 4096;
    a[COUNTERS.indexOf('vmacache_find_hits')] = 7;
    a[COUNTERS.indexOf('vmacache_find_calls')] = 94;
    const parts = captionParts(
      '{pgfault} against {b.pgfault}: {b.pgfault / pgfault}x; {vmacache_find_hits / vmacache_find_calls %} hit',
    );
    expect(captionText(parts, a, b)).toBe('256 against 4,096: 16x; 7.45% hit');
    /* before run B is recorded its figures are a dash, never a guess */
    expect(captionText(parts, a, null)).toBe('256 against –: –x; 7.45% hit');
    expect(captionText(captionParts('no figures {here'), a, b)).toBe('no figures {here');
    /* runs C and D's figures, from their own counters */
    const c = COUNTERS.map(() => 0);
    c[COUNTERS.indexOf('pgfault')] = 512;
    const cd = captionParts('{c.pgfault} and {d.pgfault}; {b.pgfault / c.pgfault}x');
    expect(captionText(cd, a, b, [c, null])).toBe('512 and –; 8x');
  });

  it('an event moment is just after the nth event of its kind; a VMA and an LRU list can be highlighted', async () => {
    const t = loadTour(
      `title: t
beats:
  - scenario: large-folios/fork
    at: { event: mmsim_fork }
    highlight: { vma: m }
    caption: the fork
  - scenario: lru/two-touch
    at: { event: mm_lru_activate, nth: 3 }
    highlight: { list: active_file }
    caption: the third activation
  - scenario: large-folios/false-negative
    at: end
    highlight: { folio: { vma: m, page: 1 } }
    caption: the folio
`,
      'x.tour.yaml',
      'x',
    );
    expect(t.beats[0].at).toEqual({ kind: 'event', event: 'mmsim_fork', nth: 1 });
    expect(t.beats[0].highlight).toEqual({ kind: 'vma', name: 'm' });
    expect(t.beats[1].highlight).toEqual({ kind: 'list', list: 'active_file' });
    expect(t.beats[2].highlight).toEqual({ kind: 'folio', vma: 'm', page: 1 });
    const core = await Core.fromBytes(readFileSync(`${repo}wasm-core/build/wasm/mmsim.wasm`));
    for (const [b, name, nth] of [
      [t.beats[0], 'mmsim_fork', 1],
      [t.beats[1], 'mm_lru_activate', 3],
    ] as const) {
      const engine = new Engine(core, compile(applyOverrides(parseScenario(b.source, b.file), {})));
      const info = engine.recordAll();
      const c = momentCursor(info, b.at);
      /* the event just before the cursor is the nth of its kind, and n - 1 came before it */
      expect(engine.event(c - 1).name).toBe(name);
      let before = 0;
      for (let i = 0; i < c - 1; i++) if (engine.event(i).name === name) before++;
      expect(before).toBe(nth - 1);
      engine.destroy();
    }
    expect(
      refusal('title: t\nbeats:\n  - scenario: lru/two-touch\n    at: { event: nosuch }\n    caption: x\n'),
    ).toMatch(/bad\.tour\.yaml:4:\d+: beats\[0\]\.at\.event: must be one of mmsim_step/);
    expect(
      refusal(
        'title: t\nbeats:\n  - scenario: lru/two-touch\n    at: { event: mmsim_fork, nth: 300 }\n    caption: x\n',
      ),
    ).toMatch(/counts up to the 256th/);
    expect(
      refusal('title: t\nbeats:\n  - scenario: lru/two-touch\n    highlight: { list: warm }\n    caption: x\n'),
    ).toMatch(/beats\[0\]\.highlight\.list/);
  });

  it("sizes: give the views' shares, one per view, carried with the views", () => {
    const t = loadTour(
      `title: t
beats:
  - scenario: fault-around/sequential
    views: [address, log]
    sizes: [2, 1]
    caption: one
  - caption: two
  - views: [address]
    caption: three
`,
      'x.tour.yaml',
      'x',
    );
    expect(t.beats.map((b) => b.sizes)).toEqual([[2, 1], [2, 1], null]);
    expect(
      refusal(
        'title: t\nbeats:\n  - scenario: lru/two-touch\n    views: [address]\n    sizes: [2, 1]\n    caption: x\n',
      ),
    ).toMatch(/bad\.tour\.yaml:5:\d+: beats\[0\]\.sizes: sizes: gives one share per view.*1 views, 2 sizes/);
  });

  it('a counter moment is just after the event that brings the counter to its value', async () => {
    const t = loadTour(
      `title: t
beats:
  - scenario: lru/backup
    set: { fadvise_dontneed: invalidate-only }
    at: { counter: pgmajfault, reaches: 10 }
    caption: the tenth
`,
      'x.tour.yaml',
      'x',
    );
    const b = t.beats[0];
    expect(b.at).toEqual({ kind: 'counter', counter: 'pgmajfault', reaches: 10 });
    const core = await Core.fromBytes(readFileSync(`${repo}wasm-core/build/wasm/mmsim.wasm`));
    const engine = new Engine(core, compile(applyOverrides(parseScenario(b.source, b.file), settingsText(b.set))));
    engine.recordAll();
    const c = engine.locateCounter('pgmajfault', 10)!;
    const i = COUNTERS.indexOf('pgmajfault');
    expect(engine.countersAtCursor(c)[i]).toBeGreaterThanOrEqual(10);
    expect(engine.countersAtCursor(c - 1)[i]).toBeLessThan(10);
    /* never reached: null, and the page puts such a beat at the run's end */
    expect(engine.locateCounter('pgmajfault', 1e9)).toBeNull();
    engine.destroy();
    expect(
      refusal('title: t\nbeats:\n  - scenario: lru/two-touch\n    at: { counter: nr_free_pages }\n    caption: x\n'),
    ).toMatch(/beats\[0\]\.at\.counter: must be one of/);
    expect(
      refusal('title: t\nbeats:\n  - scenario: lru/two-touch\n    at: { step: 2, reaches: 3 }\n    caption: x\n'),
    ).toMatch(/reaches: goes with counter:/);
  });

  it("an answer's explain: names a view the playground has", () => {
    expect(
      refusal(
        'title: t\nbeats:\n  - scenario: lru/two-touch\n    at: end\n    caption: x\n    ask: { id: a, prompt: p, number: pgfault, explain: nosuch }\n',
      ),
    ).toMatch(/bad\.tour\.yaml:6:\d+: .*explain: there is no view 'nosuch'/);
    expect(
      refusal(
        'title: t\nbeats:\n  - scenario: lru/two-touch\n    at: end\n    caption: x\n    ask: { id: a, prompt: p, number: pgfault, explain: lru }\n',
      ),
    ).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import type { Timeline } from '../engine/protocol.js';
import { reducer, relativeCursor, resolveCursor } from './reducer.js';
import { initialState, type Action, type AppState } from './state.js';

const timeline = (over: Partial<Timeline> = {}): Timeline => ({
  big: false,
  nEvents: 1000,
  work: 0,
  status: 'ok',
  error: null,
  expectFailures: [],
  stepEvents: [0, 10, 500],
  stepOf: [0, 1, 2],
  beatEvents: [0, 10, 500],
  faultEvents: [20, 100, 700],
  majorEvents: [100],
  sayEvents: [10],
  firsts: { page_fault_user: [20, 100, 700] },
  /* what the worker adds (mechanisms/registry.ts computeMarks): the jump targets read these */
  marks: { fault: [20, 100, 700], major: [100], 'fault-end': [30, 110, 710], skip: [] },
  samples: { x: [0, 1000], values: [[0, 3]] },
  snapshots: 1,
  snapshotBytes: 0,
  interval: 2048,
  recordSeconds: 0,
  ...over,
});

const run = (s: AppState, ...actions: Action[]) => actions.reduce(reducer, s);
const open: Action = {
  type: 'openScenario',
  name: 'fault-around/sequential',
  file: 'f.yaml',
  source: 'name: x',
  edited: false,
};

function loaded(over: Partial<Timeline> = {}) {
  const s = run(initialState(), open);
  return run(s, { type: 'runLoaded', runId: s.runId, program: {} as never, timeline: timeline(over) });
}

describe('reducer', () => {
  it('opens a scenario at step 0 and waits for the run', () => {
    const s = run(initialState(), open);
    expect(s.page).toBe('player');
    expect(s.load.status).toBe('compiling');
    expect(s.cursor).toBe(0);
    expect(s.runId).toBe(1);
  });

  it('ignores results of superseded runs', () => {
    const s = run(initialState(), open, open);
    const stale = reducer(s, { type: 'runLoaded', runId: 1, program: {} as never, timeline: timeline() });
    expect(stale).toBe(s);
  });

  it('steps, clamps, jumps to faults and steps', () => {
    let s = loaded();
    s = run(s, { type: 'step', delta: 1 }, { type: 'step', delta: 1 });
    expect(s.cursor).toBe(2);
    s = run(s, { type: 'step', delta: -5 });
    expect(s.cursor).toBe(0);
    s = run(s, { type: 'jump', kind: 'fault', dir: 1 });
    expect(s.cursor).toBe(21); /* just after the fault event */
    s = run(s, { type: 'jump', kind: 'fault', dir: 1 });
    expect(s.cursor).toBe(101);
    s = run(s, { type: 'jump', kind: 'fault', dir: -1 });
    expect(s.cursor).toBe(21);
    s = run(s, { type: 'jump', kind: 'major', dir: 1 }, { type: 'jump', kind: 'major', dir: 1 });
    expect(s.cursor).toBe(1000); /* no more: the end */
    s = run(s, { type: 'jump', kind: 'step', dir: -1 });
    expect(s.cursor).toBe(501);
    s = run(s, { type: 'seek', cursor: 99999 });
    expect(s.cursor).toBe(1000);
  });

  it('plays from the start when at the end, and stops playing on a manual step', () => {
    let s = run(loaded(), { type: 'seek', cursor: 1000 }, { type: 'play' });
    expect(s.playing).toBe(true);
    expect(s.cursor).toBe(0);
    s = run(s, { type: 'step', delta: 1 });
    expect(s.playing).toBe(false);
  });

  it("plays at the chosen speed after a reveal was stopped: the reveal's moment and rate are dropped", () => {
    /* a reveal interrupted by a step leaves its moment behind; a later Play is the user's, not the reveal's */
    let s: AppState = { ...run(loaded(), { type: 'seek', cursor: 100 }), playing: true, playTo: 300, playRate: 60 };
    s = run(s, { type: 'step', delta: 1 }, { type: 'play' });
    expect(s.playing).toBe(true);
    expect(s.playTo).toBeNull();
    expect(s.playRate).toBeNull();
  });

  it('does not play a big run', () => {
    expect(run(loaded({ big: true, nEvents: 0 }), { type: 'play' }).playing).toBe(false);
  });

  it('keeps the place in the step across a tunable change, and remembers the run before', () => {
    let s = run(loaded(), { type: 'seek', cursor: 255 });
    s = run(s, { type: 'setTunable', key: 'fault_around_bytes', value: '4096' });
    expect(s.overrides).toEqual({ fault_around_bytes: '4096' });
    expect(s.load.status).toBe('compiling');
    expect(s.pendingCursor).toEqual({ step: 1, frac: (255 - 11) / (501 - 11) });
    expect(s.previous?.counters).toEqual([3]);
    expect(s.previous?.label).toBe("the scenario's tunables");
    /* the new run has twice the events in step 1 */
    s = run(s, {
      type: 'runLoaded',
      runId: s.runId,
      program: {} as never,
      timeline: timeline({ nEvents: 2000, stepEvents: [0, 10, 1000] }),
    });
    expect(s.cursor).toBe(Math.round(11 + ((255 - 11) / (501 - 11)) * (1001 - 11)));
    s = run(s, { type: 'setTunable', key: 'fault_around_bytes', value: null });
    expect(s.overrides).toEqual({});
  });

  it('the end stays the end across a re-run', () => {
    expect(relativeCursor(timeline(), 1000)).toBe('end');
    expect(resolveCursor(timeline({ nEvents: 5 }), 'end')).toBe(5);
    expect(resolveCursor(timeline({ big: true }), 'end')).toBe(0);
  });

  it('applies an edited draft as an edited scenario', () => {
    let s = loaded();
    s = run(s, { type: 'openDrawer', drawer: 'editor' });
    expect(s.draft).toBe('name: x');
    s = run(s, { type: 'setDraft', text: 'name: y' }, { type: 'applyDraft' });
    expect(s.scenario).toMatchObject({ source: 'name: y', edited: true });
    expect(s.draft).toBeNull();
    expect(s.load.status).toBe('compiling');
  });

  it('shows, hides and enlarges views', () => {
    let s = run(loaded(), { type: 'toggleView', id: 'log' });
    expect(s.views.log).toBe(false);
    s = run(s, { type: 'enlarge', id: 'log' });
    expect(s.views.log).toBe(true);
    expect(s.enlarged).toBe('log');
    s = run(s, { type: 'toggleView', id: 'log' });
    expect(s.enlarged).toBeNull();
  });

  it('knows the running scenario as soon as it compiles, before the run ends', () => {
    let s = run(initialState(), open);
    const sc = { name: 'Loop', kernel: { fault_around_bytes: 4096 } } as never;
    expect(run(s, { type: 'compiled', runId: s.runId - 1, scenario: sc, own: sc }).running).toBeNull();
    s = run(s, { type: 'compiled', runId: s.runId, scenario: sc, own: sc });
    expect(s.running).toBe(sc);
    expect(s.load).toEqual({ status: 'running', done: 0, total: 1, big: false });
    /* opening another scenario forgets it */
    expect(run(s, open).running).toBeNull();
  });

  it('cancels a running load', () => {
    let s = run(initialState(), open);
    s = run(s, { type: 'runProgress', runId: s.runId, done: 5, total: 10, big: true });
    expect(s.load).toEqual({ status: 'running', done: 5, total: 10, big: true });
    const id = s.runId;
    s = run(s, { type: 'cancelRun' });
    expect(s.load.status).toBe('cancelled');
    /* the worker's late 'loaded' for the cancelled run is ignored */
    expect(run(s, { type: 'runLoaded', runId: id, program: {} as never, timeline: timeline() }).load.status).toBe(
      'cancelled',
    );
    /* and it can run again */
    const again = run(s, { type: 'rerun' });
    expect(again.load.status).toBe('compiling');
    expect(again.runId).toBe(s.runId + 1);
  });
});

describe('reducer: two runs (compare)', () => {
  const withB = () => run(initialState(), { ...open, compare: { fault_around_bytes: '4096' } });
  it('opens run B beside run A, each with its own id and state', () => {
    const s = withB();
    expect(s.compare?.set).toEqual({ fault_around_bytes: '4096' });
    expect(s.compare?.load.status).toBe('compiling');
    const b = s.compare!.runId;
    const t = run(
      s,
      { type: 'runLoaded', runId: s.runId, program: {} as never, timeline: timeline() },
      { type: 'compareCompiled', slot: 'b', runId: b },
      { type: 'compareLoaded', slot: 'b', runId: b, program: {} as never, timeline: timeline({ nEvents: 4000 }) },
    );
    expect(t.load.status).toBe('ready');
    expect(t.compare?.load.status).toBe('ready');
    expect(t.compare?.timeline?.nEvents).toBe(4000);
    expect(t.timeline?.nEvents).toBe(1000);
  });
  it('ignores run B results of a superseded comparison', () => {
    const s = withB();
    const old = s.compare!.runId;
    const t = run(s, { type: 'setCompare', set: { fault_around_bytes: '8192' } });
    expect(t.compare!.runId).toBe(old + 1);
    const u = run(t, { type: 'compareLoaded', slot: 'b', runId: old, program: {} as never, timeline: timeline() });
    expect(u.compare?.load.status).toBe('compiling');
  });
  it('a tunable change re-runs both runs; stop comparing drops B', () => {
    const s = withB();
    const t = run(s, { type: 'setTunable', key: 'readahead_kb', value: '16' });
    expect(t.runId).toBe(s.runId + 1);
    expect(t.compare!.runId).toBe(s.compare!.runId + 1);
    expect(t.compare!.set).toEqual({ fault_around_bytes: '4096' });
    expect(run(t, { type: 'setCompare', set: null }).compare).toBeNull();
  });
  it('the cursor is one: stepping moves A, and B follows through its aligned frame', () => {
    const s = run(withB(), { type: 'runLoaded', runId: 1, program: {} as never, timeline: timeline() });
    const t = run(s, { type: 'step', delta: 5 }, { type: 'step', delta: -1 });
    expect(t.cursor).toBe(4);
    const f = { cursor: 17 } as never;
    expect(run(t, { type: 'compareFrame', slot: 'b', runId: t.compare!.runId, frame: f }).compare?.frame).toBe(f);
  });
});

describe('reducer: a run recording keeps something on screen', () => {
  const f = (cursor: number) => ({ cursor, counters: [] }) as never;
  /** a run stood at event 400, then a tunable changed: it records again */
  const rerecording = () => {
    const s = run(initialState(), open, { type: 'runLoaded', runId: 1, program: {} as never, timeline: timeline() });
    const t = run(s, { type: 'seek', cursor: 400 }, { type: 'frame', frame: f(400) });
    return run(t, { type: 'setTunable', key: 'fault_around_bytes', value: '4096' });
  };
  it("shows a big run's first frame while it records, still, and the run's own once asked", () => {
    const s = run(initialState(), { ...open, cursor: 'end' });
    const p = run(s, {
      type: 'runPreview',
      runId: s.runId,
      program: {} as never,
      timeline: timeline({ nEvents: 0 }),
      frame: f(0),
    });
    expect(p.frame).toEqual(f(0));
    expect(p.fresh).toBe(false);
    /* nothing moves while it records: the cursor asked for waits for the run */
    expect(run(p, { type: 'step', delta: 5 }).cursor).toBe(0);
    const r = run(p, { type: 'runLoaded', runId: p.runId, program: {} as never, timeline: timeline() });
    expect(r.cursor).toBe(1000);
    expect(run(r, { type: 'frame', frame: f(1000) }).fresh).toBe(true);
  });
  it('a re-recorded run keeps the frame on screen (no preview over it), and where the user stood', () => {
    const u = rerecording();
    expect(u.frame).toEqual(f(400));
    expect(u.fresh).toBe(false);
    expect(
      run(u, { type: 'runPreview', runId: u.runId, program: {} as never, timeline: timeline(), frame: f(0) }).frame,
    ).toEqual(f(400));
    /* a second change before the run arrives keeps the cursor the first one asked for */
    const v = run(u, { type: 'setTunable', key: 'fault_around_bytes', value: '8192' });
    expect(v.pendingCursor).toEqual(u.pendingCursor);
  });
  it("the new run's frame at the kept cursor, drawn while the run records, then the same cursor when it is in", () => {
    const u = rerecording();
    const p = run(u, {
      type: 'runPreview',
      runId: u.runId,
      program: {} as never,
      timeline: timeline({ nEvents: 600 }),
      frame: f(410),
      cursor: 410,
    });
    expect(p.frame).toEqual(f(410));
    expect(p.cursor).toBe(410);
    /* still: nothing steps until the run is in, and the cursor asked for is placed on the whole run */
    expect(p.fresh).toBe(false);
    expect(run(p, { type: 'step', delta: 5 }).cursor).toBe(410);
    expect(p.pendingCursor).toEqual(u.pendingCursor);
    /* a preview of an older run (another change came meanwhile) is not drawn */
    expect(
      run(p, {
        type: 'runPreview',
        runId: u.runId - 1,
        program: {} as never,
        timeline: timeline(),
        frame: f(9),
        cursor: 9,
      }).frame,
    ).toEqual(f(410));
  });
});

describe('reducer: four runs (compare, c, d)', () => {
  const four = () =>
    run(initialState(), {
      ...open,
      compare: { anon_prefault: 'off' },
      more: [{ thp: 'always' }, { mthp: '[65536]' }],
    });
  it('opens C and D beside B, each its own slot, id and state', () => {
    const s = four();
    expect(s.more.map((r) => [r.slot, r.set, r.load.status])).toEqual([
      ['c', { thp: 'always' }, 'compiling'],
      ['d', { mthp: '[65536]' }, 'compiling'],
    ]);
    const c = s.more[0].runId;
    const t = run(
      s,
      { type: 'compareLoaded', slot: 'c', runId: c, program: {} as never, timeline: timeline({ nEvents: 7 }) },
      /* a result for D under C's id is not C's */
      { type: 'compareFailed', slot: 'd', runId: c + 99, issues: [] },
    );
    expect(t.more[0].load.status).toBe('ready');
    expect(t.more[0].timeline?.nEvents).toBe(7);
    expect(t.more[1].load.status).toBe('compiling');
    expect(t.compare?.load.status).toBe('compiling');
  });
  it('C and D stand only beside B: without a run B there are none', () => {
    const s = run(initialState(), { ...open, more: [{ thp: 'always' }] });
    expect(s.compare).toBeNull();
    expect(s.more).toEqual([]);
    expect(run(four(), { type: 'setCompare', set: null }).more).toEqual([]);
  });
  it('a tunable change records all four again; a new B keeps C and D', () => {
    const s = four();
    const t = run(s, { type: 'setTunable', key: 'anon_prefault_cap', value: '8' });
    expect(t.more.map((r) => r.runId)).toEqual(s.more.map((r) => r.runId + 1));
    expect(t.more.map((r) => r.set)).toEqual(s.more.map((r) => r.set));
    const u = run(t, { type: 'setCompare', set: { anon_prefault: 'anticipatory' } });
    expect(u.more.map((r) => r.slot)).toEqual(['c', 'd']);
  });
});

describe('reducer: sweeps', () => {
  const points = [4096, 8192, 16384].map((x) => ({ x, raw: String(x), label: String(x), counters: null, error: null }));
  const started = () => {
    const s = run(initialState(), { ...open, sweep: { key: 'fault_around_bytes', values: null, y: null } });
    return run(s, { type: 'sweepPlanned', runId: s.sweep!.runId, points });
  };
  it('keeps the planned order whatever order the points arrive in', () => {
    const s = started();
    const id = s.sweep!.runId;
    const t = run(
      s,
      { type: 'sweepPoint', runId: id, index: 2, counters: [1], error: null },
      { type: 'sweepPoint', runId: id, index: 0, counters: [4], error: null },
    );
    expect(t.sweep!.points.map((p) => p.x)).toEqual([4096, 8192, 16384]);
    expect(t.sweep!.points.map((p) => p.counters?.[0] ?? null)).toEqual([4, null, 1]);
    expect(t.sweep!.y).toBe('pgfault');
  });
  it('cancel stops it, and a late point or done of the cancelled sweep changes nothing', () => {
    const s = started();
    const id = s.sweep!.runId;
    const t = run(s, { type: 'cancelSweep' });
    expect(t.sweep!.status).toBe('cancelled');
    const u = run(t, { type: 'sweepDone', runId: id, cancelled: false });
    expect(u.sweep!.status).toBe('cancelled');
    const v = run(u, { type: 'openSweep', key: 'fault_around_bytes', values: null, y: null });
    expect(v.sweep!.runId).toBe(id + 1);
    expect(run(v, { type: 'sweepPoint', runId: id, index: 0, counters: [9], error: null }).sweep!.points).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TimelineInfo } from '../../../wasm-core/ts/engine.js';
import { reducer, relativeCursor, resolveCursor } from './reducer.js';
import { initialState, type Action, type AppState } from './state.js';

const timeline = (over: Partial<TimelineInfo> = {}): TimelineInfo => ({
  big: false, nEvents: 1000, work: 0, status: 'ok', error: null, expectFailures: [],
  stepEvents: [0, 10, 500], stepOf: [0, 1, 2], faultEvents: [20, 100, 700], majorEvents: [100], sayEvents: [10],
  samples: { x: [0, 1000], values: [[0, 3]] }, snapshots: 1, snapshotBytes: 0, interval: 2048, recordSeconds: 0, ...over,
});

const run = (s: AppState, ...actions: Action[]) => actions.reduce(reducer, s);
const open: Action = { type: 'openScenario', name: 'fault-around/sequential', file: 'f.yaml', source: 'name: x', edited: false };

function loaded(over: Partial<TimelineInfo> = {}) {
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
    s = run(s, { type: 'runLoaded', runId: s.runId, program: {} as never, timeline: timeline({ nEvents: 2000, stepEvents: [0, 10, 1000] }) });
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
    expect(run(s, { type: 'compiled', runId: s.runId - 1, scenario: sc }).running).toBeNull();
    s = run(s, { type: 'compiled', runId: s.runId, scenario: sc });
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
    expect(run(s, { type: 'runLoaded', runId: id, program: {} as never, timeline: timeline() }).load.status).toBe('cancelled');
    /* and it can run again */
    const again = run(s, { type: 'rerun' });
    expect(again.load.status).toBe('compiling');
    expect(again.runId).toBe(s.runId + 1);
  });
});

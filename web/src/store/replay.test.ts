/**
 * Snapshot and replay as the UI drives them: actions through the reducer,
 * frames from the engine. Stepping back then forward must give exactly the
 * state that stepping forward only gives.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../wasm-core/ts/compile.js';
import { Core } from '../../../wasm-core/ts/core.js';
import { Engine } from '../frames/engine.js';
import type { Frame } from '../frames/types.js';
import { parseScenario } from '../../../wasm-core/ts/load/index.js';
import { reducer } from './reducer.js';
import { initialState, type Action, type AppState } from './state.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const plain = (f: Frame) => JSON.stringify(f, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v));

describe('snapshot and replay through the store', () => {
  it('back-then-forward equals forward-only, for every action sequence tried', async () => {
    const core = await Core.fromBytes(readFileSync(`${repo}wasm-core/build/wasm/mmsim.wasm`));
    const file = `${repo}scenarios/fault-around/partly-cached.yaml`;
    const program = compile(parseScenario(readFileSync(file, 'utf8'), file));
    const forward = new Engine(core, program, { interval: 128 });
    const jumpy = new Engine(core, program, { interval: 128 });
    const timeline = forward.recordAll();
    jumpy.recordAll();

    let s: AppState = reducer(initialState(), {
      type: 'openScenario',
      name: 'x',
      file: 'x',
      source: '',
      edited: false,
    });
    s = reducer(s, { type: 'runLoaded', runId: s.runId, program, timeline });
    const script: Action[] = [
      { type: 'jump', kind: 'major', dir: 1 },
      { type: 'step', delta: 3 },
      { type: 'step', delta: -1 },
      { type: 'jump', kind: 'fault', dir: 1 },
      { type: 'jump', kind: 'step', dir: 1 },
      { type: 'step', delta: -7 },
      { type: 'seek', cursor: 4000 },
      { type: 'jump', kind: 'fault', dir: -1 },
      { type: 'step', delta: 1 },
      { type: 'seek', cursor: 12 },
      { type: 'jump', kind: 'major', dir: 1 },
      { type: 'jump', kind: 'major', dir: 1 },
      { type: 'step', delta: -1 },
      { type: 'seek', cursor: timeline.nEvents },
      { type: 'step', delta: -1 },
    ];
    for (const a of script) {
      s = reducer(s, a);
      expect(plain(jumpy.frame(s.cursor)), `after ${JSON.stringify(a)} at ${s.cursor}`).toBe(
        plain(forward.frame(s.cursor)),
      );
    }
    /* and the forward engine, now moved around too, still agrees with a fresh one */
    const fresh = new Engine(core, program);
    fresh.recordAll();
    for (const c of [0, 1, 777, timeline.nEvents]) expect(plain(forward.frame(c))).toBe(plain(fresh.frame(c)));
    forward.destroy();
    jumpy.destroy();
    fresh.destroy();
  });
});

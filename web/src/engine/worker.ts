/// <reference lib="webworker" />
/**
 * The engine worker: owns the WebAssembly core and one engine per run (the
 * page's run id is the key: compare holds two), records runs in slices
 * (posting progress, honouring cancel between slices), computes frames, and
 * runs sweeps. The page never blocks on the simulation.
 */
import wasmUrl from '../../../wasm-core/build/wasm/mmsim.wasm?url';
import { RunStatus } from '../../../wasm-core/ts/abi.js';
import { alignCursor } from '../../../wasm-core/ts/align.js';
import { Core } from '../../../wasm-core/ts/core.js';
import { Engine } from '../../../wasm-core/ts/engine.js';
import { explainError, ProgramError, startProgram } from '../../../wasm-core/ts/runner.js';
import { FRAME_PROVIDERS } from '../mechanisms/frames.js';
import type { FromWorker, ToWorker } from './protocol.js';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromWorker, transfer: Transferable[] = []) => self.postMessage(m, transfer);
const corePromise = Core.fromUrl(new URL(wasmUrl, self.location.href)).then(
  (c) => { post({ t: 'ready' }); return c; },
  (e) => { post({ t: 'fatal', message: `The simulator (WebAssembly) could not start: ${(e as Error).message}` }); throw e; },
);

const engines = new Map<number, Engine>();
const sweeps = new Map<number, { cancelled: boolean }>();
const pendingFrames = new Map<number, ToWorker & { t: 'frame' }>();
let frameScheduled = false;

function transferables(x: unknown, out: Transferable[] = []): Transferable[] {
  if (ArrayBuffer.isView(x)) out.push(x.buffer as ArrayBuffer);
  else if (Array.isArray(x)) for (const v of x) transferables(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) transferables(v, out);
  return out;
}

function drop(id: number) {
  engines.get(id)?.destroy();
  engines.delete(id);
}

function pump(id: number) {
  const engine = engines.get(id);
  if (!engine) return;
  const done = engine.recordSome(40);
  const p = engine.progress;
  post({ t: 'progress', id, done: p.done, total: p.total, big: engine.isBig });
  if (!done) {
    setTimeout(() => pump(id), 0);
    return;
  }
  if (engine.wasCancelled) {
    post({ t: 'cancelled', id });
    drop(id);
    return;
  }
  post({ t: 'loaded', id, timeline: engine.timeline() });
}

function computeFrames() {
  frameScheduled = false;
  const reqs = [...pendingFrames.values()];
  pendingFrames.clear();
  for (const req of reqs) {
    const engine = engines.get(req.id);
    if (!engine || !engine.finished) continue;
    try {
      let cursor = req.cursor;
      if (req.alignFrom !== undefined) {
        const from = engines.get(req.alignFrom);
        if (!from || !from.finished) continue;
        cursor = engine.isBig || from.isBig ? 0 : alignCursor(from.opIndex(), cursor, engine.opIndex());
      }
      const frame = engine.frame(cursor);
      post({ t: 'frame', id: req.id, seq: req.seq, frame }, transferables(frame));
    } catch (e) {
      post({ t: 'frameError', id: req.id, seq: req.seq, message: (e as Error).message });
    }
  }
}

/** run each program to its end with tracing off, in slices (progress, cancel) */
async function sweep(id: number, programs: (ToWorker & { t: 'sweep' })['programs']) {
  const core = await corePromise;
  const state = { cancelled: false };
  sweeps.set(id, state);
  const yieldNow = () => new Promise((r) => setTimeout(r, 0));
  for (let i = 0; i < programs.length && !state.cancelled; i++) {
    const t0 = performance.now();
    let sim;
    try {
      sim = startProgram(core, programs[i], { trace: false, maxBytes: 3 * 2 ** 30 });
    } catch (e) {
      post({ t: 'sweepPoint', id, done: i + 1, total: programs.length, point: { index: i, counters: [], status: 'error', error: e instanceof ProgramError ? e.reason : (e as Error).message, seconds: 0 } });
      continue;
    }
    let st: RunStatus = RunStatus.Work;
    let tSlice = performance.now();
    while (st === RunStatus.Work && !state.cancelled) {
      st = sim.run(200_000);
      if (performance.now() - tSlice > 50) {
        post({ t: 'sweepProgress', id, done: i + sim.workDone / Math.max(1, sim.workTotal), total: programs.length });
        await yieldNow();
        tSlice = performance.now();
      }
    }
    if (!state.cancelled) {
      const error = st === RunStatus.Error ? explainError(programs[i], sim).message : null;
      post({ t: 'sweepPoint', id, done: i + 1, total: programs.length, point: { index: i, counters: sim.counters(), status: error ? 'error' : 'ok', error, seconds: (performance.now() - t0) / 1000 } });
    }
    sim.destroy();
    await yieldNow();
  }
  sweeps.delete(id);
  post({ t: 'sweepDone', id, cancelled: state.cancelled });
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  switch (m.t) {
    case 'load': {
      const core = await corePromise;
      drop(m.id);
      let engine: Engine;
      try {
        engine = new Engine(core, m.program, m.opts, FRAME_PROVIDERS);
      } catch (e) {
        const at = e instanceof ProgramError ? e.at : null;
        const message = e instanceof ProgramError ? e.reason : (e as Error).message;
        post({ t: 'loadError', id: m.id, issues: [{ line: at?.line ?? null, col: at?.col ?? null, path: at?.path ?? '', message }] });
        return;
      }
      engines.set(m.id, engine);
      pump(m.id);
      break;
    }
    case 'drop':
      drop(m.id);
      break;
    case 'cancel':
      engines.get(m.id)?.cancel();
      if (sweeps.has(m.id)) sweeps.get(m.id)!.cancelled = true;
      break;
    case 'frame':
      pendingFrames.set(m.id, m);
      if (!frameScheduled) {
        frameScheduled = true;
        setTimeout(computeFrames, 0);
      }
      break;
    case 'sweep':
      void sweep(m.id, m.programs);
      break;
  }
};

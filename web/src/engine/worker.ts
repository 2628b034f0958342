/// <reference lib="webworker" />
/**
 * The engine worker: owns the WebAssembly core and the engine, records runs
 * in slices (posting progress, honouring cancel between slices) and computes
 * frames. The page never blocks on the simulation.
 */
import wasmUrl from '../../../wasm-core/build/wasm/mmsim.wasm?url';
import { Core } from '../../../wasm-core/ts/core.js';
import { Engine } from '../../../wasm-core/ts/engine.js';
import { ProgramError } from '../../../wasm-core/ts/runner.js';
import type { FromWorker, ToWorker } from './protocol.js';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromWorker, transfer: Transferable[] = []) => self.postMessage(m, transfer);
const corePromise = Core.fromUrl(new URL(wasmUrl, self.location.href)).then(
  (c) => { post({ t: 'ready' }); return c; },
  (e) => { post({ t: 'fatal', message: `The simulator (WebAssembly) could not start: ${(e as Error).message}` }); throw e; },
);

let engine: Engine | null = null;
let engineId = -1;
let pendingFrame: { id: number; seq: number; cursor: number } | null = null;
let frameScheduled = false;

function transferables(x: unknown, out: Transferable[] = []): Transferable[] {
  if (ArrayBuffer.isView(x)) out.push(x.buffer as ArrayBuffer);
  else if (Array.isArray(x)) for (const v of x) transferables(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) transferables(v, out);
  return out;
}

function pump(id: number) {
  if (!engine || id !== engineId) return;
  const done = engine.recordSome(40);
  const p = engine.progress;
  post({ t: 'progress', id, done: p.done, total: p.total, big: engine.isBig });
  if (!done) {
    setTimeout(() => pump(id), 0);
    return;
  }
  if (engine.wasCancelled) {
    post({ t: 'cancelled', id });
    engine.destroy();
    engine = null;
    return;
  }
  post({ t: 'loaded', id, timeline: engine.timeline() });
}

function computeFrame() {
  frameScheduled = false;
  const req = pendingFrame;
  pendingFrame = null;
  if (!req || !engine || req.id !== engineId || !engine.finished) return;
  try {
    const frame = engine.frame(req.cursor);
    post({ t: 'frame', id: req.id, seq: req.seq, frame }, transferables(frame));
  } catch (e) {
    post({ t: 'frameError', id: req.id, seq: req.seq, message: (e as Error).message });
  }
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  switch (m.t) {
    case 'load': {
      const core = await corePromise;
      if (engine && !engine.finished) post({ t: 'cancelled', id: engineId });
      engine?.destroy();
      engine = null;
      engineId = m.id;
      try {
        engine = new Engine(core, m.program, m.opts);
      } catch (e) {
        const at = e instanceof ProgramError ? e.at : null;
        const message = e instanceof ProgramError ? e.reason : (e as Error).message;
        post({ t: 'loadError', id: m.id, issues: [{ line: at?.line ?? null, col: at?.col ?? null, path: at?.path ?? '', message }] });
        return;
      }
      pump(m.id);
      break;
    }
    case 'cancel':
      if (engine && m.id === engineId) engine.cancel();
      break;
    case 'frame':
      pendingFrame = m;
      if (!frameScheduled) {
        frameScheduled = true;
        setTimeout(computeFrame, 0);
      }
      break;
  }
};

/**
 * The page's handle on the engine worker: runs keyed by id (load with
 * progress, cancel, drop), frames, and sweeps. Frame requests are "latest
 * wins" per run: a request made while another for the same run is in flight
 * supersedes it, so holding an arrow key never queues work.
 */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { EngineOptions, Frame, TimelineInfo } from '../../../wasm-core/ts/engine.js';
import type { FromWorker, SweepPointResult, ToWorker, WorkerIssue } from './protocol.js';

export type LoadOutcome =
  | { kind: 'loaded'; timeline: TimelineInfo }
  | { kind: 'cancelled' }
  | { kind: 'error'; issues: WorkerIssue[] };

interface SweepHandlers {
  point: (p: SweepPointResult) => void;
  progress: (done: number, total: number) => void;
  resolve: (o: { cancelled: boolean }) => void;
}

export class EngineClient {
  private worker: Worker;
  private loads = new Map<number, { resolve: (o: LoadOutcome) => void; progress: (done: number, total: number, big: boolean) => void }>();
  private frames = new Map<number, { id: number; resolve: (f: Frame | null) => void }>();
  private sweeps = new Map<number, SweepHandlers>();
  private seq = 0;
  onFatal: (message: string) => void = () => {};

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'mmplay-engine' });
    this.worker.onmessage = (e: MessageEvent<FromWorker>) => this.receive(e.data);
    this.worker.onerror = (e) => this.onFatal(`The simulation worker failed: ${e.message}`);
  }

  private send(m: ToWorker) {
    this.worker.postMessage(m);
  }

  private receive(m: FromWorker) {
    switch (m.t) {
      case 'ready':
        break;
      case 'fatal':
        this.onFatal(m.message);
        break;
      case 'progress':
        this.loads.get(m.id)?.progress(m.done, m.total, m.big);
        break;
      case 'loaded':
        this.loads.get(m.id)?.resolve({ kind: 'loaded', timeline: m.timeline });
        this.loads.delete(m.id);
        break;
      case 'cancelled':
        this.loads.get(m.id)?.resolve({ kind: 'cancelled' });
        this.loads.delete(m.id);
        break;
      case 'loadError':
        this.loads.get(m.id)?.resolve({ kind: 'error', issues: m.issues });
        this.loads.delete(m.id);
        break;
      case 'frame':
      case 'frameError': {
        /* resolve this request; anything older for the same run was superseded */
        for (const [seq, r] of this.frames)
          if (r.id === m.id && seq <= m.seq) {
            r.resolve(seq === m.seq && m.t === 'frame' ? m.frame : null);
            this.frames.delete(seq);
          }
        break;
      }
      case 'sweepPoint':
        this.sweeps.get(m.id)?.point(m.point);
        this.sweeps.get(m.id)?.progress(m.done, m.total);
        break;
      case 'sweepProgress':
        this.sweeps.get(m.id)?.progress(m.done, m.total);
        break;
      case 'sweepDone':
        this.sweeps.get(m.id)?.resolve({ cancelled: m.cancelled });
        this.sweeps.delete(m.id);
        break;
    }
  }

  load(id: number, program: Program, progress: (done: number, total: number, big: boolean) => void, opts?: EngineOptions): Promise<LoadOutcome> {
    return new Promise((resolve) => {
      this.loads.set(id, { resolve, progress });
      this.send({ t: 'load', id, program, opts });
    });
  }

  /** stop a run being recorded, or a sweep */
  cancel(id: number) {
    this.send({ t: 'cancel', id });
  }

  /** free a run's engine in the worker */
  drop(id: number) {
    this.send({ t: 'drop', id });
  }

  /** run `id`'s frame at `cursor`; with alignFrom, at the operation of run id matching run alignFrom's cursor */
  frame(id: number, cursor: number, alignFrom?: number): Promise<Frame | null> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.frames.set(seq, { id, resolve });
      this.send({ t: 'frame', id, seq, cursor, alignFrom });
    });
  }

  sweep(id: number, programs: Program[], point: SweepHandlers['point'], progress: SweepHandlers['progress']): Promise<{ cancelled: boolean }> {
    return new Promise((resolve) => {
      this.sweeps.set(id, { point, progress, resolve });
      this.send({ t: 'sweep', id, programs });
    });
  }

  terminate() {
    this.worker.terminate();
  }
}

/**
 * The page's handle on the engine worker: load (with progress), cancel, and
 * frames. Frame requests are "latest wins": a request made while another is
 * in flight supersedes it, so holding an arrow key never queues work.
 */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { EngineOptions, Frame, TimelineInfo } from '../../../wasm-core/ts/engine.js';
import type { FromWorker, ToWorker, WorkerIssue } from './protocol.js';

export type LoadOutcome =
  | { kind: 'loaded'; timeline: TimelineInfo }
  | { kind: 'cancelled' }
  | { kind: 'error'; issues: WorkerIssue[] };

export class EngineClient {
  private worker: Worker;
  private loads = new Map<number, { resolve: (o: LoadOutcome) => void; progress: (done: number, total: number, big: boolean) => void }>();
  private frames = new Map<number, (f: Frame | null) => void>();
  private seq = 0;
  private currentId = -1;
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
        /* resolve this request; anything older was superseded */
        for (const [seq, resolve] of this.frames)
          if (seq <= m.seq) {
            resolve(seq === m.seq && m.t === 'frame' ? m.frame : null);
            this.frames.delete(seq);
          }
        break;
      }
    }
  }

  load(id: number, program: Program, progress: (done: number, total: number, big: boolean) => void, opts?: EngineOptions): Promise<LoadOutcome> {
    if (this.currentId >= 0 && this.loads.has(this.currentId)) this.cancel(this.currentId);
    this.currentId = id;
    return new Promise((resolve) => {
      this.loads.set(id, { resolve, progress });
      this.send({ t: 'load', id, program, opts });
    });
  }

  cancel(id: number) {
    this.send({ t: 'cancel', id });
  }

  frame(id: number, cursor: number): Promise<Frame | null> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.frames.set(seq, resolve);
      this.send({ t: 'frame', id, seq, cursor });
    });
  }

  terminate() {
    this.worker.terminate();
  }
}

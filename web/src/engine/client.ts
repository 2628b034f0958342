/**
 * The page's handle on the engine worker: runs keyed by id (prepare, i.e.
 * compile in the worker, then record with progress; cancel, drop), the
 * editor's checks, frames, and sweeps. Frame requests are "latest wins" per
 * run: a request made while another for the same run is in flight
 * supersedes it, so holding an arrow key never queues work.
 *
 * Cancel really stops the work: the worker honours it between slices, and
 * if it has not answered within CANCEL_GRACE_MS (a single operation that
 * runs long, or a parse), the worker is terminated and a fresh one started;
 * everything it held ends as cancelled and onRestart tells the page.
 */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Scenario } from '../../../wasm-core/ts/scenario.js';
import type { Frame, FrameFocus } from '../frames/types.js';
import type { EngineOptions } from '../../../wasm-core/ts/recorder.js';
import type { StepCursor } from '../frames/cursor.js';
import type {
  ExportKind,
  FromWorker,
  ScenarioInput,
  SweepPlanPoint,
  SweepPointResult,
  Timeline,
  ToWorker,
  WorkerIssue,
  WorkerLimit,
  QuizInput,
} from './protocol.js';

export type LoadOutcome =
  | { kind: 'loaded'; timeline: Timeline }
  | { kind: 'cancelled' }
  | { kind: 'error'; issues: WorkerIssue[]; limits: WorkerLimit[] | null; tunables?: boolean };

interface SweepHandlers {
  planned: (points: SweepPlanPoint[]) => void;
  point: (p: SweepPointResult) => void;
  progress: (done: number, total: number) => void;
  resolve: (o: { cancelled: boolean; error?: string; limits?: WorkerLimit[] | null }) => void;
}

export const CANCEL_GRACE_MS = 400;

let offlineWorkerUrl: string | undefined;

/**
 * The engine worker. Served, it is the module worker Vite builds. The offline
 * single-file build (scripts/build-offline.mjs) defines
 * import.meta.env.MMPLAY_OFFLINE_WORKER as the worker's code, a classic script
 * with the wasm inline: a file:// page cannot start a module worker from a
 * URL, so it runs from a Blob URL. In every other build the constant is
 * undefined and that branch is dropped.
 */
function newWorker(): Worker {
  const inline: string | undefined = import.meta.env.MMPLAY_OFFLINE_WORKER;
  if (inline) {
    offlineWorkerUrl ??= URL.createObjectURL(new Blob([inline], { type: 'text/javascript' }));
    return new Worker(offlineWorkerUrl, { name: 'mmplay-engine' });
  }
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'mmplay-engine' });
}

/**
 * The worker index.html's inline script started before this script was evaluated (web/boot-plugin.ts), with
 * the messages it sent meanwhile; taken once, by the first client to start a worker.
 */
interface EarlyWorker {
  worker: Worker;
  kept: MessageEvent<FromWorker>[];
  /** the worker's error events before the page listened (its script could not load) */
  errors: string[];
  at: number;
}

function adoptEarlyWorker(): EarlyWorker | null {
  const g = globalThis as { __mmplayEngine?: EarlyWorker };
  const early = g.__mmplayEngine ?? null;
  delete g.__mmplayEngine;
  return early;
}

interface LoadHandlers {
  resolve: (o: LoadOutcome) => void;
  progress: (done: number, total: number, big: boolean) => void;
  prepared: (program: Program, own: Scenario) => void;
  /** the first frame, before the run is recorded; or (cursor given) the frame at the previewAt asked for */
  preview?: (timeline: Timeline, frame: Frame, cursor?: number) => void;
}

export class EngineClient {
  /** started with the first message (the gallery alone needs no worker, nor its 113 KiB of script) */
  private worker: Worker | null = null;
  private loads = new Map<number, LoadHandlers>();
  /** the program each load's 'prepared' gave, until its run ends: its step list may follow in pieces */
  private programs = new Map<number, Program>();
  private frames = new Map<number, { id: number; resolve: (f: Frame | null) => void }>();
  private sweeps = new Map<number, SweepHandlers>();
  private letters = new Map<
    number,
    {
      progress: (p: Extract<FromWorker, { t: 'letterProgress' }>) => void;
      resolve: (m: Extract<FromWorker, { t: 'letterDone' }>) => void;
    }
  >();
  private checks = new Map<number, (issues: WorkerIssue[] | null) => void>();
  private exports = new Map<number, (m: Extract<FromWorker, { t: 'exported' }> | null) => void>();
  private quizzes = new Map<number, (m: Extract<FromWorker, { t: 'quizDone' }>) => void>();
  private seq = 0;
  /** when the worker last said anything */
  private heard = 0;
  private watchdog = 0;
  /** workers started (1 + restarts) */
  generation = 0;
  onFatal: (message: string) => void = () => {};
  /** the worker was replaced: every run it held is gone */
  onRestart: () => void = () => {};

  private start(): Worker {
    this.generation++;
    const early = adoptEarlyWorker();
    performance.mark('mmplay:worker-start', early ? { startTime: early.at } : undefined);
    const w = early?.worker ?? newWorker();
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      this.heard = performance.now();
      this.receive(e.data);
    };
    const failed = (message: string) =>
      this.fail(`The simulation worker failed: ${message || 'its script did not load'}`);
    w.onerror = (e) => failed(e.message);
    this.worker = w;
    /* what the early worker said before this page could listen ('ready', a fatal error, a failed load) */
    for (const e of early?.kept.splice(0) ?? []) w.onmessage(e);
    for (const e of early?.errors ?? []) failed(e);
    return w;
  }

  /** why the worker cannot run anything (the core did not compile, its script did not load); null while it can */
  private fatal: string | null = null;

  /**
   * The worker cannot work: every run it was asked for ends with the reason, and so does every later one
   * (which may be asked for only after the failure: an early worker's is replayed before any run exists).
   */
  private fail(message: string) {
    this.fatal ??= message;
    for (const l of this.loads.values()) l.resolve(this.fatalOutcome(this.fatal));
    this.loads.clear();
    this.programs.clear();
    this.onFatal(message);
  }

  private fatalOutcome(message: string): LoadOutcome {
    return { kind: 'error', issues: [{ line: null, col: null, path: '', message }], limits: null };
  }

  /** terminate a worker that does not answer, start a fresh one, end everything it held as cancelled */
  private restart() {
    this.fatal = null;
    this.worker?.terminate();
    const loads = [...this.loads.values()],
      frames = [...this.frames.values()],
      sweeps = [...this.sweeps.values()],
      checks = [...this.checks.values()];
    this.loads.clear();
    this.programs.clear();
    this.frames.clear();
    this.sweeps.clear();
    this.checks.clear();
    this.start();
    for (const l of loads) l.resolve({ kind: 'cancelled' });
    for (const f of frames) f.resolve(null);
    for (const s of sweeps) s.resolve({ cancelled: true });
    for (const c of checks) c(null);
    for (const [id, l] of this.letters) l.resolve({ t: 'letterDone', id, cells: null, error: null });
    this.letters.clear();
    for (const x of this.exports.values()) x(null);
    this.exports.clear();
    for (const [seq, q] of this.quizzes)
      q({ t: 'quizDone', seq, answers: null, pictures: null, error: 'the engine restarted' });
    this.quizzes.clear();
    this.onRestart();
  }

  /** start the worker ahead of the first run (the page calls it once the gallery is up and the browser idle) */
  warm() {
    if (!this.worker) this.start();
  }

  private send(m: ToWorker) {
    (this.worker ?? this.start()).postMessage(m);
  }

  /** each kind of message's first arrival, as a performance mark (`mmplay:ready`, `mmplay:loaded`): the page's boot, timed */
  private firsts = new Set<string>();

  private receive(m: FromWorker) {
    if (!this.firsts.has(m.t)) {
      this.firsts.add(m.t);
      performance.mark(`mmplay:${m.t}`);
    }
    switch (m.t) {
      case 'ready':
        break;
      case 'prepared':
        this.programs.set(m.id, m.program);
        this.loads.get(m.id)?.prepared(m.program, m.own);
        break;
      case 'steps':
        /* the same object the store holds: the run's next message (its preview or end) draws with them */
        this.programs.get(m.id)?.steps.push(...m.steps);
        break;
      case 'prepareError':
        this.loads.get(m.id)?.resolve({ kind: 'error', issues: m.issues, limits: m.limits, tunables: m.tunables });
        this.loads.delete(m.id);
        this.programs.delete(m.id);
        break;
      case 'checked':
        this.checks.get(m.seq)?.(m.issues);
        this.checks.delete(m.seq);
        break;
      case 'sweepPlanned':
        this.sweeps.get(m.id)?.planned(m.points);
        break;
      case 'sweepError':
        this.sweeps.get(m.id)?.resolve({ cancelled: false, error: m.error, limits: m.limits });
        this.sweeps.delete(m.id);
        break;
      case 'fatal':
        this.fail(m.message);
        break;
      case 'preview':
        this.loads.get(m.id)?.preview?.(m.timeline, m.frame, m.cursor);
        break;
      case 'progress':
        this.loads.get(m.id)?.progress(m.done, m.total, m.big);
        break;
      case 'loaded':
        this.loads.get(m.id)?.resolve({ kind: 'loaded', timeline: m.timeline });
        this.loads.delete(m.id);
        this.programs.delete(m.id);
        break;
      case 'cancelled':
        this.loads.get(m.id)?.resolve({ kind: 'cancelled' });
        this.loads.delete(m.id);
        this.programs.delete(m.id);
        break;
      case 'loadError':
        this.loads.get(m.id)?.resolve({ kind: 'error', issues: m.issues, limits: null });
        this.loads.delete(m.id);
        this.programs.delete(m.id);
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
      case 'exported':
        this.exports.get(m.seq)?.(m);
        this.exports.delete(m.seq);
        break;
      case 'letterProgress':
        this.letters.get(m.id)?.progress(m);
        break;
      case 'letterDone':
        this.letters.get(m.id)?.resolve(m);
        this.letters.delete(m.id);
        break;
      case 'quizDone':
        this.quizzes.get(m.seq)?.(m);
        this.quizzes.delete(m.seq);
        break;
      case 'sweepDone':
        this.sweeps.get(m.id)?.resolve({ cancelled: m.cancelled });
        this.sweeps.delete(m.id);
        break;
    }
  }

  /** compile `input` in the worker (prepared gets the program), then record it */
  prepare(
    id: number,
    input: ScenarioInput,
    prepared: LoadHandlers['prepared'],
    progress: LoadHandlers['progress'],
    opts?: EngineOptions,
    preview?: LoadHandlers['preview'],
    previewAt?: number | StepCursor,
  ): Promise<LoadOutcome> {
    return new Promise((resolve) => {
      if (this.fatal !== null) return resolve(this.fatalOutcome(this.fatal));
      this.loads.set(id, { resolve, progress, prepared, preview });
      this.send({ t: 'prepare', id, input, opts, preview: !!preview, previewAt });
    });
  }

  /** the editor's check of a text: its issues ([] when it compiles), null if the worker was replaced meanwhile */
  check(source: string, file: string): Promise<WorkerIssue[] | null> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.checks.set(seq, resolve);
      this.send({ t: 'check', seq, source, file });
    });
  }

  /**
   * Stop a run being recorded, or a sweep. The worker answers between
   * slices; if it says nothing within CANCEL_GRACE_MS it is stuck inside
   * one piece of work, and is replaced.
   */
  cancel(id: number) {
    this.send({ t: 'cancel', id });
    const asked = performance.now();
    clearTimeout(this.watchdog);
    this.watchdog = window.setTimeout(() => {
      if (this.heard < asked) this.restart();
    }, CANCEL_GRACE_MS);
  }

  /** free a run's engine in the worker */
  drop(id: number) {
    this.send({ t: 'drop', id });
  }

  /** run `id`'s frame at `cursor`; with alignFrom, at the operation of run id matching run alignFrom's cursor */
  frame(id: number, cursor: number, alignFrom?: number, focus?: FrameFocus | null): Promise<Frame | null> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.frames.set(seq, { id, resolve });
      this.send({ t: 'frame', id, seq, cursor, alignFrom, focus });
    });
  }

  sweep(
    id: number,
    input: ScenarioInput,
    key: string,
    values: string[] | null,
    h: Omit<SweepHandlers, 'resolve'>,
  ): Promise<Parameters<SweepHandlers['resolve']>[0]> {
    return new Promise((resolve) => {
      this.sweeps.set(id, { ...h, resolve });
      this.send({ t: 'sweep', id, input, key, values });
    });
  }

  /** the scenario's letter beside the model: its cells, or why not (null cells and no error: cancelled) */
  letter(
    id: number,
    input: ScenarioInput,
    progress: (p: Extract<FromWorker, { t: 'letterProgress' }>) => void,
  ): Promise<Extract<FromWorker, { t: 'letterDone' }>> {
    return new Promise((resolve) => {
      this.letters.set(id, { progress, resolve });
      this.send({ t: 'letter', id, input });
    });
  }

  /** an exercise's answers, computed in the worker; or why there are none */
  quiz(input: QuizInput): Promise<Extract<FromWorker, { t: 'quizDone' }>> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.quizzes.set(seq, resolve);
      this.send({ t: 'quiz', seq, quiz: input });
    });
  }

  /** run `id` as a file (its event log, its counters per step); null if the worker was replaced meanwhile */
  exportRun(id: number, what: ExportKind): Promise<Extract<FromWorker, { t: 'exported' }> | null> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.exports.set(seq, resolve);
      this.send({ t: 'export', id, seq, what });
    });
  }

  terminate() {
    this.worker?.terminate();
    this.worker = null;
  }
}

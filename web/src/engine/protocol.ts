/**
 * Messages between the page and the engine worker. The worker holds several
 * runs at once, each in its own engine keyed by the page's run id (compare
 * holds run A and run B), plus sweeps (one scenario run once per value,
 * counters only).
 */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { EngineOptions, Frame, TimelineInfo } from '../../../wasm-core/ts/engine.js';

export interface WorkerIssue { line: number | null; col: number | null; path: string; message: string }

export type ToWorker =
  | { t: 'load'; id: number; program: Program; opts?: EngineOptions }
  /** forget a run and free its engine */
  | { t: 'drop'; id: number }
  | { t: 'cancel'; id: number }
  /** the frame of run `id` at `cursor`; with alignFrom, `cursor` is run alignFrom's and is mapped to the same operation of run id */
  | { t: 'frame'; id: number; seq: number; cursor: number; alignFrom?: number }
  /** run each program to its end without events, in order, and report its counters */
  | { t: 'sweep'; id: number; programs: Program[] };

export interface SweepPointResult {
  index: number;
  counters: number[];
  status: 'ok' | 'error';
  error: string | null;
  seconds: number;
}

export type FromWorker =
  | { t: 'ready' }
  | { t: 'fatal'; message: string }
  | { t: 'progress'; id: number; done: number; total: number; big: boolean }
  | { t: 'loaded'; id: number; timeline: TimelineInfo }
  | { t: 'cancelled'; id: number }
  | { t: 'loadError'; id: number; issues: WorkerIssue[] }
  | { t: 'frame'; id: number; seq: number; frame: Frame }
  | { t: 'frameError'; id: number; seq: number; message: string }
  | { t: 'sweepPoint'; id: number; point: SweepPointResult; done: number; total: number }
  | { t: 'sweepProgress'; id: number; done: number; total: number }
  | { t: 'sweepDone'; id: number; cancelled: boolean };

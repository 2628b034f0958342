/** Messages between the page and the engine worker. */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { EngineOptions, Frame, TimelineInfo } from '../../../wasm-core/ts/engine.js';

export interface WorkerIssue { line: number | null; col: number | null; path: string; message: string }

export type ToWorker =
  | { t: 'load'; id: number; program: Program; opts?: EngineOptions }
  | { t: 'cancel'; id: number }
  | { t: 'frame'; id: number; seq: number; cursor: number };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'fatal'; message: string }
  | { t: 'progress'; id: number; done: number; total: number; big: boolean }
  | { t: 'loaded'; id: number; timeline: TimelineInfo }
  | { t: 'cancelled'; id: number }
  | { t: 'loadError'; id: number; issues: WorkerIssue[] }
  | { t: 'frame'; id: number; seq: number; frame: Frame }
  | { t: 'frameError'; id: number; seq: number; message: string };

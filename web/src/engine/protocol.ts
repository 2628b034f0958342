/**
 * Messages between the page and the engine worker. The worker holds several
 * runs at once, each in its own engine keyed by the page's run id (compare
 * holds run A and run B), plus sweeps (one scenario run once per value,
 * counters only).
 */
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Scenario } from '../../../wasm-core/ts/scenario.js';
import type { ReferenceCell } from '../../../wasm-core/ts/letter.js';
import type { QuizAnswer } from '../../../wasm-core/ts/grade.js';
import type { FrameFocus } from '../frames/types.js';
import type { Frame } from '../frames/types.js';
import type { StepCursor } from '../frames/cursor.js';
import type { EngineOptions, TimelineInfo } from '../../../wasm-core/ts/recorder.js';
import type { LimitKey, Limits } from '../../../wasm-core/ts/limits.js';

export interface WorkerIssue {
  line: number | null;
  col: number | null;
  path: string;
  message: string;
}

/** a refusal by a limit (limits.ts) the page may offer to raise ("Run anyway") */
export interface WorkerLimit {
  key: LimitKey;
  needed: number;
  limit: number;
  raisable: boolean;
  message: string;
}

/** a scenario to compile: its text and the tunables set on top (overrides, then run B's compares) */
export interface ScenarioInput {
  source: string;
  file: string;
  overrides: Record<string, string>;
  compare?: Record<string, string>;
  limits: Limits;
  /** counter moments to place once recorded (a tour's { counter: pgmajfault, reaches: 1 }): Timeline.located */
  locate?: { counter: string; reaches: number }[];
}

export type ToWorker =
  /** parse, check and compile in the worker (never on the page), then record the run */
  /**
   * preview: send the first frame before recording (run A of a scenario just opened); previewAt: send the
   * frame at this cursor (an event, or a step cursor placed on this run's steps) as soon as the recording
   * has passed it (run A recorded again: the page keeps its cursor)
   */
  | {
      t: 'prepare';
      id: number;
      input: ScenarioInput;
      opts?: EngineOptions;
      preview?: boolean;
      previewAt?: number | StepCursor;
    }
  /** the editor's check as you type: issues only */
  | { t: 'check'; seq: number; source: string; file: string }
  /** forget a run and free its engine */
  | { t: 'drop'; id: number }
  | { t: 'cancel'; id: number }
  /** the frame of run `id` at `cursor`; with alignFrom, `cursor` is run alignFrom's and is mapped to the same operation of run id */
  | { t: 'frame'; id: number; seq: number; cursor: number; alignFrom?: number; focus?: FrameFocus | null }
  /** plan the sweep (planSweep, as the CLI), then run each value to its end without events, in order, and report its counters */
  | { t: 'sweep'; id: number; input: ScenarioInput; key: string; values: string[] | null }
  /** the scenario's letter (its `letter:`): one run per column, counters only, then the cells beside the model's */
  | { t: 'letter'; id: number; input: ScenarioInput }
  /** a recorded run as a file: its event log (JSON lines) or its counters at the end of each step */
  | { t: 'export'; id: number; seq: number; what: ExportKind }
  /** an exercise's answers, computed by running its beats' scenarios (wasm-core/ts/quiz.ts, as the CLI's --answers) */
  | { t: 'quiz'; seq: number; quiz: QuizInput };

/** an exercise as the worker answers it: its text and seed, and the text of each scenario its beats name */
export interface QuizInput {
  source: string;
  file: string;
  seed: number;
  scenarios: Record<string, { file: string; source: string }>;
}

export type ExportKind = 'log' | 'steps';

/** the counters at the end of each scenario step */
export interface StepCounters {
  step: number;
  line: number | null;
  kind: string;
  summary: string;
  event: number;
  counters: number[];
}

/** a sweep's runs, once planned */
export interface SweepPlanPoint {
  x: number;
  raw: string;
  label: string;
}

export interface SweepPointResult {
  index: number;
  counters: number[];
  status: 'ok' | 'error';
  error: string | null;
  seconds: number;
}

export type FromWorker =
  | { t: 'ready' }
  /** own: the scenario as written, without the page's tunables (what its expect checks are about);
      both scenarios come without their typed steps (the page reads program.steps) */
  | { t: 'prepared'; id: number; program: Program; own: Scenario }
  /** the rest of a big program's step list, after 'prepared' and before the run's first message: appended
      in place to the program 'prepared' gave (one message of 100,000 steps was a 170 ms task on the page) */
  | { t: 'steps'; id: number; steps: Program['steps'] }
  /** tunables: the scenario is fine, the tunables set on top of it (the page's, or a link's set=) are not */
  | { t: 'prepareError'; id: number; issues: WorkerIssue[]; limits: WorkerLimit[] | null; tunables?: boolean }
  | { t: 'checked'; seq: number; issues: WorkerIssue[] }
  | { t: 'sweepPlanned'; id: number; points: SweepPlanPoint[] }
  | { t: 'sweepError'; id: number; error: string; limits: WorkerLimit[] | null }
  | { t: 'fatal'; message: string }
  | { t: 'progress'; id: number; done: number; total: number; big: boolean }
  | { t: 'loaded'; id: number; timeline: Timeline }
  /** the run's first frame (event 0), drawn while the rest records: a timeline of no events so far */
  /** cursor: the frame's, for a previewAt (the first frame's is 0) */
  | { t: 'preview'; id: number; timeline: Timeline; frame: Frame; cursor?: number }
  | { t: 'cancelled'; id: number }
  | { t: 'loadError'; id: number; issues: WorkerIssue[] }
  | { t: 'frame'; id: number; seq: number; frame: Frame }
  | { t: 'frameError'; id: number; seq: number; message: string }
  | { t: 'sweepPoint'; id: number; point: SweepPointResult; done: number; total: number }
  | { t: 'sweepProgress'; id: number; done: number; total: number }
  | { t: 'sweepDone'; id: number; cancelled: boolean }
  | { t: 'exported'; seq: number; log?: string; steps?: StepCounters[]; error?: string }
  | { t: 'letterProgress'; id: number; column: number; columns: number; label: string; fraction: number }
  | { t: 'letterDone'; id: number; cells: ReferenceCell[] | null; error: string | null }
  | { t: 'quizDone'; seq: number; answers: QuizAnswer[] | null; pictures: QuizPicture[] | null; error: string | null };

/** a question's picture on the worksheet: run A where the question starts, as the views draw it */
export interface QuizPicture {
  id: string;
  frame: Frame;
  program: Program;
  timeline: Timeline;
}

/** a recorded run's timeline, plus per jump target the events it stops after (mechanisms/registry.ts) */
/** marks: each jump target's events; series: each frame provider's data over the whole run (FrameProvider.series) */
export type Timeline = TimelineInfo & {
  marks?: Record<string, number[]>;
  series?: Record<string, unknown>;
  /** the counter moments asked for (ScenarioInput.locate), by counterKey: a cursor, or null if never reached */
  located?: Record<string, number | null>;
};

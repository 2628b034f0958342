/**
 * The one store's state and actions. Changes are data: every UI change is an
 * Action applied by the reducer (reducer.ts); side effects (the worker, the
 * URL, timers) live in the controller and only dispatch actions.
 */
import type { Highlight, Moment, Question } from '../../../wasm-core/ts/load/tour.js';
import type { QuizAnswer } from '../../../wasm-core/ts/grade.js';
import type { LoadedTour } from '../tours.js';
import type { ReferenceCell } from '../../../wasm-core/ts/letter.js';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Frame } from '../frames/types.js';
import type { StepCursor } from '../frames/cursor.js';
import { DEFAULT_LIMITS, type Limits } from '../../../wasm-core/ts/limits.js';
import type { QuizPicture, Timeline, WorkerLimit } from '../engine/protocol.js';

import type { ViewId } from '../views/types.js';
/** a view's id: the shared views' and the mechanisms' (views/registry.ts) */
export type { ViewId };

export interface Issue {
  line: number | null;
  col: number | null;
  path: string;
  message: string;
}

export type LoadState =
  | { status: 'idle' }
  | { status: 'compiling' }
  | { status: 'running'; done: number; total: number; big: boolean }
  | { status: 'ready' }
  /** limits: the refusal was only by limits (limits.ts) the user may raise ("Run anyway") */
  | { status: 'error'; issues: Issue[]; limits?: WorkerLimit[] | null; tunables?: boolean }
  | { status: 'cancelled' };

/** where to put the cursor once a re-run is recorded */
export type CursorTarget = number | 'end' | StepCursor | { moment: Moment };

export interface ScenarioState {
  /** the route name under scenarios/ (e.g. 'fault-around/sequential'), null for a custom scenario */
  name: string | null;
  file: string;
  source: string;
  edited: boolean;
}

/** the runs beside A: B (`?compare=key=value`), and C and D (`&c=`, `&d=`), each A's scenario and tunables plus its own */
export type RunSlot = 'b' | 'c' | 'd';
export const MORE_SLOTS = ['c', 'd'] as const;

/** a run beside run A: the scenario with A's tunables plus `set` */
export interface CompareState {
  slot: RunSlot;
  set: Record<string, string>;
  runId: number;
  load: LoadState;
  program: Program | null;
  timeline: Timeline | null;
  frame: Frame | null;
}

/** the letter's cells, computed in the worker: one run per column (wasm-core/ts/letter.ts) */
export interface LetterState {
  runId: number;
  status: 'running' | 'done' | 'error';
  progress: { column: number; columns: number; label: string; fraction: number } | null;
  cells: ReferenceCell[] | null;
  error: string | null;
}

/** a sweep: the scenario run once per value of one tunable, counters only (`?sweep=key[:v1,v2]&y=counter`) */
export interface SweepState {
  key: string;
  /** the values asked for (raw, as --set takes them), or null for the tunable's whole domain */
  asked: string[] | null;
  /** the counter charted */
  y: string;
  runId: number;
  status: 'running' | 'done' | 'cancelled' | 'error';
  /** runs done (fractional while one runs) */
  done: number;
  /** per value, in order: x as a plain number, its label, and the counters once run */
  points: { x: number; raw: string; label: string; counters: number[] | null; error: string | null }[];
  error: string | null;
  /** the sweep was refused only by limits the user may raise */
  limits?: WorkerLimit[] | null;
  /**
   * a second series: the same sweep with these tunables set too (`&versus=large_mapcount=false`: 6.9's
   * atomics beside 6.10's), run after the first; per value its counters once run
   */
  versus: { set: Record<string, string>; counters: (number[] | null)[] } | null;
}

export interface AppState {
  page: 'gallery' | 'player';
  /**
   * a link names a scenario or a tour whose texts are still loading: the page shows neither the gallery
   * (its 46 cards were laid out for nothing, 109 ms, and flashed before the player) nor a player yet
   */
  opening: boolean;
  scenario: ScenarioState | null;
  /** the editor's text when it differs from the running source */
  draft: string | null;
  /** the editor's text of the tour on screen, when it differs from the tour's */
  tourDraft: string | null;
  /** tunables set in the UI (or the URL), as --set values */
  overrides: Record<string, string>;
  /** the limits runs are checked against: the defaults, raised by "Run anyway" (never from a link) */
  limits: Limits;
  /** bumped whenever the scenario must be compiled and run again */
  runId: number;
  load: LoadState;
  program: Program | null;
  /** the scenario being run now, once compiled: its name and tunables show while it runs */
  running: Program['scenario'] | null;
  /** the scenario as written, without the page's tunables (what its expect checks are about) */
  own: Program['scenario'] | null;
  timeline: Timeline | null;
  cursor: number;
  pendingCursor: CursorTarget | null;
  playing: boolean;
  /** events per second while playing */
  speed: number;
  frame: Frame | null;
  /**
   * the frame is the current run's, at a cursor asked for since it was recorded (false: its first frame,
   * drawn while it records, or the run it replaces): the views draw it dimmed and still until then
   */
  fresh: boolean;
  prevCounters: number[] | null;
  /** the run before the last tunable change, to compare */
  previous: { label: string; counters: number[] } | null;
  /** run B, when comparing */
  compare: CompareState | null;
  /** runs C and D (only beside a run B), in order */
  more: CompareState[];
  sweep: SweepState | null;
  /** the scenario's letter beside the model (its Seed vs model drawer), for run runId */
  letter: LetterState | null;
  /** the tour being walked, the beat on screen (index into beats), and the beats it may walk (&beats=3-7) */
  tour: (LoadedTour & { index: number; from: number; to: number }) | null;
  /** an exercise's answers and the student's progress (null: no tour, or a tour that asks nothing) */
  quiz: QuizState | null;
  /** playing stops at this cursor (a question's reveal plays from its start to its moment) */
  playTo: number | null;
  /** events per second while a reveal plays (null: the speed chosen) */
  playRate: number | null;
  /** what the beat highlights */
  highlight: Highlight | null;
  /** a beat's shares of the room per view (its sizes:), over each view's own grow */
  viewSizes: Record<ViewId, number> | null;
  /** the user's choices, view by view (a view without one follows its group's default: views/registry.ts isShown) */
  views: Record<ViewId, boolean>;
  enlarged: ViewId | null;
  drawer: 'tunables' | 'editor' | 'about' | 'letter' | null;
  theme: 'light' | 'dark';
  /** the process the address space shows (null: the one running at the cursor) */
  mmSel: number | null;
  /** the counters charted in the Counters view */
  chart: string[];
  /** presenter mode: full screen, a thin transport, the caption large, one or two views */
  present: boolean;
  /** embedded in another page (an iframe): one or two views and a minimal transport, no chrome */
  embed: boolean;
  /** presenter mode's type scale (1 = the player's) */
  fontScale: number;
  /** presenter mode: the screen blanked (B) */
  blank: boolean;
  help: boolean;
  toast: { text: string; id: number } | null;
}

/**
 * Where the cursor can jump: the shared targets, and those a mechanism adds
 * (mechanisms/types.ts `jumps`), by id. Each is a sorted list of event
 * indexes (the cursor goes just after the event) in the timeline's `marks`
 * or one of its own index lists.
 */
export type JumpKind = string;

export type Action =
  | { type: 'openGallery' }
  | { type: 'opening' }
  | {
      type: 'openScenario';
      name: string | null;
      file: string;
      source: string;
      edited: boolean;
      /** the editor's text not yet run, from the link (`#draft=`): the editor opens with it */
      draft?: string;
      overrides?: Record<string, string>;
      cursor?: CursorTarget;
      views?: ViewId[];
      enlarged?: ViewId | null;
      compare?: Record<string, string> | null;
      /** runs C and D's settings, in order (`&c=`, `&d=`) */
      more?: Record<string, string>[];
      sweep?: {
        key: string;
        values: string[] | null;
        y: string | null;
        versus?: Record<string, string> | null;
      } | null;
      /** what a link may carry besides (url.ts) */
      theme?: AppState['theme'];
      mmSel?: number | null;
      chart?: string[];
      present?: boolean;
      embed?: boolean;
      fontScale?: number;
    }
  | { type: 'setDraft'; text: string | null }
  | { type: 'applyDraft' }
  | { type: 'setTunable'; key: string; value: string | null }
  | { type: 'resetTunables' }
  | { type: 'rerun' }
  | { type: 'compileFailed'; runId: number; issues: Issue[] }
  | { type: 'compiled'; runId: number; scenario: Program['scenario']; own: Program['scenario'] }
  | { type: 'runProgress'; runId: number; done: number; total: number; big: boolean }
  | { type: 'runLoaded'; runId: number; program: Program; timeline: Timeline }
  | { type: 'runFailed'; runId: number; issues: Issue[]; limits?: WorkerLimit[] | null; tunables?: boolean }
  /** raise the limits the last refusal named to what the scenario needs, and run again */
  | { type: 'runAnyway'; limits: WorkerLimit[] }
  /** the worker was replaced (a cancel it did not answer): the runs it held are gone */
  | { type: 'workerRestarted' }
  | { type: 'runCancelled'; runId: number }
  | { type: 'cancelRun' }
  | { type: 'seek'; cursor: number }
  | { type: 'step'; delta: number }
  | { type: 'jump'; kind: JumpKind; dir: 1 | -1 }
  | { type: 'frame'; frame: Frame }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'togglePlay' }
  | { type: 'setSpeed'; speed: number }
  /** shown: the views on screen when they were not chosen (a short window shows two): they become the choice */
  | { type: 'toggleView'; id: ViewId; shown?: ViewId[] }
  | { type: 'enlarge'; id: ViewId | null }
  | { type: 'openDrawer'; drawer: AppState['drawer'] }
  | { type: 'setTheme'; theme: AppState['theme'] }
  | { type: 'toggleHelp' }
  /** run B's settings (null: stop comparing, C and D too); more: C and D's (left as they are when absent) */
  | { type: 'setCompare'; set: Record<string, string> | null; more?: Record<string, string>[] }
  /** run A's first frame while it records (a scenario just opened: nothing else to show yet) */
  /** cursor: a frame at the cursor the page keeps, drawn while the run records again (else its first frame) */
  | { type: 'runPreview'; runId: number; program: Program; timeline: Timeline; frame: Frame; cursor?: number }
  | { type: 'compareCompiled'; slot: RunSlot; runId: number }
  | { type: 'compareProgress'; slot: RunSlot; runId: number; done: number; total: number; big: boolean }
  | { type: 'compareLoaded'; slot: RunSlot; runId: number; program: Program; timeline: Timeline }
  | { type: 'compareFailed'; slot: RunSlot; runId: number; issues: Issue[] }
  | { type: 'compareFrame'; slot: RunSlot; runId: number; frame: Frame }
  | {
      type: 'openSweep';
      key: string;
      values: string[] | null;
      y: string | null;
      versus?: Record<string, string> | null;
    }
  | { type: 'sweepPlanned'; runId: number; points: SweepState['points'] }
  | { type: 'sweepFailed'; runId: number; error: string; limits?: WorkerLimit[] | null }
  | {
      type: 'sweepPoint';
      runId: number;
      index: number;
      counters: number[] | null;
      error: string | null;
      versus?: boolean;
    }
  | { type: 'sweepProgress'; runId: number; done: number }
  | { type: 'sweepDone'; runId: number; cancelled: boolean }
  | {
      type: 'openTour';
      tour: LoadedTour;
      index: number;
      /** the beats it may walk, as indices (inclusive): an embed of part of a talk */
      range?: [number, number];
      present?: boolean;
      theme?: AppState['theme'];
      fontScale?: number;
      embed?: boolean;
      /** an exercise's: its seed (&seed=), &teacher=1, and the progress kept in the browser for this exercise and seed */
      seed?: number;
      teacher?: boolean;
      progress?: Record<string, QuestionProgress>;
    }
  | { type: 'gotoBeat'; index: number }
  | {
      type: 'quizAnswers';
      seed: number;
      answers: QuizAnswer[] | null;
      pictures?: QuizPicture[] | null;
      error: string | null;
    }
  | { type: 'checkAnswer'; id: string; typed: string }
  | { type: 'revealAnswer'; id: string }
  | { type: 'togglePick'; id: string; page: number }
  /** a wrong answer's "look at the view": that view shown and outlined */
  | { type: 'explainWith'; view: ViewId }
  | { type: 'clearPick'; id: string }
  | { type: 'restartQuiz' }
  | { type: 'setTourDraft'; text: string | null }
  | { type: 'letterStart'; runId: number }
  | { type: 'letterProgress'; runId: number; column: number; columns: number; label: string; fraction: number }
  | { type: 'letterDone'; runId: number; cells: ReferenceCell[] | null; error: string | null }
  | { type: 'setSweepY'; y: string }
  | { type: 'cancelSweep' }
  | { type: 'closeSweep' }
  | { type: 'selectMm'; mm: number | null }
  | { type: 'setChart'; chart: string[] }
  | { type: 'setPresent'; on: boolean }
  /** one step along FONT_SCALES, up or down */
  | { type: 'stepFontScale'; dir: 1 | -1 }
  | { type: 'toggleBlank' }
  | { type: 'toast'; text: string }
  | { type: 'clearToast' };

/** the scenario on screen: the one running now once it has compiled, else the last one run */
export const currentScenario = (s: AppState): Program['scenario'] | undefined => s.running ?? s.program?.scenario;

/** what the top bar and the progress dialog call it */
export const scenarioTitle = (s: AppState): string => currentScenario(s)?.name ?? s.scenario?.file ?? '';

/** the counters charted until the user picks others */
export const DEFAULT_CHART = ['pgfault', 'pgmajfault', 'nr_mapped'];

/** presenter mode's type scales */
/** the smallest text on stage (presenter mode), in CSS px, at type scale 1: what a room reads at 1280x720 */
export const STAGE_TEXT = 18;

export const FONT_SCALES = [0.85, 1, 1.15, 1.3, 1.5, 1.75];

export const SPEEDS = [1, 3, 10, 30, 100, 300, 1000, 10000];

export function initialState(theme: AppState['theme'] = 'light'): AppState {
  return {
    page: 'gallery',
    opening: false,
    scenario: null,
    draft: null,
    tourDraft: null,
    overrides: {},
    limits: DEFAULT_LIMITS,
    runId: 0,
    load: { status: 'idle' },
    program: null,
    running: null,
    own: null,
    timeline: null,
    cursor: 0,
    pendingCursor: null,
    playing: false,
    speed: 30,
    frame: null,
    fresh: false,
    prevCounters: null,
    previous: null,
    compare: null,
    more: [],
    sweep: null,
    letter: null,
    tour: null,
    quiz: null,
    viewSizes: null,
    playTo: null,
    playRate: null,
    highlight: null,
    views: {},
    enlarged: null,
    drawer: null,
    theme,
    help: false,
    toast: null,
    mmSel: null,
    chart: DEFAULT_CHART,
    present: false,
    embed: false,
    fontScale: 1,
    blank: false,
  };
}

/** a question's progress: what the student typed, how often, and whether the answer is shown */
export interface QuestionProgress {
  tries: number;
  given: string;
  verdict: 'right' | 'wrong' | null;
  /** the answer shown and its moment played (after a right answer, two tries, or Reveal) */
  revealed: boolean;
}

/**
 * An exercise on the page. Its answers are computed by the worker (wasm-core/ts/quiz.ts, as the CLI's
 * --answers) and held here, never drawn until a question is revealed; progress is kept in the browser per
 * exercise and seed (the controller saves it).
 */
export interface QuizState {
  seed: number;
  /** &teacher=1: every answer and the parameters shown, nothing hidden */
  teacher: boolean;
  status: 'computing' | 'ready' | 'error';
  answers: Record<string, QuizAnswer> | null;
  /** each question's picture on the worksheet (run A where it starts), by question id */
  pictures: Record<string, QuizPicture> | null;
  error: string | null;
  progress: Record<string, QuestionProgress>;
  /** a pick question's pages as the student clicks them on the address space, by question id */
  picked: Record<string, number[]>;
}

/** the question of the beat on screen, if it asks one */
export const beatQuestion = (s: Pick<AppState, 'tour'>): Question | null =>
  s.tour ? (s.tour.beats[s.tour.index]?.ask ?? null) : null;

/**
 * A question is open while the student has not had its answer: the page hides what would give it away (the
 * key figures, the counters, whole-run charts, events past its start, runs B-D) and keeps the cursor at or
 * before where it starts.
 */
export function questionOpen(s: Pick<AppState, 'tour' | 'quiz'>): boolean {
  const q = beatQuestion(s);
  return !!q && !!s.quiz && !s.quiz.teacher && !s.quiz.progress[q.id]?.revealed;
}

/** the open pick question whose mapping is `vma`, if any: the address space then picks pages for it */
export function pickingOn(s: Pick<AppState, 'tour' | 'quiz'>, vma: string): string | null {
  const q = beatQuestion(s);
  return q?.kind === 'pick' && q.vma === vma && questionOpen(s) ? q.id : null;
}

/** every run beside A, in order: B, then C and D */
export const otherRuns = (s: Pick<AppState, 'compare' | 'more'>): CompareState[] =>
  s.compare ? [s.compare, ...s.more] : [];

/**
 * Every run on the page recorded (or stopped by an error): A fresh, and B–D no longer compiling or
 * recording. The views' `data-ready`, which the tests and a tour's caption wait on, means this.
 */
export const allRecorded = (s: Pick<AppState, 'compare' | 'more' | 'load' | 'fresh'>): boolean =>
  s.load.status === 'ready' &&
  s.fresh &&
  otherRuns(s).every((r) => r.load.status !== 'compiling' && r.load.status !== 'running');

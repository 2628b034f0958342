/// <reference lib="webworker" />
/**
 * The engine worker: parses, checks and compiles scenarios (a share link's
 * text is untrusted and may be large: none of that runs on the page), owns
 * the WebAssembly core and one engine per run (the page's run id is the
 * key: compare holds two), records runs in slices (posting progress,
 * honouring cancel between slices), computes frames, and plans and runs
 * sweeps. The page never blocks on the simulation; if the worker stops
 * answering, the page replaces it (client.ts).
 *
 * Loaded by the worker's entry (./worker.ts), which has the core compiling
 * meanwhile and keeps the messages that came before this script was in.
 */
import { RunStatus } from '../../../wasm-core/ts/abi.js';
import { eventFields } from '../../../wasm-core/ts/events.js';
import { alignCursor } from '../../../wasm-core/ts/align.js';
import { Core, type Sim } from '../../../wasm-core/ts/core.js';
import type { Recorder } from '../../../wasm-core/ts/recorder.js';
import { Engine } from '../frames/engine.js';
import { compile, type Program } from '../../../wasm-core/ts/compile.js';
import { LimitExceeded, limitsOf } from '../../../wasm-core/ts/limits.js';
import { checkSweepWork, planSweep } from '../../../wasm-core/ts/plan.js';
import { COUNTERS } from '../../../wasm-core/ts/abi.js';
import { judgeLetter } from '../../../wasm-core/ts/letter.js';
import { changedTunables, withSettings } from '../../../wasm-core/ts/multirun.js';
import { explainError, ProgramError, startProgram } from '../../../wasm-core/ts/runner.js';
import { applyOverrides } from '../../../wasm-core/ts/overrides.js';
import { parseScenario } from '../../../wasm-core/ts/load/index.js';
import { ScenarioErrors } from '../../../wasm-core/ts/errors.js';
import type { Scenario } from '../../../wasm-core/ts/scenario.js';
import { FRAME_PROVIDERS } from '../gen/frames.js';
import { computeMarks } from '../mechanisms/registry.js';
import { placeStepCursor, type StepCursor } from '../frames/cursor.js';
import type {
  FromWorker,
  QuizInput,
  QuizPicture,
  ScenarioInput,
  StepCounters,
  SweepPointResult,
  Timeline,
  ToWorker,
  WorkerIssue,
  WorkerLimit,
} from './protocol.js';
import { counterKey } from '../../../wasm-core/ts/load/tour-format.js';
import { answerQuestions, QuizError } from '../../../wasm-core/ts/quiz.js';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromWorker, transfer: Transferable[] = []) => self.postMessage(m, transfer);
let corePromise: Promise<Core>;
/** the core did not compile or start: the page has its 'fatal' */
let coreFailed = false;

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

/** a run still recording after this long shows its first frame meanwhile */
const PREVIEW_MS = 250;
/** ... or at once, for a run of at least this many operations (the 1 GiB prefault run has 262,149) */
const PREVIEW_AT_ONCE = 100_000;

/*
 * Finished recordings the page let go of, kept for a while by what made them (the scenario input and the
 * engine options: the core is deterministic, so the same input records the same run): a speaker's PageUp
 * to the last beat, or a tunable set back, shows its run at once instead of recording it again (the
 * prefault talk's 1 GiB beats took 1-2 s each). At most KEPT_RUNS, holding at most KEPT_BYTES, each with
 * fewer snapshots than while it was on screen.
 */
const KEPT_RUNS = 8;
const KEPT_BYTES = 320 * 2 ** 20;
/** a kept recording keeps this many bytes of snapshots at most (the prefault run's 1 GiB held 192 MiB of them) */
const KEPT_SNAPSHOT_BYTES = 16 * 2 ** 20;
const kept: { key: string; engine: Engine }[] = [];
const keys = new Map<number, string>();

function drop(id: number) {
  const engine = engines.get(id),
    key = keys.get(id);
  engines.delete(id);
  locates.delete(id);
  keys.delete(id);
  previewsAt.delete(id);
  if (!engine) return;
  if (key === undefined || !engine.finished || engine.wasCancelled) {
    engine.destroy();
    return;
  }
  engine.thin(KEPT_SNAPSHOT_BYTES);
  /* a big run's step snapshots are pinned and stay: 224 MiB for the prefault talk's 1 GiB run, not kept */
  if (engine.heldBytes > KEPT_BYTES / 2) {
    engine.destroy();
    return;
  }
  kept.push({ key, engine });
  let bytes = kept.reduce((a, k) => a + k.engine.heldBytes, 0);
  while (kept.length > KEPT_RUNS || bytes > KEPT_BYTES) {
    const old = kept.shift()!;
    bytes -= old.engine.heldBytes;
    old.engine.destroy();
  }
}

/** a kept recording of exactly this input, taken out of the keep */
function takeKept(key: string): Engine | null {
  const i = kept.findIndex((k) => k.key === key);
  return i < 0 ? null : kept.splice(i, 1)[0].engine;
}

function pump(id: number) {
  const engine = engines.get(id);
  if (!engine) return;
  const done = engine.recordSome(40);
  const p = engine.progress;
  post({ t: 'progress', id, done: p.done, total: p.total, big: engine.isBig });
  if (!done) {
    previewAt(id, engine);
    setTimeout(() => pump(id), 0);
    return;
  }
  previewsAt.delete(id);
  if (engine.wasCancelled) {
    post({ t: 'cancelled', id });
    drop(id);
    return;
  }
  post({ t: 'loaded', id, timeline: timelineOf(engine, locates.get(id)) });
}

/** a run's timeline as it stands while it records, for a preview: no samples (the recorder's own arrays grow
    while it records), no marks or series (the views' are computed once the run is in) */
function recordingTimeline(engine: Engine): Timeline {
  return { ...engine.timeline(), samples: { x: [], values: COUNTERS.map(() => []) }, marks: {}, series: {} };
}

/* the cursor each run recorded again is to be drawn at, as soon as its recording has passed it */
const previewsAt = new Map<number, number | StepCursor>();
/** events past the cursor recorded before its frame is drawn: the event log around it (frame()'s radius) */
const PREVIEW_LOG = 60;

/** step event i's step is the run's last with work: written at the top (not in a repeat), only says and expects after it */
function lastWorkingStep(engine: Engine, i: number): boolean {
  const steps = engine.program.steps;
  const pc = engine.eventOf(i, 'mmsim_step').pc;
  return steps[pc]?.depth === 0 && steps.slice(pc + 1).every((st) => st.kind === 'say' || st.kind === 'expect');
}

/**
 * A run recorded again (a tunable changed): the frame at the page's cursor as soon as the recording has
 * passed it (its step ended and the log around it recorded), sent while the rest records: a change at
 * event 500 of a run of 1.8 M events is drawn in milliseconds instead of after the whole run.
 */
function previewAt(id: number, engine: Engine) {
  const at = previewsAt.get(id);
  if (at === undefined || engine.isBig) return;
  const rec = engine.recorded;
  let cursor = typeof at === 'number' ? at : placeStepCursor(rec, at, true);
  if (
    cursor === null &&
    typeof at !== 'number' &&
    at.step === rec.stepEvents.length - 1 &&
    lastWorkingStep(engine, rec.stepEvents[at.step])
  ) {
    /*
     * The step still recording, the run's last with work: its end is not known yet, and with it the
     * cursor (prefault's 1 GiB run is one such step of 1.2-1.9 M events). Placed on the run's end as the
     * work done so far foretells it: the frame is drawn still until the run is in, then at the cursor
     * placed on the whole run, a few events away at most where each unit of work makes as many events.
     */
    const { done, total } = engine.progress;
    if (done > 0) {
      const end = Math.max(rec.nEvents, Math.round((rec.nEvents * total) / done));
      cursor = placeStepCursor({ stepEvents: rec.stepEvents, nEvents: end }, at);
    }
  }
  if (cursor === null || cursor + PREVIEW_LOG > rec.nEvents) return;
  previewsAt.delete(id);
  try {
    const frame = engine.whileRecording(() => engine.frame(cursor));
    post({ t: 'preview', id, timeline: recordingTimeline(engine), frame, cursor }, transferables(frame));
  } catch {
    /* no preview: the page keeps the frame it has until the run is in, as before (a recording that could
       not go on is cancelled by whileRecording, and pump says so) */
  }
}

/* the page never needs the typed step tree (program.steps describes each step): cloning it for a
   scenario of 16,000 steps took the page 200 ms */
const leanScenario = (sc: Scenario): Scenario => ({ ...sc, steps: [] });
/** steps per message to the page: reading 5,000 takes it about 10 ms */
const STEPS_PER_MESSAGE = 5000;
const lean = (p: Program): Program => ({ ...p, scenario: leanScenario(p.scenario) });

/** a recorded run's timeline as the views read it: its marks, its providers' series, its counter moments placed */
function timelineOf(engine: Engine, locate: ScenarioInput['locate'] = []): Timeline {
  const timeline = engine.timeline();
  const event = (i: number) => engine.event(i);
  const ofTypes = (types: readonly number[]) => engine.ofTypes(types);
  const series: Record<string, unknown> = {};
  if (!timeline.big)
    for (const p of FRAME_PROVIDERS)
      if (p.series) series[p.id] = p.series(timeline.nEvents, event, engine.program, ofTypes);
  /* a tour's counter moments, placed by binary search over the recorded run */
  const located: Record<string, number | null> = {};
  for (const m of locate) located[counterKey(m)] = engine.locateCounter(m.counter, m.reaches);
  return { ...timeline, marks: computeMarks(timeline.nEvents, event, ofTypes), series, located };
}

/* each run's counter moments to place once it is recorded (its input's locate) */
const locates = new Map<number, NonNullable<ScenarioInput['locate']>>();

/** the event log as JSON lines: one object per event, with the sentence the log shows */
function exportLog(engine: Engine): string {
  const n = engine.timeline().nEvents;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const e = engine.event(i);
    const l = engine.logLine(i);
    lines.push(
      JSON.stringify({
        index: i,
        event: e.name,
        opStart: e.opStart,
        task: e.task === null ? null : (engine.program.tasks[e.task] ?? e.task),
        step: e.step,
        fields: eventFields(e),
        text: l.text,
        fn: l.fn,
      }),
    );
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}

/** the counters at the end of each step (the boundary before the next step's first event) */
function exportSteps(engine: Engine): StepCounters[] {
  const t = engine.timeline();
  return t.stepEvents.map((_, k) => {
    const end = k + 1 < t.stepEvents.length ? t.stepEvents[k + 1] : t.nEvents;
    const info = engine.program.steps[t.stepOf[k]];
    return {
      step: t.stepOf[k],
      line: info?.at.line ?? null,
      kind: info?.kind ?? '',
      summary: info?.summary ?? '',
      event: end,
      counters: engine.countersAt(end),
    };
  });
}

function computeFrames() {
  frameScheduled = false;
  const reqs = [...pendingFrames.values()];
  pendingFrames.clear();
  /*
   * Every request is answered: a frame, an error, or (a run still recording) later. One dropped here
   * left its page waiting for a frame for good, the views on "Preparing the machine" (seen on a tour's
   * beat under load).
   */
  let waiting = false;
  for (const req of reqs) {
    const engine = engines.get(req.id);
    const from = req.alignFrom !== undefined ? engines.get(req.alignFrom) : undefined;
    if (!engine || (req.alignFrom !== undefined && !from)) {
      post({ t: 'frameError', id: req.id, seq: req.seq, message: 'the run is no longer recorded' });
      continue;
    }
    if (!engine.finished || (from && !from.finished)) {
      /* a newer request for this run, come meanwhile, replaces it */
      if (!pendingFrames.has(req.id)) pendingFrames.set(req.id, req);
      waiting = true;
      continue;
    }
    try {
      let cursor = req.cursor;
      if (from) cursor = engine.isBig || from.isBig ? 0 : alignCursor(from.opIndex(), cursor, engine.opIndex());
      engine.focus = req.focus ?? null;
      const frame = engine.frame(cursor);
      post({ t: 'frame', id: req.id, seq: req.seq, frame }, transferables(frame));
    } catch (e) {
      post({ t: 'frameError', id: req.id, seq: req.seq, message: (e as Error).message });
    }
  }
  if (waiting && !frameScheduled) {
    frameScheduled = true;
    setTimeout(computeFrames, 20);
  }
}

/** a loader refusal as the page shows it: issues, and the limits it may offer to raise */
function refusal(e: unknown): { issues: WorkerIssue[]; limits: WorkerLimit[] | null } {
  if (e instanceof ScenarioErrors) {
    const over = limitsOf(e);
    return {
      issues: e.errors.map((x) => ({
        line: x.line || null,
        col: x.col || null,
        path: x.path,
        message: x instanceof LimitExceeded ? x.summary : x.detail,
      })),
      limits: over
        ? over.map((x) => ({ key: x.key, needed: x.needed, limit: x.limit, raisable: x.raisable, message: x.summary }))
        : null,
    };
  }
  return {
    issues: [{ line: null, col: null, path: '', message: `internal error: ${(e as Error).message}` }],
    limits: null,
  };
}

/** the scenario as the page asked for it: parsed, checked, with its tunables, within its limits */
/** thrown when the scenario parses but the tunables set on top of it do not apply */
class TunablesError extends Error {
  constructor(readonly cause: unknown) {
    super('tunables');
  }
}

/*
 * The last few scenarios parsed and checked, by their text, file and limits: a tunable changed, a run
 * compared or a letter asked for reads the same text again (lru/backup: 20-80 ms of YAML and schema
 * each time in a worker). Nothing changes a parsed scenario: overrides make a new one.
 */
const PARSED_KEPT = 4;
const parsed = new Map<string, Scenario>();
function parsedScenario(input: ScenarioInput): Scenario {
  if (input.source.length > 1 << 20) return parseScenario(input.source, input.file, input.limits);
  const key = `${input.file}\0${JSON.stringify(input.limits)}\0${input.source}`;
  let s = parsed.get(key);
  if (s) parsed.delete(key);
  else s = parseScenario(input.source, input.file, input.limits);
  parsed.set(key, s);
  while (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  return s;
}

function scenarioOf(input: ScenarioInput) {
  const own = parsedScenario(input);
  let s: Scenario;
  try {
    s = applyOverrides(own, input.overrides);
  } catch (e) {
    throw new TunablesError(e);
  }
  if (input.compare) s = applyOverrides(s, input.compare);
  return { own, scenario: s };
}

/** run each value of a sweep to its end with tracing off, in slices (progress, cancel) */
/**
 * The scenario's letter beside the model: one run per column (the scenario, with the page's tunables,
 * plus the column's settings), run to its end without events in slices (progress, cancel), then each
 * row's cells (wasm-core/ts/letter.ts, as the CLI computes them). A column that changes nothing reuses
 * the run of the one before it that did the same.
 */
async function letter(id: number, input: ScenarioInput) {
  const core = await corePromise;
  const state = { cancelled: false };
  sweeps.set(id, state);
  const yieldNow = () => new Promise((r) => setTimeout(r, 0));
  try {
    const base = scenarioOf(input).scenario;
    const l = base.letter;
    if (!l) throw new Error('this scenario has no letter');
    const counters: Record<string, number>[] = [];
    let same: Record<string, number> | null = null;
    for (const [i, col] of l.columns.entries()) {
      const run = withSettings(base, col.set);
      const unchanged = !changedTunables(base, run).length;
      if (unchanged && same) {
        counters.push(same);
        continue;
      }
      const program = compile(run, input.limits);
      const sim = startProgram(core, program, { trace: false });
      let st: RunStatus = RunStatus.Work;
      let tSlice = performance.now();
      post({ t: 'letterProgress', id, column: i, columns: l.columns.length, label: col.label, fraction: 0 });
      while (st === RunStatus.Work && !state.cancelled) {
        st = sim.run(200_000);
        if (performance.now() - tSlice > 50) {
          const fraction = sim.workDone / Math.max(1, sim.workTotal);
          post({ t: 'letterProgress', id, column: i, columns: l.columns.length, label: col.label, fraction });
          await yieldNow();
          tSlice = performance.now();
        }
      }
      if (state.cancelled) {
        sim.destroy();
        post({ t: 'letterDone', id, cells: null, error: null });
        return;
      }
      const error = st === RunStatus.Error ? explainError(program, sim).message : null;
      const values = sim.counters();
      sim.destroy();
      if (error) throw new Error(`column ${col.label}: ${error}`);
      const named = Object.fromEntries(COUNTERS.map((c, k) => [c, values[k]]));
      if (unchanged) same = named;
      counters.push(named);
      await yieldNow();
    }
    post({ t: 'letterDone', id, cells: judgeLetter(l, counters), error: null });
  } catch (e) {
    const r = e instanceof ScenarioErrors || e instanceof LimitExceeded ? refusal(e) : null;
    post({
      t: 'letterDone',
      id,
      cells: null,
      error: r ? r.issues.map((x) => x.message).join('; ') : (e as Error).message,
    });
  } finally {
    sweeps.delete(id);
  }
}

/** an exercise's answers: its beats' runs recorded and read at their moments (the CLI's --answers does the same) */
async function quiz(seq: number, input: QuizInput) {
  const core = await corePromise;
  try {
    /* the tour's validator: loaded with the first exercise, not with every page */
    const { parseTour } = await import('../../../wasm-core/ts/load/tour.js');
    const tour = parseTour(input.source, input.file, { seed: input.seed });
    const parsed = new Map<string, Scenario>();
    /* each question's picture for the worksheet: run A's frame where the question starts */
    const pictures: QuizPicture[] = [];
    const timelines = new Map<Recorder, Timeline>();
    const answers = answerQuestions(core, input.file, tour.beats, {
      recorder: (c, program, opts) => new Engine(c, program, opts, FRAME_PROVIDERS),
      answered: (a, rec) => {
        const engine = rec as Engine;
        let timeline = timelines.get(rec);
        if (!timeline) {
          timeline = timelineOf(engine);
          timelines.set(rec, timeline);
        }
        pictures.push({ id: a.id, frame: engine.frame(a.from), program: lean(engine.program), timeline });
      },
      scenario: (name) => {
        let s = parsed.get(name);
        if (!s) {
          const x = input.scenarios[name];
          if (!x) throw new QuizError(`${input.file}: no scenario '${name}'`);
          s = parseScenario(x.source, x.file);
          parsed.set(name, s);
        }
        return s;
      },
    });
    post(
      { t: 'quizDone', seq, answers, pictures, error: null },
      pictures.flatMap((p) => transferables(p.frame)),
    );
  } catch (e) {
    post({ t: 'quizDone', seq, answers: null, pictures: null, error: (e as Error).message });
  }
}

async function sweep(id: number, input: ScenarioInput, key: string, values: string[] | null) {
  const core = await corePromise;
  const state = { cancelled: false };
  sweeps.set(id, state);
  let programs: Program[];
  try {
    const base = scenarioOf(input).scenario;
    const runs = planSweep(base, key, values ?? undefined);
    /* the sweep's work in all, before any run is compiled */
    checkSweepWork(base, key, runs, input.limits);
    programs = runs.map((r) => compile(r.scenario, input.limits));
    post({
      t: 'sweepPlanned',
      id,
      points: runs.map((r) => ({
        /* a number; a boolean as 0/1; a list of one size (one mTHP size: [16 KiB]) as that size */
        x:
          typeof r.value === 'number'
            ? r.value
            : typeof r.value === 'boolean'
              ? Number(r.value)
              : Array.isArray(r.value) && r.value.length === 1 && typeof r.value[0] === 'number'
                ? r.value[0]
                : NaN,
        raw: r.raw,
        label: r.label,
      })),
    });
  } catch (e) {
    const r = refusal(e);
    post({
      t: 'sweepError',
      id,
      error: r.issues
        .map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.path ? `${i.path}: ` : ''}${i.message}`)
        .join('; '),
      limits: r.limits,
    });
    sweeps.delete(id);
    return;
  }
  const yieldNow = () => new Promise((r) => setTimeout(r, 0));
  const postPoint = (i: number, point: Omit<SweepPointResult, 'index'>) =>
    post({ t: 'sweepPoint', id, done: i + 1, total: programs.length, point: { index: i, ...point } });
  for (let i = 0; i < programs.length && !state.cancelled; i++) {
    const t0 = performance.now();
    let sim: Sim;
    try {
      sim = startProgram(core, programs[i], { trace: false });
    } catch (e) {
      const error = e instanceof ProgramError ? e.reason : (e as Error).message;
      postPoint(i, { counters: [], status: 'error', error, seconds: 0 });
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
      const seconds = (performance.now() - t0) / 1000;
      postPoint(i, { counters: sim.counters(), status: error ? 'error' : 'ok', error, seconds });
    }
    sim.destroy();
    await yieldNow();
  }
  sweeps.delete(id);
  post({ t: 'sweepDone', id, cancelled: state.cancelled });
}

async function receive(ev: MessageEvent<ToWorker>) {
  const m = ev.data;
  switch (m.t) {
    case 'check': {
      let issues: WorkerIssue[] = [];
      try {
        compile(parseScenario(m.source, m.file));
      } catch (e) {
        /* over a limit it may still run: the player says so and offers Run anyway; the editor does not block it */
        const r = refusal(e);
        issues = r.limits?.every((l) => l.raisable) ? [] : r.issues;
      }
      post({ t: 'checked', seq: m.seq, issues });
      break;
    }
    case 'prepare': {
      drop(m.id);
      let program: Program, own: Scenario;
      try {
        const s = scenarioOf(m.input);
        own = s.own;
        program = compile(s.scenario, m.input.limits);
      } catch (e) {
        if (e instanceof TunablesError) post({ t: 'prepareError', id: m.id, ...refusal(e.cause), tunables: true });
        else post({ t: 'prepareError', id: m.id, ...refusal(e) });
        return;
      }
      /* a big step list follows in pieces, so that no single message takes the page long to read */
      const first = lean(program);
      if (program.steps.length > STEPS_PER_MESSAGE) first.steps = program.steps.slice(0, STEPS_PER_MESSAGE);
      post({ t: 'prepared', id: m.id, program: first, own: leanScenario(own) });
      for (let i = STEPS_PER_MESSAGE; i < program.steps.length; i += STEPS_PER_MESSAGE)
        post({ t: 'steps', id: m.id, steps: program.steps.slice(i, i + STEPS_PER_MESSAGE) });
      const key = JSON.stringify([m.input, m.opts]);
      const again = takeKept(key);
      if (again) {
        engines.set(m.id, again);
        keys.set(m.id, key);
        if (m.input.locate?.length) locates.set(m.id, m.input.locate);
        post({ t: 'loaded', id: m.id, timeline: timelineOf(again, locates.get(m.id)) });
        break;
      }
      const core = await corePromise;
      let engine: Engine;
      try {
        engine = new Engine(core, program, m.opts, FRAME_PROVIDERS);
      } catch (e) {
        const at = e instanceof ProgramError ? e.at : null;
        const message = e instanceof ProgramError ? e.reason : (e as Error).message;
        post({
          t: 'loadError',
          id: m.id,
          issues: [{ line: at?.line ?? null, col: at?.col ?? null, path: at?.path ?? '', message }],
        });
        return;
      }
      engines.set(m.id, engine);
      keys.set(m.id, key);
      if (m.input.locate?.length) locates.set(m.id, m.input.locate);
      /*
       * the first frame (a few ms, taken before anything runs), sent if the run is still recording after
       * PREVIEW_MS: the page draws the machine while a big run records; a short run just arrives
       */
      if (m.previewAt !== undefined) previewsAt.set(m.id, m.previewAt);
      else if (m.preview)
        try {
          const frame = engine.frame(0);
          /* the timeline as it stands before anything ran: no events */
          const t = recordingTimeline(engine);
          const id = m.id;
          /* a run of many operations will take a while: at once */
          const wait = engine.progress.total >= PREVIEW_AT_ONCE ? 0 : PREVIEW_MS;
          setTimeout(() => {
            if (engines.get(id) === engine && !engine.finished)
              post({ t: 'preview', id, timeline: t, frame }, transferables(frame));
          }, wait);
        } catch {
          /* no preview: the page waits for the run, as before */
        }
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
      void sweep(m.id, m.input, m.key, m.values);
      break;
    case 'letter':
      void letter(m.id, m.input);
      break;
    case 'quiz':
      void quiz(m.seq, m.quiz);
      break;
    case 'export': {
      const engine = engines.get(m.id);
      try {
        if (!engine) throw new Error('the run is no longer recorded');
        post(
          m.what === 'log'
            ? { t: 'exported', seq: m.seq, log: exportLog(engine) }
            : { t: 'exported', seq: m.seq, steps: exportSteps(engine) },
        );
      } catch (e) {
        post({ t: 'exported', seq: m.seq, error: (e as Error).message });
      }
      break;
    }
  }
}

/**
 * The worker at work: the core from the module its entry is compiling, then every message, the early ones
 * (kept by the entry while this script loaded) first, in the order they came.
 */
export function serve(coreModule: Promise<WebAssembly.Module>, early: MessageEvent<ToWorker>[]): void {
  corePromise = coreModule.then(
    (m) => {
      const c = Core.fromModule(m);
      post({ t: 'ready' });
      return c;
    },
    (e) => {
      coreFailed = true;
      post({ t: 'fatal', message: `The simulator (WebAssembly) could not start: ${(e as Error).message}` });
      throw e;
    },
  );
  /* the page was told; what waits for the core ends there (any other error still surfaces) */
  corePromise.catch(() => {});
  const handle = (e: MessageEvent<ToWorker>) =>
    void receive(e).catch((err: unknown) => {
      if (!coreFailed) throw err;
    });
  self.onmessage = handle;
  for (const e of early.splice(0)) handle(e);
}

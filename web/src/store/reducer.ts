/**
 * The one reducer: (state, action) -> state, pure. Everything the UI can do
 * goes through here, so it can be tested without a browser.
 */
import { DEFAULT_LIMITS } from '../../../wasm-core/ts/limits.js';
import { findInIndex, type TimelineInfo } from '../../../wasm-core/ts/recorder.js';
import type { Timeline } from '../engine/protocol.js';
import { placeStepCursor } from '../frames/cursor.js';
import {
  FONT_SCALES,
  MORE_SLOTS,
  beatQuestion,
  otherRuns,
  questionOpen,
  type QuestionProgress,
  type Action,
  type AppState,
  type CompareState,
  type CursorTarget,
  type RunSlot,
} from './state.js';
import type { Moment } from '../../../wasm-core/ts/load/tour.js';
import { momentAt } from '../../../wasm-core/ts/moment.js';
import { gradeAnswer, questionFrom } from '../../../wasm-core/ts/grade.js';
import { settingsText } from '../../../wasm-core/ts/multirun.js';
import type { LoadedTour } from '../tours.js';
import { ALL_VIEW_IDS, groupOf, isShown } from '../views/ids.js';

export const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));

/** the cursor's place relative to the scenario's steps, to keep it across a re-run */
export function relativeCursor(t: TimelineInfo | null, cursor: number): CursorTarget {
  if (!t || t.big) return 'end';
  if (cursor >= t.nEvents) return 'end';
  let k = -1;
  for (let i = 0; i < t.stepEvents.length; i++) if (t.stepEvents[i] < cursor) k = i;
  if (k < 0) return 0;
  const start = t.stepEvents[k] + 1;
  const end = k + 1 < t.stepEvents.length ? t.stepEvents[k + 1] + 1 : t.nEvents;
  return { step: k, frac: end > start ? (cursor - start) / (end - start) : 0 };
}

/** place a relative cursor on a (new) timeline */
/**
 * A tour beat's moment as a cursor in this run: the start or end, just after the nth stop of a jump key
 * (the same marks the keys use), the start or the end of a step (as the step list numbers them), just
 * after the nth caption. A moment the run does not reach is its end.
 */
export function momentCursor(t: Timeline, m: Moment): number {
  if (m.kind !== 'jump') return momentAt(t, m) ?? t.nEvents;
  const list = jumpList(t, m.jump);
  return m.nth <= list.length ? list[m.nth - 1] + 1 : t.nEvents;
}

/** whether a run reaches a beat's moment (one it does not is placed at the run's end) */
export function momentReached(t: Timeline, m: Moment): boolean {
  return m.kind === 'jump' ? m.nth <= jumpList(t, m.jump).length : momentAt(t, m) !== null;
}

export function resolveCursor(t: Timeline, target: CursorTarget): number {
  if (t.big) return 0;
  if (typeof target === 'object' && 'moment' in target) return momentCursor(t, target.moment);
  if (target === 'end') return t.nEvents;
  if (typeof target === 'number') return clamp(target, 0, t.nEvents);
  return placeStepCursor(t, target) ?? t.nEvents;
}

function overridesLabel(o: Record<string, string>): string {
  const e = Object.entries(o);
  return e.length ? e.map(([k, v]) => `${k}=${v}`).join(', ') : "the scenario's tunables";
}

/** a fresh run B (or C, D) for these tunables (null: none) */
function compareRun(state: AppState, set: Record<string, string> | null, slot: RunSlot = 'b'): CompareState | null {
  if (!set) return null;
  const was = otherRuns(state).find((r) => r.slot === slot);
  return {
    slot,
    set,
    runId: (was?.runId ?? 0) + 1,
    load: { status: 'compiling' },
    program: null,
    timeline: null,
    frame: null,
  };
}

/** fresh runs B, C and D for these settings (C and D only beside a run B) */
function comparison(
  state: AppState,
  b: Record<string, string> | null,
  cd: Record<string, string>[],
): Pick<AppState, 'compare' | 'more'> {
  const compare = compareRun(state, b);
  const more = compare ? cd.slice(0, MORE_SLOTS.length).map((set, i) => compareRun(state, set, MORE_SLOTS[i])!) : [];
  return { compare, more };
}

/** the comparison's runs recorded again (A's scenario or tunables changed) */
const recompare = (state: AppState) =>
  comparison(
    state,
    state.compare?.set ?? null,
    state.more.map((r) => r.set),
  );

/** one run beside A changed by `f`, if it is still the run `runId` */
function withRun(state: AppState, slot: RunSlot, runId: number, f: (r: CompareState) => CompareState): AppState {
  if (slot === 'b') return state.compare?.runId === runId ? { ...state, compare: f(state.compare) } : state;
  const i = state.more.findIndex((r) => r.slot === slot && r.runId === runId);
  return i < 0 ? state : { ...state, more: state.more.map((r, j) => (j === i ? f(r) : r)) };
}

/** a fresh sweep (it runs again when the scenario or A's tunables change) */
function sweepRun(
  state: AppState,
  sw: { key: string; values: string[] | null; y: string | null; versus?: Record<string, string> | null } | null,
): AppState['sweep'] {
  if (!sw) return null;
  return {
    key: sw.key,
    asked: sw.values,
    y: sw.y ?? state.sweep?.y ?? 'pgfault',
    runId: (state.sweep?.runId ?? 0) + 1,
    status: 'running',
    done: 0,
    points: [],
    error: null,
    versus: sw.versus ? { set: sw.versus, counters: [] } : null,
  };
}

function rerun(state: AppState, overrides: Record<string, string>): AppState {
  const fin = state.load.status === 'ready' ? finalCounters(state) : null;
  return {
    ...state,
    ...recompare(state),
    sweep: state.sweep
      ? sweepRun(state, {
          key: state.sweep.key,
          values: state.sweep.asked,
          y: state.sweep.y,
          versus: state.sweep.versus?.set ?? null,
        })
      : null,
    overrides,
    runId: state.runId + 1,
    /* where the user stands, carried to the new run; a run not recorded yet has the cursor it was asked
       for still pending (its timeline on screen is its first frame's, of no events) */
    pendingCursor:
      state.load.status === 'ready' ? relativeCursor(state.timeline, state.cursor) : (state.pendingCursor ?? 0),
    previous: fin ? { label: overridesLabel(state.overrides), counters: fin } : state.previous,
    load: { status: 'compiling' },
    playing: false,
    fresh: false,
  };
}

/** the events a jump target stops after: steps and captions from the timeline, the rest from its marks */
export function jumpList(t: Timeline, kind: string): readonly number[] {
  if (kind === 'step') return t.stepEvents;
  if (kind === 'say') return t.sayEvents;
  if (kind === 'beat') return mergeSorted(t.beatEvents, t.sayEvents);
  return t.marks?.[kind] ?? [];
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    const x = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (out[out.length - 1] !== x) out.push(x);
  }
  return out;
}

/** the final counters of the current run: the last counter sample */
export function finalCounters(state: Pick<AppState, 'timeline'>): number[] | null {
  const s = state.timeline?.samples;
  if (!s?.x.length) return null;
  return s.values.map((v) => v[v.length - 1]);
}

const sameText = (a: Record<string, string> | null | undefined, b: Record<string, string> | null | undefined) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort()) && !a === !b;

/**
 * Beat `index` of a tour on screen: its scenario and A's settings (recorded again only when they change),
 * its run B, its views, its drawer and highlight, and the cursor at its moment (once the run is
 * recorded). Presenter and embed modes, the theme and the type scale stay as they are.
 */
function applyBeat(state: AppState, tour: LoadedTour & { from: number; to: number }, index: number): AppState {
  const i = Math.max(tour.from, Math.min(index, tour.to));
  const b = tour.beats[i];
  /* a question not yet answered: the cursor at its start, and no run beside A (B-D may be its options) */
  const asking = questionOpen({ tour: { ...tour, index: i }, quiz: state.quiz });
  const overrides = settingsText(b.set);
  const compare = b.compare && !asking ? settingsText(b.compare) : null;
  const more = asking ? [] : b.more.map(settingsText);
  const target: CursorTarget = { moment: asking && b.ask ? questionFrom(b.ask, b.at) : b.at };
  const views = b.views ? Object.fromEntries(ALL_VIEW_IDS.map((k) => [k, b.views!.includes(k)])) : {};
  let next: AppState;
  if (state.scenario?.name !== b.scenario || !sameText(state.overrides, overrides) || state.load.status === 'error')
    next = reducer(state, {
      type: 'openScenario',
      name: b.scenario,
      file: b.file,
      source: b.source,
      edited: false,
      overrides,
      compare: compare ?? undefined,
      more,
      cursor: target,
      present: state.present,
      embed: state.embed,
      theme: state.theme,
      fontScale: state.fontScale,
    });
  else {
    const ready = state.load.status === 'ready' && state.timeline;
    /* a run whose settings stay is not recorded again */
    const keepB = sameText(state.compare?.set, compare);
    const nextB = keepB ? state.compare : compareRun(state, compare);
    next = {
      ...state,
      compare: nextB,
      more: nextB
        ? more.map((set, j) =>
            keepB && state.more[j] && sameText(state.more[j].set, set)
              ? state.more[j]
              : compareRun(state, set, MORE_SLOTS[j])!,
          )
        : [],
      cursor: ready ? resolveCursor(state.timeline!, target) : state.cursor,
      pendingCursor: ready ? null : target,
      playing: false,
    };
  }
  return {
    ...next,
    views,
    enlarged: null,
    drawer: b.drawer,
    highlight: b.highlight,
    viewSizes: b.sizes && b.views ? Object.fromEntries(b.views.map((v, k) => [v, b.sizes![k]])) : null,
    tour: { ...tour, index: i },
    playTo: null,
    playRate: null,
  };
}

/** a question not answered yet */
const NOT_ASKED: QuestionProgress = { tries: 0, given: '', verdict: null, revealed: false };

/**
 * Show a question's answer: its beat again as told (runs B-D too), and its moment played from where the
 * question starts, in about three seconds.
 */
function reveal(state: AppState, id: string, progress: QuestionProgress): AppState {
  if (!state.tour || !state.quiz) return state;
  const quiz = { ...state.quiz, progress: { ...state.quiz.progress, [id]: { ...progress, revealed: true } } };
  const next = applyBeat({ ...state, quiz }, state.tour, state.tour.index);
  const q = beatQuestion(next);
  const t = next.timeline;
  if (!q || !t || next.load.status !== 'ready' || t.big) return next;
  const b = next.tour!.beats[next.tour!.index];
  const from = momentCursor(t, questionFrom(q, b.at));
  const at = momentCursor(t, b.at);
  return at > from
    ? { ...next, cursor: from, playing: true, playTo: at, playRate: Math.max(10, Math.ceil((at - from) / 3)) }
    : next;
}

/** the state after an action, with an open question's cursor kept at or before where it starts */
function keepQuestionShut(state: AppState): AppState {
  if (!questionOpen(state) || state.load.status !== 'ready' || !state.timeline || state.timeline.big) return state;
  const b = state.tour!.beats[state.tour!.index];
  const from = momentCursor(state.timeline, questionFrom(b.ask!, b.at));
  return state.cursor > from ? { ...state, cursor: from, playing: false, playTo: null, playRate: null } : state;
}

/** a tour with the beats it may walk: all of them, or a range (clamped to what there is) */
function tourRange(tour: LoadedTour, range?: [number, number]): LoadedTour & { from: number; to: number } {
  const last = tour.beats.length - 1;
  const from = Math.max(0, Math.min(range?.[0] ?? 0, last));
  return { ...tour, from, to: Math.max(from, Math.min(range?.[1] ?? last, last)) };
}

export function reducer(state: AppState, action: Action): AppState {
  return keepQuestionShut(act(state, action));
}

function act(state: AppState, action: Action): AppState {
  switch (action.type) {
    case 'openTour':
      return applyBeat(
        {
          ...state,
          present: action.present ?? state.present,
          embed: action.embed ?? false,
          theme: action.theme ?? state.theme,
          fontScale: action.fontScale ?? state.fontScale,
          sweep: null,
          /* the tour's text is the one the editor shows now */
          tourDraft: null,
          quiz: action.tour.beats.some((b) => b.ask)
            ? {
                seed: action.seed ?? action.tour.params?.seed ?? 1,
                teacher: action.teacher ?? false,
                status: 'computing',
                answers: null,
                pictures: null,
                error: null,
                progress: action.progress ?? {},
                picked: {},
              }
            : null,
        },
        tourRange(action.tour, action.range),
        action.index,
      );
    case 'quizAnswers':
      if (!state.quiz || state.quiz.seed !== action.seed) return state;
      return {
        ...state,
        quiz: {
          ...state.quiz,
          status: action.answers ? 'ready' : 'error',
          answers: action.answers ? Object.fromEntries(action.answers.map((a) => [a.id, a])) : null,
          pictures: action.pictures ? Object.fromEntries(action.pictures.map((p) => [p.id, p])) : null,
          error: action.error,
        },
      };
    case 'checkAnswer': {
      const q = beatQuestion(state);
      const a = state.quiz?.answers?.[action.id];
      if (!q || q.id !== action.id || !a || !questionOpen(state) || !action.typed.trim()) return state;
      const was = state.quiz!.progress[q.id] ?? NOT_ASKED;
      const right = gradeAnswer(q, a, action.typed);
      const p: QuestionProgress = {
        ...was,
        tries: was.tries + 1,
        given: action.typed.trim(),
        verdict: right ? 'right' : 'wrong',
      };
      /* right, or the second wrong try: the answer, played */
      if (right || p.tries >= 2) return reveal(state, q.id, p);
      return { ...state, quiz: { ...state.quiz!, progress: { ...state.quiz!.progress, [q.id]: p } } };
    }
    case 'revealAnswer': {
      const q = beatQuestion(state);
      if (!q || q.id !== action.id || !state.quiz?.answers?.[q.id] || !questionOpen(state)) return state;
      return reveal(state, q.id, state.quiz.progress[q.id] ?? NOT_ASKED);
    }
    case 'togglePick': {
      const q = beatQuestion(state);
      if (!q || q.kind !== 'pick' || q.id !== action.id || !questionOpen(state)) return state;
      const was = state.quiz!.picked[q.id] ?? [];
      const next = was.includes(action.page) ? was.filter((p) => p !== action.page) : [...was, action.page];
      return { ...state, quiz: { ...state.quiz!, picked: { ...state.quiz!.picked, [q.id]: next } } };
    }
    case 'explainWith':
      return {
        ...state,
        views: { ...state.views, [action.view]: true },
        enlarged: null,
        highlight: { kind: 'view', view: action.view },
      };
    case 'clearPick':
      if (!state.quiz) return state;
      return { ...state, quiz: { ...state.quiz, picked: { ...state.quiz.picked, [action.id]: [] } } };
    case 'restartQuiz':
      if (!state.quiz || !state.tour) return state;
      return applyBeat({ ...state, quiz: { ...state.quiz, progress: {}, picked: {} } }, state.tour, state.tour.from);
    case 'setTourDraft':
      return { ...state, tourDraft: action.text };
    case 'gotoBeat':
      return state.tour ? applyBeat(state, state.tour, action.index) : state;
    case 'opening':
      return { ...state, opening: true };
    case 'openGallery':
      return {
        ...state,
        page: 'gallery',
        opening: false,
        playing: false,
        drawer: null,
        present: false,
        embed: false,
        blank: false,
        tour: null,
        highlight: null,
      };
    case 'openScenario':
      return {
        ...state,
        page: 'player',
        opening: false,
        scenario: { name: action.name, file: action.file, source: action.source, edited: action.edited },
        draft: action.draft ?? null,
        limits: DEFAULT_LIMITS /* limits raised for another scenario do not carry over */,
        overrides: action.overrides ?? {},
        runId: state.runId + 1,
        load: { status: 'compiling' },
        program: null,
        running: null,
        timeline: null,
        frame: null,
        fresh: false,
        prevCounters: null,
        previous: null,
        cursor: 0,
        pendingCursor: action.cursor ?? 0,
        playing: false,
        views: action.views ? Object.fromEntries(ALL_VIEW_IDS.map((k) => [k, action.views!.includes(k)])) : state.views,
        enlarged: action.enlarged ?? null,
        theme: action.theme ?? state.theme,
        mmSel: action.mmSel ?? null,
        chart: action.chart ?? state.chart,
        present: action.present ?? false,
        embed: action.embed ?? false,
        fontScale: action.fontScale ?? state.fontScale,
        blank: false,
        drawer: action.draft !== undefined ? 'editor' : null,
        ...comparison(state, action.compare ?? null, action.more ?? []),
        sweep: sweepRun(state, action.sweep ?? null),
        /* a scenario opened on its own ends a tour (a beat sets the tour again after this) */
        tour: null,
        highlight: null,
      };
    case 'setDraft':
      return { ...state, draft: action.text };
    case 'applyDraft': {
      if (!state.scenario || state.draft === null) return state;
      const edited = state.draft !== state.scenario.source || state.scenario.edited;
      return {
        ...rerun({ ...state, scenario: { ...state.scenario, source: state.draft, edited } }, state.overrides),
        draft: null,
        previous: null,
      };
    }
    case 'setTunable': {
      const overrides = { ...state.overrides };
      if (action.value === null) delete overrides[action.key];
      else overrides[action.key] = action.value;
      return rerun(state, overrides);
    }
    case 'resetTunables':
      return Object.keys(state.overrides).length ? rerun(state, {}) : state;
    case 'rerun':
      return state.scenario ? { ...rerun(state, state.overrides), previous: state.previous } : state;
    case 'compileFailed':
      if (action.runId !== state.runId) return state;
      return { ...state, load: { status: 'error', issues: action.issues }, playing: false };
    case 'runFailed':
      if (action.runId !== state.runId) return state;
      return {
        ...state,
        load: { status: 'error', issues: action.issues, limits: action.limits ?? null, tunables: action.tunables },
        playing: false,
      };
    case 'runAnyway': {
      if (!state.scenario) return state;
      const limits = { ...state.limits };
      for (const l of action.limits)
        if (l.raisable) limits[l.key] = Math.max(limits[l.key], Math.ceil(l.needed * 1.05));
      return { ...rerun({ ...state, limits }, state.overrides), previous: state.previous };
    }
    case 'workerRestarted': {
      /* a recorded run A lived in the old worker: record it again; B and a sweep end as cancelled */
      const base =
        state.load.status === 'ready' || state.load.status === 'running' || state.load.status === 'compiling'
          ? { ...rerun(state, state.overrides), previous: state.previous }
          : state;
      return {
        ...base,
        /* B, C and D end as cancelled */
        ...(base === state
          ? (() => {
              const stop = (r: CompareState): CompareState =>
                r.load.status === 'error' ? r : { ...r, load: { status: 'cancelled' } };
              return { compare: state.compare && stop(state.compare), more: state.more.map(stop) };
            })()
          : {}),
        sweep:
          state.sweep && state.sweep.status === 'running' && base === state
            ? { ...state.sweep, status: 'cancelled' }
            : base.sweep,
      };
    }
    case 'compiled':
      if (action.runId !== state.runId) return state;
      return {
        ...state,
        running: action.scenario,
        own: action.own,
        load: { status: 'running', done: 0, total: 1, big: false },
      };
    case 'runProgress':
      if (action.runId !== state.runId) return state;
      return { ...state, load: { status: 'running', done: action.done, total: action.total, big: action.big } };
    case 'runLoaded': {
      if (action.runId !== state.runId) return state;
      const cursor = resolveCursor(action.timeline, state.pendingCursor ?? 0);
      return {
        ...state,
        load: { status: 'ready' },
        program: action.program,
        timeline: action.timeline,
        cursor,
        pendingCursor: null,
      };
    }
    case 'runPreview':
      if (action.runId !== state.runId || state.load.status === 'ready') return state;
      /* with a cursor: a run recorded again, its frame at the cursor kept; without, its first frame, only
         where nothing is on screen (a re-recorded run keeps the frame the user was looking at). Either is
         drawn still (not fresh) until the run is in */
      if (action.cursor === undefined && state.frame) return state;
      return {
        ...state,
        program: action.program,
        timeline: action.timeline,
        frame: action.frame,
        fresh: false,
        cursor: action.cursor ?? 0,
      };
    case 'runCancelled':
      if (action.runId !== state.runId) return state;
      return { ...state, load: { status: 'cancelled' }, playing: false };
    case 'cancelRun':
      return state.load.status === 'running' || state.load.status === 'compiling'
        ? { ...state, load: { status: 'cancelled' }, runId: state.runId + 1, playing: false }
        : state;
    case 'seek': {
      /* while a run records, the views show its first frame or the last run's: nothing to move */
      if (state.load.status !== 'ready') return state;
      const n = state.timeline?.nEvents ?? 0;
      const cursor = clamp(Math.round(action.cursor), 0, n);
      return { ...state, cursor, playing: state.playing && cursor < n };
    }
    case 'step':
      return reducer({ ...state, playing: false }, { type: 'seek', cursor: state.cursor + action.delta });
    case 'jump': {
      const t = state.timeline;
      if (!t || t.big) return state;
      let to = findInIndex(jumpList(t, action.kind), state.cursor, action.dir);
      if (to === null) to = action.dir > 0 ? t.nEvents : 0;
      return { ...state, cursor: to, playing: false };
    }
    case 'frame':
      return {
        ...state,
        /* said once per cursor that needs it (the toast stays until dismissed or replaced) */
        ...(action.frame.inexact && !state.frame?.inexact
          ? {
              toast: {
                text: 'Not enough memory to capture the state inside this operation: the views show it as it was before the operation.',
                id: (state.toast?.id ?? 0) + 1,
              },
            }
          : {}),
        prevCounters:
          state.frame && state.frame.cursor !== action.frame.cursor ? state.frame.counters : state.prevCounters,
        frame: action.frame,
        fresh: true,
      };
    case 'play': {
      const t = state.timeline;
      if (!t || t.big || state.load.status !== 'ready') return state;
      /* a play asked for plays on at the chosen speed: a reveal's moment and rate left over are dropped */
      return {
        ...state,
        playing: true,
        playTo: null,
        playRate: null,
        cursor: state.cursor >= t.nEvents ? 0 : state.cursor,
      };
    }
    case 'pause':
      return { ...state, playing: false, playTo: null, playRate: null };
    case 'togglePlay':
      return reducer(state, { type: state.playing ? 'pause' : 'play' });
    case 'setSpeed':
      return { ...state, speed: action.speed };
    case 'toggleView': {
      const chosen = action.shown
        ? Object.fromEntries(ALL_VIEW_IDS.map((k) => [k, action.shown!.includes(k)]))
        : state.views;
      const views = { ...chosen, [action.id]: !isShown(chosen, action.id, groupOf(state.scenario?.name)) };
      return { ...state, views, enlarged: state.enlarged === action.id ? null : state.enlarged };
    }
    case 'enlarge':
      return { ...state, enlarged: action.id, views: action.id ? { ...state.views, [action.id]: true } : state.views };
    case 'openDrawer':
      /* an open question's answer is the model's with the beat's tunables */
      if (action.drawer === 'tunables' && questionOpen(state))
        return act(state, { type: 'toast', text: 'The tunables wait until this question is answered (or revealed).' });
      return {
        ...state,
        drawer: action.drawer,
        draft: action.drawer === 'editor' && state.draft === null ? (state.scenario?.source ?? null) : state.draft,
      };
    case 'setTheme':
      return { ...state, theme: action.theme };
    case 'toggleHelp':
      return { ...state, help: !state.help };
    case 'setCompare': {
      return { ...state, ...comparison(state, action.set, action.more ?? state.more.map((r) => r.set)) };
    }
    case 'compareCompiled':
      return withRun(state, action.slot, action.runId, (r) => ({
        ...r,
        load: { status: 'running', done: 0, total: 1, big: false },
      }));
    case 'compareProgress':
      return withRun(state, action.slot, action.runId, (r) => ({
        ...r,
        load: { status: 'running', done: action.done, total: action.total, big: action.big },
      }));
    case 'compareLoaded':
      return withRun(state, action.slot, action.runId, (r) => ({
        ...r,
        load: { status: 'ready' },
        program: action.program,
        timeline: action.timeline,
      }));
    case 'compareFailed':
      return withRun(state, action.slot, action.runId, (r) => ({
        ...r,
        load: { status: 'error', issues: action.issues },
      }));
    case 'compareFrame':
      return withRun(state, action.slot, action.runId, (r) => ({ ...r, frame: action.frame }));
    case 'openSweep':
      return { ...state, sweep: sweepRun(state, action), playing: false };
    case 'sweepPlanned':
      if (state.sweep?.runId !== action.runId) return state;
      return { ...state, sweep: { ...state.sweep, points: action.points } };
    case 'sweepFailed':
      if (state.sweep?.runId !== action.runId) return state;
      return {
        ...state,
        sweep: { ...state.sweep, status: 'error', error: action.error, limits: action.limits ?? null },
      };
    case 'sweepPoint': {
      const sw = state.sweep;
      if (sw?.runId !== action.runId || !sw.points[action.index]) return state;
      if (action.versus) {
        if (!sw.versus) return state;
        const counters = sw.versus.counters.slice();
        counters[action.index] = action.counters;
        return { ...state, sweep: { ...sw, versus: { ...sw.versus, counters } } };
      }
      const points = sw.points.slice();
      points[action.index] = { ...points[action.index], counters: action.counters, error: action.error };
      return { ...state, sweep: { ...sw, points, done: Math.max(sw.done, action.index + 1) } };
    }
    case 'sweepProgress':
      if (state.sweep?.runId !== action.runId) return state;
      return { ...state, sweep: { ...state.sweep, done: action.done } };
    case 'letterStart':
      return { ...state, letter: { runId: action.runId, status: 'running', progress: null, cells: null, error: null } };
    case 'letterProgress':
      if (state.letter?.runId !== action.runId) return state;
      return {
        ...state,
        letter: {
          ...state.letter,
          progress: { column: action.column, columns: action.columns, label: action.label, fraction: action.fraction },
        },
      };
    case 'letterDone':
      if (state.letter?.runId !== action.runId) return state;
      return {
        ...state,
        letter: {
          ...state.letter,
          status: action.error ? 'error' : 'done',
          cells: action.cells,
          error: action.error,
          progress: null,
        },
      };
    case 'sweepDone':
      if (state.sweep?.runId !== action.runId || state.sweep.status !== 'running') return state;
      return { ...state, sweep: { ...state.sweep, status: action.cancelled ? 'cancelled' : 'done' } };
    case 'setSweepY':
      return state.sweep ? { ...state, sweep: { ...state.sweep, y: action.y } } : state;
    case 'cancelSweep':
      return state.sweep?.status === 'running' ? { ...state, sweep: { ...state.sweep, status: 'cancelled' } } : state;
    case 'closeSweep':
      return { ...state, sweep: null };
    case 'selectMm':
      return { ...state, mmSel: action.mm };
    case 'setChart':
      return { ...state, chart: action.chart };
    case 'setPresent':
      return { ...state, present: action.on, blank: false, drawer: action.on ? null : state.drawer, help: false };
    case 'stepFontScale': {
      const i = Math.max(0, Math.min(FONT_SCALES.length - 1, FONT_SCALES.indexOf(state.fontScale) + action.dir));
      return { ...state, fontScale: FONT_SCALES[i] };
    }
    case 'toggleBlank':
      return { ...state, blank: !state.blank, playing: false };
    case 'toast':
      return { ...state, toast: { text: action.text, id: (state.toast?.id ?? 0) + 1 } };
    case 'clearToast':
      return { ...state, toast: null };
  }
}

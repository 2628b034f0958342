/**
 * The controller: the store's side effects. It has the engine worker
 * compile scenarios (with the same loader as the CLI: never on the page,
 * whose text may come from an untrusted, large link) and record them,
 * requests frames when the cursor moves, plays, keeps the URL in step with
 * the state, and follows the browser's back and forward buttons.
 */
import { tourChannel } from './tourChannel.js';
import type { LoadedTour } from './tours.js';
import { COUNTERS } from '../../wasm-core/ts/abi.js';
import type { Program } from '../../wasm-core/ts/compile.js';
import { EngineClient } from './engine/client.js';
import type { ExportKind, QuizInput, ScenarioInput } from './engine/protocol.js';
import { findScenario } from './scenarios.js';
import type { Store } from './store/store.js';
import {
  DEFAULT_CHART,
  FONT_SCALES,
  otherRuns,
  type AppState,
  type CompareState,
  type CursorTarget,
  type QuestionProgress,
  type RunSlot,
} from './store/state.js';
import type { StepCursor } from './frames/cursor.js';
import { decodeUrl, encodeUrl, UrlError, type UrlState } from './store/url.js';
import { inflateAhead, worthInflatingAhead } from './store/compress.js';
import { groupOf, shownViews } from './views/ids.js';

/** the address of what state s shows (path and query) */
export function urlFor(s: AppState): string {
  if (s.page === 'gallery' || !s.scenario) return location.pathname;
  if (s.tour)
    return `${location.pathname}${encodeUrl({
      tour: s.tour.name,
      tourSrc: s.tour.edited ? s.tour.source : undefined,
      beat: s.tour.index + 1,
      beats: s.tour.from > 0 || s.tour.to < s.tour.beats.length - 1 ? [s.tour.from + 1, s.tour.to + 1] : undefined,
      seed: s.quiz?.seed,
      teacher: s.quiz?.teacher || undefined,
      set: {},
      theme: s.theme,
      present: s.present || undefined,
      embed: s.embed || undefined,
      scale: s.present && s.fontScale !== 1 ? s.fontScale : undefined,
    })}`;
  return `${location.pathname}${encodeUrl({
    scenario: s.scenario.name ?? undefined,
    src: s.scenario.edited ? s.scenario.source : undefined,
    /* the editor's text not yet run, valid or not: never lost to a reload or Back */
    draft: s.draft !== null && s.draft !== s.scenario.source ? s.draft : undefined,
    set: s.overrides,
    cursor:
      s.load.status === 'ready'
        ? s.timeline && s.cursor === s.timeline.nEvents && s.cursor > 0
          ? 'end'
          : s.cursor
        : (s.pendingCursor ?? undefined),
    views: shownViews(s.views, groupOf(s.scenario.name)).map((v) => v.id),
    enlarged: s.enlarged ?? undefined,
    compare: s.compare?.set,
    more: s.more.length ? s.more.map((r) => r.set) : undefined,
    sweep: s.sweep
      ? { key: s.sweep.key, values: s.sweep.asked, y: s.sweep.y, versus: s.sweep.versus?.set ?? null }
      : undefined,
    theme: s.theme,
    mm: s.mmSel ?? undefined,
    chart:
      s.chart.join(',') !== DEFAULT_CHART.join(',') ? s.chart.filter((c) => COUNTERS.includes(c as never)) : undefined,
    present: s.present || undefined,
    embed: s.embed || undefined,
    scale: s.present && s.fontScale !== 1 ? s.fontScale : undefined,
  })}`;
}

/* the worker keys runs by id: run A, run B and sweeps each have their own numbering */
export const workerId = {
  a: (runId: number) => runId * 4,
  /** a run beside A: B, C or D, each with its own run ids */
  other: (slot: RunSlot, runId: number) => runId * 4 + 1 + ['b', 'c', 'd'].indexOf(slot),
  sweep: (runId: number) => 2 ** 30 + runId,
  letter: (runId: number) => 2 ** 31 + runId,
  versus: (runId: number) => 3 * 2 ** 30 + runId,
};

/** which runs beside A are recorded ("b3 c1"): a frame is asked again when that changes */
const readyRuns = (s: AppState) =>
  otherRuns(s)
    .filter((r) => r.load.status === 'ready')
    .map((r) => `${r.slot}${r.runId}`)
    .join(' ');

/** how tours are read (./tour-load.ts): loaded when a link first names a tour */
type TourLoad = typeof import('./tour-load.js');

/** a tour's text from a link (edited on the page), loaded as a shipped one is, or why not */
function editedTour(tours: TourLoad, source: string, name: string, seed?: number): LoadedTour | { error: string } {
  try {
    return { ...tours.loadTour(source, 'edited.tour.yaml', name, seed), edited: true };
  } catch (x) {
    return { error: `The link's edited tour cannot be shown: ${(x as Error).message}` };
  }
}

/** a seed for a student who came without one: small, so that it is easy to read out and type */
const drawSeed = () => 1 + Math.floor(Math.random() * 9999);

/* an exercise's progress, kept in this browser per exercise and seed */
const progressKey = (tour: string, seed: number) => `mmplay.quiz.${tour}.${seed}`;

export function loadProgress(tour: string, seed: number): Record<string, QuestionProgress> | undefined {
  try {
    const v = JSON.parse(localStorage.getItem(progressKey(tour, seed)) ?? 'null');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, QuestionProgress>) : undefined;
  } catch {
    return undefined; /* private mode, or a damaged entry: start afresh */
  }
}

function saveProgress(tour: string, seed: number, p: Record<string, QuestionProgress>): void {
  try {
    localStorage.setItem(progressKey(tour, seed), JSON.stringify(p));
  } catch {
    /* private mode: progress lasts as long as the page */
  }
}

let current: Controller | null = null;

/** the editor's check: the worker compiles the text; null if it was replaced meanwhile */
export function checkScenario(source: string, file: string) {
  return current ? current.check(source, file) : Promise.resolve(null);
}

/** a recorded run as a file (Export): the worker has it */
export function exportRun(id: number, what: ExportKind) {
  return current ? current.exportRun(id, what) : Promise.resolve(null);
}

/**
 * The cursor a run recorded again is drawn at while it records: an event, or a step cursor the worker
 * places on the new run's steps. The end, and a tour's moment, wait for the whole run.
 */
function previewTarget(t: CursorTarget | null): number | StepCursor | undefined {
  if (t === null || t === 'end') return undefined;
  if (typeof t === 'number') return t;
  return 'step' in t ? t : undefined;
}

/** whether the system asks for reduced motion (prefers-reduced-motion: reduce) */
const reducedMotion = () => typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export class Controller {
  private client: EngineClient;
  private frameInFlight = false;
  private playTimer = 0;
  private lastTick = 0;
  private carry = 0;
  private urlTimer = 0;
  private toastTimer = 0;

  constructor(private store: Store) {
    this.client = new EngineClient();
    this.client.onFatal = (message) =>
      store.dispatch({
        type: 'runFailed',
        runId: store.get().runId,
        issues: [{ line: null, col: null, path: '', message }],
      });
    this.client.onRestart = () => store.dispatch({ type: 'workerRestarted' });
    current = this;
    /*
     * the side effects of every change, once per burst of changes: against the state last reacted to, not
     * the one just before (three dispatches in a row were three pairs, and the first two were skipped as
     * stale: a tour's new text never reached the link)
     */
    let reacted = store.get();
    store.subscribe(() =>
      queueMicrotask(() => {
        const s = store.get();
        if (s === reacted) return;
        const prev = reacted;
        reacted = s;
        this.react(s, prev);
      }),
    );
    /* the speaker's notes window: tell it the beat on screen, take its clicks */
    const notes = tourChannel((m) => {
      const t = store.get().tour;
      if (!t || m.tour !== t.name) return;
      if (m.kind === 'hello') notes.post({ kind: 'beat', tour: t.name, index: t.index });
      else if (m.kind === 'goto') store.dispatch({ type: 'gotoBeat', index: m.index });
    });
    store.subscribe((s, prev) => {
      if (s.tour && (s.tour.index !== prev.tour?.index || s.tour.name !== prev.tour?.name))
        notes.post({ kind: 'beat', tour: s.tour.name, index: s.tour.index });
    });
    addEventListener('popstate', () => this.route());
  }

  /** open what the URL names (or the gallery); a big edited text in the link is inflated ahead, in pieces */
  route(): void {
    const packed = new URLSearchParams(location.hash.replace(/^#/, '')).get('src');
    if (packed !== null && worthInflatingAhead(packed)) {
      const hash = location.hash;
      void inflateAhead(packed).finally(() => {
        if (location.hash === hash) this.routeNow();
      });
      return;
    }
    this.routeNow();
  }

  private routeNow(later?: { tours: TourLoad | null; texts: Readonly<Record<string, string>> }): void {
    let u: UrlState;
    try {
      u = decodeUrl(location.search, location.hash);
    } catch (e) {
      this.store.dispatch({ type: 'openGallery' });
      this.store.dispatch({ type: 'toast', text: e instanceof UrlError ? e.message : 'This link could not be read.' });
      return;
    }
    /* a link that runs something: the worker starts now, beside the texts' and the tour reader's fetch */
    if (u.tour || u.scenario || u.src !== undefined) this.client.warm();
    if ((u.tour || u.scenario) && !later) {
      /* the shipped texts, and for a tour its reader (the YAML parser, the tour's validator): only when a link names one */
      const here = location.href;
      this.store.dispatch({ type: 'opening' });
      Promise.all([u.tour ? import('./tour-load.js') : null, import('./texts.js')]).then(
        ([tours, { TEXTS }]) => {
          if (location.href === here) this.routeNow({ tours, texts: TEXTS });
        },
        (e) => {
          /* the texts did not load (the server went away): the gallery, and why */
          this.store.dispatch({ type: 'openGallery' });
          this.store.dispatch({ type: 'toast', text: `The scenarios could not be loaded: ${(e as Error).message}` });
        },
      );
      return;
    }
    const tours = later?.tours;
    const extra = {
      theme: u.theme,
      mmSel: u.mm ?? null,
      chart: u.chart?.filter((c) => COUNTERS.includes(c as never)),
      present: u.present,
      embed: u.embed,
      fontScale: u.scale !== undefined && FONT_SCALES.includes(u.scale) ? u.scale : undefined,
    };
    if (u.ignored?.length)
      this.store.dispatch({
        type: 'toast',
        text: `This link asked for what there is not, and it was left out: ${u.ignored.join('; ')}.`,
      });
    if (u.tour) {
      /* an exercise without a seed in its link draws one, and the link keeps it (a reload is the same variant) */
      const seed = u.seed ?? drawSeed();
      const t = u.tourSrc !== undefined ? editedTour(tours!, u.tourSrc, u.tour, seed) : tours!.findTour(u.tour, seed);
      if ('error' in t) {
        this.store.dispatch({ type: 'openGallery' });
        this.store.dispatch({ type: 'toast', text: t.error });
        return;
      }
      this.store.dispatch({
        type: 'openTour',
        tour: t,
        index: (u.beat ?? 1) - 1,
        range: u.beats ? [u.beats[0] - 1, u.beats[1] - 1] : undefined,
        present: u.present,
        theme: u.theme,
        fontScale: extra.fontScale,
        embed: u.embed,
        seed,
        teacher: u.teacher,
        progress: loadProgress(t.name, seed),
      });
      return;
    }
    if (u.src !== undefined) {
      this.store.dispatch({
        type: 'openScenario',
        name: u.scenario ?? null,
        file: 'edited.yaml',
        source: u.src,
        edited: true,
        draft: u.draft,
        overrides: u.set,
        cursor: u.cursor,
        views: u.views,
        enlarged: u.enlarged,
        compare: u.compare,
        more: u.more,
        sweep: u.sweep,
        ...extra,
      });
      return;
    }
    if (u.scenario) {
      const entry = findScenario(u.scenario);
      if (entry) {
        this.store.dispatch({
          type: 'openScenario',
          name: entry.name,
          file: entry.file,
          source: later!.texts[entry.file],
          edited: false,
          draft: u.draft,
          overrides: u.set,
          cursor: u.cursor,
          views: u.views,
          enlarged: u.enlarged,
          compare: u.compare,
          more: u.more,
          sweep: u.sweep,
          ...extra,
        });
        return;
      }
      this.store.dispatch({ type: 'openGallery' });
      this.store.dispatch({ type: 'toast', text: `There is no scenario '${u.scenario}'. Pick one from the gallery.` });
      return;
    }
    /* the gallery: a link's theme holds here too (set last: the controller reacts to the last change) */
    this.store.dispatch({ type: 'openGallery' });
    /* the worker's script and wasm, once the gallery is drawn: a card's click then finds it ready */
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    idle(() => this.client.warm(), { timeout: 2000 });
    if (u.theme) this.store.dispatch({ type: 'setTheme', theme: u.theme });
  }

  private react(s: AppState, prev: AppState): void {
    if (s !== this.store.get()) return; /* a later change will call us again */
    if (s.runId !== prev.runId && s.scenario && s.load.status === 'compiling') {
      if (prev.runId) this.client.drop(workerId.a(prev.runId));
      this.run(s);
    }
    if (s.load.status === 'cancelled' && prev.load.status !== 'cancelled') this.client.cancel(workerId.a(prev.runId));
    /* runs B, C and D: each recorded when it is new, dropped from the worker when it goes */
    const runs = otherRuns(s),
      was = otherRuns(prev);
    for (const r of was)
      if (!runs.some((x) => x.slot === r.slot && x.runId === r.runId))
        this.client.drop(workerId.other(r.slot, r.runId));
    for (const r of runs)
      if (!was.some((x) => x.slot === r.slot && x.runId === r.runId) && s.scenario && r.load.status === 'compiling')
        this.runCompare(s, r);
    if (s.sweep?.runId !== prev.sweep?.runId) {
      if (prev.sweep?.status === 'running') {
        this.client.cancel(workerId.sweep(prev.sweep.runId));
        this.client.cancel(workerId.versus(prev.sweep.runId));
      }
      if (s.sweep && s.scenario) this.runSweep(s);
    } else if (s.sweep?.status === 'cancelled' && prev.sweep?.status === 'running') {
      this.client.cancel(workerId.sweep(s.sweep.runId));
      this.client.cancel(workerId.versus(s.sweep.runId));
    }
    /* the Seed vs model drawer: its letter's runs, once per run (a tunable changed: a new run, new cells) */
    if (s.drawer === 'letter' && s.program?.scenario.letter && s.runId && s.letter?.runId !== s.runId) {
      if (s.letter?.status === 'running') this.client.cancel(workerId.letter(s.letter.runId));
      this.runLetter(s);
    }
    if (
      s.load.status === 'ready' &&
      (s.cursor !== prev.cursor ||
        prev.load.status !== 'ready' ||
        s.timeline !== prev.timeline ||
        s.highlight !== prev.highlight ||
        readyRuns(s) !== readyRuns(prev))
    )
      this.requestFrame();
    if (s.playing && !prev.playing) this.startPlaying();
    /* an exercise: its answers from the worker, once per text and seed; its progress kept in the browser */
    if (
      s.quiz &&
      s.tour &&
      s.quiz.status === 'computing' &&
      (s.tour.source !== prev.tour?.source ||
        !prev.quiz ||
        prev.quiz.status !== 'computing' ||
        prev.quiz.seed !== s.quiz.seed)
    )
      this.answerQuiz(s);
    if (s.quiz && s.tour && prev.quiz && s.quiz.progress !== prev.quiz.progress)
      saveProgress(s.tour.name, s.quiz.seed, s.quiz.progress);
    if (s.theme !== prev.theme) {
      document.documentElement.dataset.theme = s.theme;
      try {
        localStorage.setItem('mmplay.theme', s.theme);
      } catch {
        /* private mode */
      }
    }
    if (s.toast && s.toast !== prev.toast) {
      clearTimeout(this.toastTimer);
      this.toastTimer = window.setTimeout(() => this.store.dispatch({ type: 'clearToast' }), 2800);
    }
    if (
      s.page !== prev.page ||
      s.tour?.source !== prev.tour?.source ||
      s.scenario !== prev.scenario ||
      s.overrides !== prev.overrides ||
      s.cursor !== prev.cursor ||
      s.compare?.set !== prev.compare?.set ||
      JSON.stringify(s.more.map((r) => r.set)) !== JSON.stringify(prev.more.map((r) => r.set)) ||
      s.sweep?.key !== prev.sweep?.key ||
      s.sweep?.asked !== prev.sweep?.asked ||
      s.sweep?.y !== prev.sweep?.y ||
      s.views !== prev.views ||
      s.enlarged !== prev.enlarged ||
      s.load.status !== prev.load.status ||
      s.theme !== prev.theme ||
      s.mmSel !== prev.mmSel ||
      s.chart !== prev.chart ||
      s.present !== prev.present ||
      s.embed !== prev.embed ||
      s.fontScale !== prev.fontScale ||
      s.draft !== prev.draft
    )
      this.syncUrl(
        s.page !== prev.page ||
          s.scenario?.name !== prev.scenario?.name ||
          s.scenario?.source !== prev.scenario?.source,
      );
  }

  check(source: string, file: string) {
    return this.client.check(source, file);
  }

  exportRun(id: number, what: ExportKind) {
    return this.client.exportRun(id, what);
  }

  /** what the worker compiles for run A (and, with compare, run B) */
  private input(s: AppState, compare?: Record<string, string>): ScenarioInput {
    const sc = s.scenario!;
    /* a tour's counter moments in this scenario's beats, placed by the worker once the run is recorded */
    const locate = (s.tour?.beats ?? [])
      .filter((b) => b.scenario === sc.name)
      .flatMap((b) => [b.at, b.ask?.from ?? null])
      .flatMap((m) => (m?.kind === 'counter' ? [{ counter: m.counter, reaches: m.reaches }] : []));
    return {
      source: sc.source,
      file: sc.file,
      overrides: s.overrides,
      compare,
      limits: s.limits,
      locate: locate.length ? locate : undefined,
    };
  }

  private run(s: AppState): void {
    const runId = s.runId;
    const at = s.frame ? previewTarget(s.pendingCursor) : undefined;
    let program: Program | null = null;
    this.client
      .prepare(
        workerId.a(runId),
        this.input(s),
        (p, own) => {
          program = p;
          this.store.dispatch({ type: 'compiled', runId, scenario: p.scenario, own });
        },
        (done, total, big) => this.store.dispatch({ type: 'runProgress', runId, done, total, big }),
        undefined,
        /* the first frame while it records, where the page has none to keep; where it has one (a run
           recorded again), the frame at the cursor it keeps, once the recording has passed it */
        !s.frame || at !== undefined
          ? (timeline, frame, cursor) => {
              if (program) this.store.dispatch({ type: 'runPreview', runId, program, timeline, frame, cursor });
            }
          : undefined,
        at,
      )
      .then((o) => {
        if (o.kind === 'loaded' && program)
          this.store.dispatch({ type: 'runLoaded', runId, program, timeline: o.timeline });
        else if (o.kind === 'cancelled') this.store.dispatch({ type: 'runCancelled', runId });
        else if (o.kind === 'error')
          this.store.dispatch({ type: 'runFailed', runId, issues: o.issues, limits: o.limits, tunables: o.tunables });
      });
  }

  /** run B (or C, D): A's scenario and tunables, plus its own */
  private runCompare(s: AppState, r: CompareState): void {
    const { slot, runId } = r;
    const name = slot.toUpperCase();
    let program: Program | null = null;
    this.client
      .prepare(
        workerId.other(slot, runId),
        this.input(s, r.set),
        (p) => {
          program = p;
          this.store.dispatch({ type: 'compareCompiled', slot, runId });
        },
        (done, total, big) => this.store.dispatch({ type: 'compareProgress', slot, runId, done, total, big }),
      )
      .then((o) => {
        if (o.kind === 'loaded' && program)
          this.store.dispatch({ type: 'compareLoaded', slot, runId, program, timeline: o.timeline });
        else if (o.kind === 'error')
          this.store.dispatch({
            type: 'compareFailed',
            slot,
            runId,
            issues: o.issues.map((i) => ({ ...i, message: `run ${name}: ${i.message}` })),
          });
      });
  }

  private runLetter(s: AppState): void {
    const runId = s.runId;
    this.store.dispatch({ type: 'letterStart', runId });
    this.client
      .letter(workerId.letter(runId), this.input(s), (p) =>
        this.store.dispatch({
          type: 'letterProgress',
          runId,
          column: p.column,
          columns: p.columns,
          label: p.label,
          fraction: p.fraction,
        }),
      )
      .then((m) => this.store.dispatch({ type: 'letterDone', runId, cells: m.cells, error: m.error }));
  }

  /**
   * a sweep: the worker plans the runs (the same plan as the CLI's --sweep) and runs them; with a versus
   * (6.9 beside 6.10), the same sweep again with those tunables set too, after the first
   */
  private runSweep(s: AppState): void {
    const sw = s.sweep!,
      runId = sw.runId;
    if (!COUNTERS.includes(sw.y as never)) {
      this.store.dispatch({ type: 'sweepFailed', runId, error: `y=${sw.y}: there is no counter of that name` });
      return;
    }
    const one = (id: number, input: ScenarioInput, versus: boolean) =>
      this.client.sweep(id, input, sw.key, sw.asked, {
        planned: (points) => {
          if (!versus)
            this.store.dispatch({
              type: 'sweepPlanned',
              runId,
              points: points.map((p) => ({ ...p, counters: null, error: null })),
            });
        },
        point: (p) =>
          this.store.dispatch({
            type: 'sweepPoint',
            runId,
            index: p.index,
            counters: p.status === 'ok' ? p.counters : null,
            error: p.error,
            versus,
          }),
        progress: (done) => {
          if (!versus) this.store.dispatch({ type: 'sweepProgress', runId, done });
        },
      });
    void (async () => {
      let o = await one(workerId.sweep(runId), this.input(s), false);
      const now = this.store.get().sweep;
      if (o.error === undefined && !o.cancelled && sw.versus && now?.runId === runId && now.status === 'running') {
        const input = this.input(s);
        o = await one(workerId.versus(runId), { ...input, overrides: { ...input.overrides, ...sw.versus.set } }, true);
      }
      if (o.error !== undefined) this.store.dispatch({ type: 'sweepFailed', runId, error: o.error, limits: o.limits });
      else this.store.dispatch({ type: 'sweepDone', runId, cancelled: o.cancelled });
    })();
  }

  /** one frame request at a time; when it lands, ask again if the cursor moved meanwhile */
  private requestFrame(): void {
    if (this.frameInFlight) return;
    const s = this.store.get();
    if (s.load.status !== 'ready') return;
    this.frameInFlight = true;
    const { runId, cursor } = s;
    /* B, C and D at the same cursor, each as far as it goes (the worker clamps to A's operation) */
    const others = otherRuns(s).filter((r) => r.load.status === 'ready');
    const asked = readyRuns(s);
    /* a beat's highlighted folio: the folio view shows that one */
    const h = s.highlight;
    const focus = h?.kind === 'folio' ? { vma: h.vma, page: h.page } : null;
    const fa = this.client.frame(workerId.a(runId), cursor, undefined, focus);
    const fo = others.map((r) => this.client.frame(workerId.other(r.slot, r.runId), cursor, workerId.a(runId), focus));
    Promise.all([fa, ...fo])
      .then(([f, ...g]) => {
        const now = this.store.get();
        if (f && now.runId === runId) this.store.dispatch({ type: 'frame', frame: f });
        g.forEach((frame, k) => {
          if (frame) this.store.dispatch({ type: 'compareFrame', slot: others[k].slot, runId: others[k].runId, frame });
        });
      })
      .finally(() => {
        this.frameInFlight = false;
        /* ask again if the cursor moved, a run beside A came or went, or a new run became ready meanwhile
           (its own request found this one in flight and returned) */
        const now = this.store.get();
        if (now.runId !== runId || now.cursor !== cursor || now.highlight !== h || readyRuns(now) !== asked)
          this.requestFrame();
      });
  }

  private answerQuiz(s: AppState): void {
    const tour = s.tour!;
    const seed = s.quiz!.seed;
    const scenarios: QuizInput['scenarios'] = {};
    for (const b of tour.beats) scenarios[b.scenario] = { file: b.file, source: b.source };
    void this.client.quiz({ source: tour.source, file: tour.file, seed, scenarios }).then((m) => {
      const now = this.store.get();
      if (now.tour?.source === tour.source && now.quiz?.seed === seed)
        this.store.dispatch({ type: 'quizAnswers', seed, answers: m.answers, pictures: m.pictures, error: m.error });
    });
  }

  private startPlaying(): void {
    cancelAnimationFrame(this.playTimer);
    this.lastTick = performance.now();
    this.carry = 0;
    const tick = (now: number) => {
      const s = this.store.get();
      if (!s.playing || !s.timeline) return;
      /* a reveal plays to its question's moment and stops there */
      const end = Math.min(s.playTo ?? s.timeline.nEvents, s.timeline.nEvents);
      /* it plays by itself: where reduced motion is asked for, it shows its moment at once instead (asked
         each tick: a reveal can begin while something already plays) */
      if (s.playTo !== null && reducedMotion()) {
        this.store.dispatch({ type: 'seek', cursor: end });
        this.store.dispatch({ type: 'pause' });
        return;
      }
      this.carry += ((now - this.lastTick) / 1000) * (s.playRate ?? s.speed);
      this.lastTick = now;
      /* never run ahead of what is drawn: wait for the last frame at slow speeds */
      const drawn = s.frame?.cursor === s.cursor;
      if (this.carry >= 1 && (drawn || (s.playRate ?? s.speed) > 60)) {
        const step = Math.floor(this.carry);
        this.carry -= step;
        const to = Math.min(s.cursor + step, end);
        this.store.dispatch({ type: 'seek', cursor: to });
        if (to >= end) this.store.dispatch({ type: 'pause' });
      } else if (this.carry > 4) {
        this.carry = 4;
      }
      this.playTimer = requestAnimationFrame(tick);
    };
    this.playTimer = requestAnimationFrame(tick);
  }

  /**
   * Keep the address in step: a new page or scenario is a history entry;
   * the rest (cursor, views...) replaces the current one, at most four
   * times a second, also while playing (a reload comes back to the event
   * on screen).
   */
  private syncUrl(push: boolean): void {
    const write = () => {
      this.urlTimer = 0;
      const url = urlFor(this.store.get());
      if (url !== `${location.pathname}${location.search}${location.hash}`)
        history[push ? 'pushState' : 'replaceState'](null, '', url);
    };
    if (push) {
      clearTimeout(this.urlTimer);
      write();
    } else if (!this.urlTimer) this.urlTimer = window.setTimeout(write, 250);
  }
}

/**
 * An exercise's answers, computed by running the model: never written in
 * the exercise's file, so that a change to the model changes them.
 *
 * A question stands in a beat (load/tour.ts): the beat's runs (A with its
 * settings, B, C and D with theirs) are recorded, its moments become cursors
 * (the start or end of a step, just after a caption, the start or end of
 * the run), and the answer is read from the counters there:
 *
 *   number            how much a counter grows from `from` to the beat's moment, in run A
 *   choice of runs    the run in which a counter grows most (or least) over that span
 *   choice of counters the counter that grows most (or least) over that span, in run A
 *
 * A question the model cannot answer (its moment not reached, runs that tie,
 * a big run that records no events) is refused with the file, line and key
 * of its `ask:`. The CLI (--quiz, --answers, --check) and the playground's
 * worker both come here.
 */
import { COUNTERS } from './abi.js';
import { EV } from './gen/events.js';
import { EVENT_DOCS, EVENTS } from './gen/interface.js';
import { compile, type Program } from './compile.js';
import type { Core } from './core.js';
import type { Limits } from './limits.js';
import type { Beat, Moment } from './load/tour.js';
import { kernelRunLabels } from './multirun.js';
import { momentAt, momentText } from './moment.js';
import { pageList, questionFrom, type QuizAnswer, type QuizOption } from './grade.js';
import { type EngineOptions, Recorder, type TimelineInfo } from './recorder.js';
import type { Scenario, SettingValue } from './scenario.js';
import { withSettings } from './tunables.js';

export class QuizError extends Error {}

export interface QuizSource {
  /** a beat's scenario, parsed (its name is group/name) */
  scenario(name: string): Scenario;
  limits?: Limits;
  /** how a run is recorded (the playground's worker records with its frame providers, for pictures) */
  recorder?: (core: Core, program: Program, opts: EngineOptions) => Recorder;
  /** each answer with run A's recorder, before the runs are freed (the worksheet's picture is taken here) */
  answered?: (answer: QuizAnswer, rec: Recorder) => void;
}

/** one recorded run, with its counters at any cursor */
class Run {
  readonly rec: Recorder;
  readonly marks: TimelineInfo;
  constructor(core: Core, s: Scenario, src: QuizSource) {
    const opts = { bigRunWork: 3_000_000 };
    const program = compile(s, src.limits);
    this.rec = src.recorder ? src.recorder(core, program, opts) : new Recorder(core, program, opts);
    if (this.rec.isBig) {
      this.rec.destroy();
      throw new QuizError('its run is too big to record its events (more than 3,000,000 operations)');
    }
    this.marks = this.rec.recordAll();
  }
  counters(c: number): number[] {
    return this.rec.countersAtCursor(c);
  }
}

/**
 * Every question of these beats answered by the model, in order. Runs are recorded once per scenario and
 * settings. Throws QuizError with the file:line:col of the question's `ask:` when it has no answer.
 */
export function answerQuestions(core: Core, file: string, beats: Beat[], src: QuizSource): QuizAnswer[] {
  const runs = new Map<string, Run>();
  const out: QuizAnswer[] = [];
  const runOf = (s: Scenario, key: string) => {
    let r = runs.get(key);
    if (!r) {
      r = new Run(core, s, src);
      runs.set(key, r);
    }
    return r;
  };
  try {
    for (const beat of beats) {
      const q = beat.ask;
      if (!q) continue;
      const where = `${file}:${q.where.line}:${q.where.col}: ${q.where.path}`;
      const fail = (why: string): never => {
        throw new QuizError(`${where}: ${why}`);
      };
      if (beat.at.kind === 'jump')
        fail("a question's moment is start, end, a step or a caption (say:), not a jump key");
      const base = src.scenario(beat.scenario);
      const a = withSettings(base, beat.set);
      const settings: [string, Scenario][] = [['a', a]];
      if (beat.compare) settings.push(['b', withSettings(a, beat.compare)]);
      beat.more.forEach((m, i) => {
        settings.push([i ? 'd' : 'c', withSettings(a, m)]);
      });
      const key = (set: Record<string, SettingValue>[]) => `${beat.scenario}\u0000${JSON.stringify(set)}`;
      const recorded: [string, Run][] = [];
      try {
        recorded.push(['a', runOf(a, key([beat.set]))]);
        if (q.kind === 'choice' && q.over === 'runs') {
          if (beat.compare) recorded.push(['b', runOf(settings[1][1], key([beat.set, beat.compare]))]);
          beat.more.forEach((m, i) => {
            recorded.push([i ? 'd' : 'c', runOf(settings[2 + i][1], key([beat.set, m]))]);
          });
        }
      } catch (e) {
        if (e instanceof QuizError) fail(e.message);
        throw e;
      }
      const fromM = questionFrom(q, beat.at);
      if (fromM.kind === 'jump') fail("a question's from: is start, a step or a caption (say:), not a jump key");
      const span = (r: Run) => {
        const place = (m: Moment) =>
          m.kind === 'counter'
            ? r.rec.locateCounter(m.counter, m.reaches)
            : momentAt(r.marks, m as Exclude<Moment, { kind: 'jump' }>);
        const from = place(fromM);
        const at = place(beat.at);
        if (from === null) fail(`the run never reaches ${momentText(fromM)}, where the question starts`);
        if (at === null) fail(`the run never reaches ${momentText(beat.at)}, the beat's moment`);
        if (from! > at!)
          fail(`the question starts (${momentText(fromM)}) after the beat's moment (${momentText(beat.at)})`);
        return { from: from!, at: at! };
      };
      const growth = (r: Run, counter: string, s: { from: number; at: number }) => {
        const i = COUNTERS.indexOf(counter as never);
        return r.counters(s.at)[i] - r.counters(s.from)[i];
      };
      const spanA = span(recorded[0][1]);
      const done = (a: QuizAnswer) => {
        out.push(a);
        src.answered?.(a, recorded[0][1].rec);
      };
      if (q.kind === 'number') {
        done({
          id: q.id,
          kind: 'number',
          value: growth(recorded[0][1], q.counter, spanA),
          options: [],
          ...spanA,
        });
        continue;
      }
      if (q.kind === 'pick') {
        /* the pages of the mapping present at the moment and not where the question starts */
        const r = recorded[0][1];
        const map = r.rec.program.maps.indexOf(q.vma);
        if (map < 0)
          fail(`no mapping '${q.vma}' in ${beat.scenario}; its mappings are ${r.rec.program.maps.join(', ')}`);
        const before = r.rec.presentPages(spanA.from, map);
        const after = r.rec.presentPages(spanA.at, map);
        if (!after) fail(`no live process maps '${q.vma}' at ${momentText(beat.at)}`);
        const had = new Set(before && before.mm === after!.mm ? before.pages : []);
        const fresh = after!.pages.filter((p) => !had.has(p));
        if (!fresh.length)
          fail(`no page of '${q.vma}' becomes present between ${momentText(fromM)} and ${momentText(beat.at)}`);
        if (fresh.length > 512)
          fail(`${fresh.length} pages of '${q.vma}' become present: too many to pick (at most 512)`);
        done({ id: q.id, kind: 'pick', value: pageList(fresh), options: [], ...spanA });
        continue;
      }
      if (q.kind === 'order') {
        /* the events in the order each first happens in the span (the one-line doc of each as its label) */
        const r = recorded[0][1];
        const first = q.events.map((name) => {
          const list = r.rec.ofTypes([EV[name as keyof typeof EV]]);
          let k = 0;
          while (k < list.length && list[k] < spanA.from) k++;
          if (k >= list.length || list[k] >= spanA.at)
            fail(
              `${name} never happens between ${momentText(fromM)} and ${momentText(beat.at)}: it cannot be put in order`,
            );
          return { id: name, at: list[k] };
        });
        const right = [...first].sort((x, y) => x.at - y.at).map((x) => x.id);
        if (right.every((e, i) => e === q.events[i]))
          fail(
            `the events are written in the order the kernel does them (${right.join(', ')}): write them in another, the page offers them as written`,
          );
        done({
          id: q.id,
          kind: 'order',
          value: right.join(','),
          /* offered in the order written (the author's), never the answer's: the loader refuses an order written right */
          options: q.events.map((e) => ({ id: e, label: `${e}: ${EVENT_DOCS[EVENTS.indexOf(e as never)]}` })),
          ...spanA,
        });
        continue;
      }
      /* a choice: the option whose counter grows most (or least); two at the top is no single answer */
      const scored: { id: string; label: string; v: number }[] =
        q.over === 'runs'
          ? recorded.map(([slot, r]) => {
              const s = settings.find(([k]) => k === slot)![1];
              const label =
                slot === 'a' ? (settings[1] ? kernelRunLabels(a, settings[1][1]).a : 'A') : kernelRunLabels(a, s).b;
              return { id: slot, label, v: growth(r, q.counter, span(r)) };
            })
          : q.counters.map((c) => ({ id: c, label: c, v: growth(recorded[0][1], c, spanA) }));
      if (scored.length < 2) fail('a choice of runs needs a run B (compare:) at least');
      const best = [...scored].sort((x, y) => (q.fewest ? x.v - y.v : y.v - x.v));
      if (best[0].v === best[1].v)
        fail(
          `${best[0].id} and ${best[1].id} tie (${best[0].v.toLocaleString('en-US')} each): the question has no single answer`,
        );
      done({
        id: q.id,
        kind: 'choice',
        value: best[0].id,
        options: scored.map(({ id, label }) => ({ id, label })),
        ...spanA,
      });
    }
  } finally {
    for (const r of runs.values()) r.rec.destroy();
  }
  return out;
}

export type { QuizAnswer, QuizOption };
export { gradeAnswer, numberRight, questionFrom } from './grade.js';

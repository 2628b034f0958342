/**
 * An exercise's answers as the page and the CLI hold them, and how an answer
 * given is graded: apart from quiz.ts (which records runs to compute them) so
 * that the playground's main thread grades without the compiler.
 */
import type { Moment, Question } from './load/tour.js';

export interface QuizOption {
  /** a run's slot (a, b, c, d) or a counter's name */
  id: string;
  label: string;
}

export interface QuizAnswer {
  id: string;
  kind: Question['kind'];
  /** the number, or the right option's id */
  value: number | string;
  /** a choice's options, in the order they are offered */
  options: QuizOption[];
  /** run A's cursors: where the question stands (the views show this) and where its answer is (the reveal plays to it) */
  from: number;
  at: number;
}

/** where a question starts when its `from:` is not written: the start of the beat's step, else the run's start */
export function questionFrom(q: Question, at: Moment): Moment {
  if (q.from) return q.from;
  return at.kind === 'step' ? { kind: 'step', step: at.step, end: false } : { kind: 'start' };
}

/** a number answer is right within the question's tolerance: an absolute amount, or a percentage of the answer */
export function numberRight(q: Extract<Question, { kind: 'number' }>, answer: number, given: number): boolean {
  const tol = q.tolerance.kind === 'abs' ? q.tolerance.value : (Math.abs(answer) * q.tolerance.value) / 100;
  return Math.abs(given - answer) <= tol;
}

/** whether an answer as typed (a number with optional commas, or an option's id or label) is right */
export function gradeAnswer(q: Question, a: QuizAnswer, typed: string): boolean {
  if (q.kind === 'number') {
    const t = typed.trim().replace(/[,_\s]/g, '');
    if (!/^-?\d+(\.\d+)?$/.test(t)) return false;
    return numberRight(q, a.value as number, Number(t));
  }
  if (q.kind === 'pick') {
    const given = parsePages(typed);
    return given !== null && pageList(given) === String(a.value);
  }
  if (q.kind === 'order') {
    /* the events' names, comma-separated, in the order given */
    const given = typed.split(',').map((x) => x.trim().toLowerCase());
    return given.join(',') === String(a.value).toLowerCase();
  }
  const t = typed.trim().toLowerCase();
  const o = a.options.find((x) => x.id.toLowerCase() === t || x.label.toLowerCase() === t);
  return o?.id === a.value;
}

/** pages as a student writes them and the CLI prints them: "16-31, 40" (ranges of consecutive pages) */
export function pageList(pages: Iterable<number>): string {
  const p = [...new Set(pages)].sort((x, y) => x - y);
  const out: string[] = [];
  for (let i = 0; i < p.length; ) {
    let j = i;
    while (j + 1 < p.length && p[j + 1] === p[j] + 1) j++;
    out.push(j > i ? `${p[i]}-${p[j]}` : `${p[i]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** "16-31, 40" as pages, or null if it is not such a list */
export function parsePages(text: string): number[] | null {
  const out: number[] = [];
  for (const part of text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,7})(?:\s*-\s*(\d{1,7}))?$/.exec(part);
    if (!m) return null;
    const lo = Number(m[1]),
      hi = Number(m[2] ?? m[1]);
    if (hi < lo || hi - lo > 1 << 16) return null;
    for (let k = lo; k <= hi; k++) out.push(k);
  }
  return out;
}

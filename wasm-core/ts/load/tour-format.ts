/**
 * What of a tour the page and the recorder read without its parser
 * (./tour.ts, which brings the YAML parser and the tour's validator):
 * captions and their figures, and the keys moments are kept under.
 */
import { COUNTERS } from '../abi.js';

/** how many of each event a recorded timeline keeps by name: a tour's event moments count up to this */
export const FIRSTS_KEPT = 256;

/** the key a run's located counter moments are kept under (Timeline.located) */
export const counterKey = (m: { counter: string; reaches: number }) => `${m.counter}>=${m.reaches}`;

/**
 * A caption's figures, so that a number the audience reads is the model's,
 * never typed in: {pgfault} is run A's counter at the beat's moment,
 * {b.pgfault} run B's (c. and d. for C's and D's), {x / y} a ratio (16, 1.5) and {x / y %} a percentage
 * (7.42%), where x and y are such counters.
 */
export type CaptionPart = string | { x: Figure; y: Figure | null; percent: boolean };
export interface Figure {
  run: 'a' | 'b' | 'c' | 'd';
  counter: string;
}

const FIGURE_RE = /\{\s*([bcd]\.)?([a-z_0-9]+)\s*(?:\/\s*([bcd]\.)?([a-z_0-9]+)\s*(%)?\s*)?\}/g;
const runOf = (prefix: string | undefined): Figure['run'] => (prefix ? (prefix[0] as Figure['run']) : 'a');

export function captionParts(text: string): CaptionPart[] {
  const out: CaptionPart[] = [];
  let last = 0;
  for (const m of text.matchAll(FIGURE_RE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({
      x: { run: runOf(m[1]), counter: m[2] },
      y: m[4] ? { run: runOf(m[3]), counter: m[4] } : null,
      percent: m[5] === '%',
    });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** a caption with its figures filled in from A's and B's counters (and C's and D's), in COUNTERS order */
export function captionText(
  parts: CaptionPart[],
  a: ArrayLike<number> | null,
  b: ArrayLike<number> | null,
  more: (ArrayLike<number> | null)[] = [],
): string {
  const runs = { a, b, c: more[0] ?? null, d: more[1] ?? null };
  const value = (f: Figure) => {
    const c = runs[f.run];
    return c ? c[COUNTERS.indexOf(f.counter as never)] : undefined;
  };
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const x = value(p.x);
      if (x === undefined) return '\u2013';
      if (!p.y) return x.toLocaleString('en-US');
      const y = value(p.y);
      if (y === undefined || y === 0) return '\u2013';
      const r = p.percent ? (100 * x) / y : x / y;
      const s = r >= 100 || Number.isInteger(r) ? r.toFixed(0) : r.toFixed(2).replace(/\.?0+$/, '');
      return p.percent ? `${s}%` : s;
    })
    .join('');
}

/**
 * A seed's own table beside the model's: a scenario's `letter:` holds the
 * figures of the kernel patch's cover letter it reproduces, with the
 * letter's own row and column labels, and says how the model computes each
 * one. Each column is a run (the scenario with some settings: a kernel
 * tunable, `without: [fadvise]`); each row a figure, the model's an
 * expression over that run's counters ("pgscan", "100 * vmacache_find_hits
 * / vmacache_find_calls"). How a row agrees:
 *
 *   value    each column's model figure within `within` of the letter's
 *   change   the same direction from the first column to the last (the
 *            letter's rsync without and with fadvise: pgscan falls in both);
 *            with `within`, the two changes within that many points too;
 *            with `under` (the letter's "< 1%"), the model's change from 0
 *            up to that bound
 *   none     the model cannot compute it (seconds, cycles): the row says
 *            what the model counts `instead`, and `why`
 *
 * A row that cannot agree says `why` (a workload the model only imitates,
 * lock contention it does not have); `npm test` fails, naming the cell,
 * when a row without a `why` stops agreeing. The CLI's --json carries the
 * cells as `reference`, the player draws them in its Seed vs model view.
 */
import type { At } from './errors.js';

/** a run setting's value, as a scenario's `compare:` holds it (scenario.ts SettingValue) */
type SettingValue = string | number | boolean | number[] | string[];

/* ------------------------------------------------------------ expressions */

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'ctr'; name: string }
  | { k: 'op'; op: '+' | '-' | '*' | '/'; a: Expr; b: Expr };

/** "100 * vmacache_find_hits / vmacache_find_calls": numbers, counter names, + - * / and parentheses */
export function parseExpr(text: string, isCounter: (name: string) => boolean): Expr {
  const toks = text.match(/\s*([A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[-+*/()])/g);
  if (!toks || toks.join('').replace(/\s/g, '') !== text.replace(/\s/g, ''))
    throw new Error(`'${text}' is not an expression of counters, numbers, + - * / and parentheses`);
  const t = toks.map((x) => x.trim());
  let i = 0;
  const peek = () => t[i];
  const atom = (): Expr => {
    const x = t[i++];
    if (x === undefined) throw new Error(`'${text}' ends too early`);
    if (x === '(') {
      const e = sum();
      if (t[i++] !== ')') throw new Error(`'${text}': a ( without its )`);
      return e;
    }
    if (/^\d/.test(x)) return { k: 'num', v: Number(x) };
    if (/^[A-Za-z_]/.test(x)) {
      if (!isCounter(x)) throw new Error(`'${x}' is not a counter`);
      return { k: 'ctr', name: x };
    }
    throw new Error(`'${text}': unexpected '${x}'`);
  };
  const product = (): Expr => {
    let e = atom();
    while (peek() === '*' || peek() === '/') e = { k: 'op', op: t[i++] as '*' | '/', a: e, b: atom() };
    return e;
  };
  const sum = (): Expr => {
    let e = product();
    while (peek() === '+' || peek() === '-') e = { k: 'op', op: t[i++] as '+' | '-', a: e, b: product() };
    return e;
  };
  const e = sum();
  if (i !== t.length) throw new Error(`'${text}': unexpected '${t[i]}'`);
  return e;
}

/** the expression's value for one run's counters (NaN when it divides by zero) */
export function evalExpr(e: Expr, counters: Readonly<Record<string, number>>): number {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'ctr':
      return counters[e.name] ?? 0;
    default: {
      const a = evalExpr(e.a, counters),
        b = evalExpr(e.b, counters);
      return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : b === 0 ? Number.NaN : a / b;
    }
  }
}

/* ------------------------------------------------------------ the letter */

export type Check = 'value' | 'change' | 'none';

export interface LetterColumn {
  label: string;
  /** the run's settings beyond the scenario's own (typed, as `compare:` holds them) */
  set: Record<string, SettingValue>;
}

export interface LetterRow {
  label: string;
  unit: string;
  /** the letter's figure per column; or, for a change row, the letter's change alone (its `change:`, in %) */
  seed: (number | null)[];
  seedChange: number | null;
  /** the letter's bound on the change, in % ("not affected (< 1%)"): agrees when the model's is from 0 up to it */
  under: number | null;
  /** the model's figure, as written and parsed; null: the model cannot compute it */
  model: string | null;
  expr: Expr | null;
  /** what the model counts instead, for a row it cannot compute */
  instead: string | null;
  check: Check;
  /** value: the relative error allowed (0.1 = 10%); change: the points allowed between the two changes */
  within: number | null;
  why: string | null;
  at: At;
}

export interface Letter {
  source: string;
  note: string | null;
  columns: LetterColumn[];
  rows: LetterRow[];
  at: At;
}

/** one cell of the table, as the CLI's --json prints it and the player draws it */
export interface ReferenceCell {
  row: string;
  column: string;
  unit: string;
  seed: number | null;
  model: number | null;
  /** true or false by the row's check; null where the model cannot compute it, or the cell is not judged alone */
  agrees: boolean | null;
  why: string | null;
  /** what the model counts instead, on a row it cannot compute */
  instead: string | null;
  /** a change from the first column to the last ("NRS → PRS", in %), or one column's figure */
  change: boolean;
}

const pct = (from: number, to: number) => (from === 0 ? (to === 0 ? 0 : Number.NaN) : (100 * (to - from)) / from);
const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x);

/**
 * The letter's cells with the model's figures beside them: `counters[c]` is
 * column c's run's final counters (global counters and model counters by
 * name). Value rows: a cell per column, each judged. Change rows: a cell
 * per column (not judged alone), then one "first → last" cell in % judged
 * by direction (and `within` points). None rows: the letter's figures, the
 * model's null.
 */
export function judgeLetter(letter: Letter, counters: readonly Readonly<Record<string, number>>[]): ReferenceCell[] {
  const out: ReferenceCell[] = [];
  const cols = letter.columns;
  for (const r of letter.rows) {
    const model = cols.map((_, c) => (r.expr ? round(evalExpr(r.expr, counters[c] ?? {})) : null));
    if (r.check === 'value') {
      cols.forEach((col, c) => {
        const s = r.seed[c] ?? null,
          m = model[c];
        const agrees =
          s === null || m === null || !Number.isFinite(m)
            ? null
            : Math.abs(m - s) <= (r.within ?? 0) * Math.abs(s) || (s === 0 && m === 0);
        out.push({
          row: r.label,
          column: col.label,
          unit: r.unit,
          seed: s,
          model: m,
          agrees,
          why: r.why,
          instead: r.instead,
          change: false,
        });
      });
      continue;
    }
    cols.forEach((col, c) => {
      if (r.seed[c] === null && model[c] === null) return;
      out.push({
        row: r.label,
        column: col.label,
        /* a row whose letter figure is a change alone (in %): its columns are the model's own figures */
        unit: r.unit === '%' && r.seed.every((x) => x === null) ? '' : r.unit,
        seed: r.seed[c] ?? null,
        model: model[c],
        agrees: null,
        why: r.check === 'none' ? r.why : null,
        instead: r.instead,
        change: false,
      });
    });
    if (r.check === 'none' || cols.length < 2) continue;
    const first = 0,
      last = cols.length - 1;
    const sf = r.seed[first],
      sl = r.seed[last],
      mf = model[first],
      ml = model[last];
    /* the directions decide (a figure rising from 0 has a direction and no percentage) */
    const sDir = r.seedChange !== null ? Math.sign(r.seedChange) : sf != null && sl != null ? Math.sign(sl - sf) : null;
    const mDir = mf !== null && ml !== null && Number.isFinite(mf) && Number.isFinite(ml) ? Math.sign(ml - mf) : null;
    const s = r.seedChange ?? r.under ?? (sf != null && sl != null && sf !== 0 ? pct(sf, sl) : null);
    const m = mf !== null && ml !== null && mf !== 0 ? pct(mf, ml) : null;
    const agrees =
      r.under !== null
        ? m === null
          ? null
          : m >= 0 && m < r.under
        : sDir === null || mDir === null
          ? null
          : sDir === mDir && (r.within === null || s === null || m === null || Math.abs(s - m) <= 100 * r.within);
    out.push({
      row: r.label,
      column: `${cols[first].label} → ${cols[last].label}`,
      unit: '%',
      seed: s === null ? null : round(s),
      model: m === null ? null : round(m),
      agrees,
      why: r.why,
      instead: r.instead,
      change: true,
    });
  }
  return out;
}

/** the cells a test holds to: judged, disagreeing, on a row that gives no reason */
export function unexplained(cells: readonly ReferenceCell[]): ReferenceCell[] {
  return cells.filter((c) => c.agrees === false && !c.why);
}

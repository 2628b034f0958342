/**
 * Several runs of one scenario: a comparison (A, and B = A plus some
 * tunables) and a sweep (one run per value of one tunable), and what their
 * results mean next to each other. Shared by the CLI (cli/sim.ts, --compare
 * and --sweep), the browser's worker and the page, so nothing here touches
 * Node, and nothing here parses (planning runs from text is ./plan.ts: the
 * page does not load the YAML parser).
 *
 * A scenario's `expect` steps state what happens with the scenario's own
 * tunables. A run that changes one of them (a --set, B of a comparison, a
 * sweep value) is asking "what if", so its expect failures are not failures:
 * they become neutral notes ("the scenario expected pgfault 256 with
 * fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 4,096").
 */
import type { RunIssue, RunResult } from './runner.js';
import type { Scenario } from './scenario.js';
import { withSettings } from './tunables.js';

export { withSettings };
import { formatTunable, KERNEL_TUNABLES, MACHINE_SETTINGS, tunableInfo, type TunableValue } from './tunables.js';

/* ------------------------------------------------------------ tunables of a scenario */

/** every key a run may change, in the order people read them: kernel tunables, machine.*, seed */
export const RUN_KEYS: readonly string[] = [
  ...KERNEL_TUNABLES.map((t) => t.key),
  ...MACHINE_SETTINGS.map((t) => t.key),
  'seed',
];

/** a scenario's value for a key of RUN_KEYS (the resolved value, defaults included) */
export function tunableValue(s: Scenario, key: string): TunableValue {
  if (key === 'seed') return s.seed;
  if (key.startsWith('machine.'))
    return (s.machine as unknown as Record<string, TunableValue>)[key.slice('machine.'.length)];
  return (s.kernel as unknown as Record<string, TunableValue>)[key];
}

/** a value as people read it: "64 KiB", "mm-wide", "[16 KiB, 64 KiB]", "1" for the seed */
export function formatValue(key: string, v: TunableValue): string {
  const t = tunableInfo(key);
  return t ? formatTunable(t, v) : String(v);
}

/** "fault_around_bytes 64 KiB, vmacache mm-wide" */
export function describeTunables(s: Scenario, keys: readonly string[]): string {
  return keys.map((k) => `${k} ${formatValue(k, tunableValue(s, k))}`).join(', ');
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  return a === b;
}

/** The keys (kernel tunables, machine.*, seed) whose value in `run` differs from the scenario's own. */
export function changedTunables(own: Scenario, run: Scenario): string[] {
  return RUN_KEYS.filter((k) => !same(tunableValue(own, k), tunableValue(run, k)));
}

/* ------------------------------------------------------------ plans */

/** two runs named by the tunables that differ between them: "fault_around_bytes 64 KiB" / "… 4 KiB" */
export function runLabels(a: Scenario, b: Scenario): { a: string; b: string } {
  const keys = changedTunables(a, b);
  return keys.length
    ? { a: describeTunables(a, keys), b: describeTunables(b, keys) }
    : { a: 'A', b: 'B (same tunables as A)' };
}

/** "v1,v2,..." split at the commas outside brackets: "[16KiB, 64KiB],[]" is two values */
export function splitValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0,
    cur = '';
  for (const ch of text) {
    if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** `key`, `key=v1,v2,...` or `key:v1,v2,...` (the URL's spelling) */
export function parseSweepArg(arg: string): { key: string; values?: string[] } {
  const m = /^([^=:]+)[=:](.*)$/s.exec(arg);
  if (!m) return { key: arg.trim() };
  return { key: m[1].trim(), values: splitValues(m[2]).filter((v) => v !== '') };
}

/* ------------------------------------------------------------ expect checks */

/** A failed expect item, with its expected and actual values as the runner formats them. */
export interface ExpectCheck {
  at: RunIssue['at'];
  step: number | null;
  /** "pgfault", "app pgfault", "folio mapcount" */
  item: string;
  /** "256", "4,096", "true", "not mapped" */
  expected: string;
  actual: string;
}

/** The expected and actual values of an expect failure (explainFailure() records them); null for other issues. */
export function expectCheck(f: RunIssue): ExpectCheck | null {
  return f.expect ? { at: f.at, step: f.step, ...f.expect } : null;
}

/**
 * A run's expect failures as neutral notes, when the run changed a tunable
 * away from the scenario's own value (none otherwise: then they are real
 * failures). Each note keeps the failure's location (at, step).
 */
export function expectNoteIssues(own: Scenario, run: Scenario, result: Pick<RunResult, 'expectFailures'>): RunIssue[] {
  const keys = changedTunables(own, run);
  if (!keys.length) return [];
  const ownText = describeTunables(own, keys);
  const runText = describeTunables(run, keys);
  return result.expectFailures.map((f) => {
    const c = expectCheck(f);
    const message = c
      ? `the scenario expected ${c.item} ${c.expected} with ${ownText}; this run (${runText}) ${c.actual === 'not mapped' ? 'finds it not mapped' : `gives ${c.actual}`}`
      : `with ${ownText} the scenario expects: ${f.message}; this run has ${runText}`;
    return { at: f.at, step: f.step, message };
  });
}

/** The sentences of expectNoteIssues(). */
export function expectNotes(own: Scenario, run: Scenario, result: Pick<RunResult, 'expectFailures'>): string[] {
  return expectNoteIssues(own, run, result).map((n) => n.message);
}

/**
 * How a run's expect checks count: `failures` fail the run (it kept the
 * scenario's own tunables); `notes` inform (it changed `changed`).
 */
export function judgeExpects(
  own: Scenario,
  run: Scenario,
  result: Pick<RunResult, 'expectFailures'>,
): {
  changed: string[];
  failures: RunIssue[];
  notes: RunIssue[];
} {
  const changed = changedTunables(own, run);
  return changed.length
    ? { changed, failures: [], notes: expectNoteIssues(own, run, result) }
    : { changed, failures: result.expectFailures, notes: [] };
}

/* ------------------------------------------------------------ counters */

type Counted = Pick<RunResult, 'counters' | 'model'>;

/** Every counter of a run by name: the vmstat counters, then the model's own. */
export function allCounters(r: Counted): Record<string, number> {
  return { ...r.counters, ...r.model };
}

/** b − a for every counter (vmstat and model) both runs report. */
export function counterDiff(a: Counted, b: Counted): Record<string, number> {
  const ca = allCounters(a),
    cb = allCounters(b);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(cb)) if (k in ca) out[k] = v - ca[k];
  return out;
}

/**
 * A run's results judged against its scenario: which failed expects are
 * failures (a run with the scenario's own tunables) and which are notes (a
 * run with others: --set, run B of a comparison, a sweep's value), and the
 * counters of two runs side by side.
 */
import { changedTunables, runLabels } from './multirun.js';
import type { RunIssue, RunResult } from './runner.js';
import type { Scenario } from './scenario.js';

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
  /* named as a comparison names its runs: "fault_around_bytes 64 KiB", "with fadvise" beside "without fadvise" */
  const { a: ownText, b: runText } = runLabels(own, run);
  return result.expectFailures.map((f) => {
    const c = expectCheck(f);
    const message = c
      ? `the scenario expected ${c.item} ${c.expected} with ${ownText}; this run (${runText}) ${c.actual === 'not mapped' ? 'finds it not mapped' : c.actual.startsWith('the zero page') ? 'finds the zero page there (no folio)' : `gives ${c.actual}`}`
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

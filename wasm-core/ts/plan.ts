/**
 * Planning several runs from text (the values --compare, --sweep and the
 * URL give): each value is parsed and checked as --set checks it
 * (applyOverrides), so this module brings in the loader. The CLI and the
 * worker use it; the page does not (multirun.ts holds what it needs).
 */
import { changedTunables, formatValue, runLabels, tunableValue } from './multirun.js';
import { applyOverrides } from './overrides.js';
import { ScenarioError, ScenarioErrors, suggest } from './errors.js';
import { DEFAULT_LIMITS, estimate, formatDuration, formatFigure, LimitExceeded, type Limits } from './limits.js';
import type { Scenario } from './scenario.js';
import { SETTABLE_KEYS, sweepDomain, tunableInfo, tunableText, type TunableValue } from './tunables.js';

export interface ComparePlan {
  a: Scenario;
  b: Scenario;
  /** each run named by its tunables that differ from the other's: "fault_around_bytes 64 KiB" */
  label: { a: string; b: string };
}

/** A is `base`; B is A with `compare` applied (the same overrides --set takes; throws ScenarioErrors). */
export function planCompare(base: Scenario, compare: Record<string, string>): ComparePlan {
  const b = applyOverrides(base, compare);
  /* as the scenario's own compare: refuses, a comparison that changes nothing would run A twice */
  if (!changedTunables(base, b).length) {
    const keys = Object.keys(compare);
    throw new ScenarioErrors([
      new ScenarioError(
        '--set',
        0,
        0,
        keys.join(', '),
        `run A has ${keys.length > 1 ? 'these values' : 'this value'} already: run B would be run A`,
      ),
    ]);
  }
  return { a: base, b, label: runLabels(base, b) };
}

export interface SweepRun {
  /** the tunable's value in this run, as the scenario holds it (65536, 'mm-wide', [16384]) */
  value: TunableValue;
  /** the value as given (a YAML scalar: '64KiB', '65536', '[16KiB]') */
  raw: string;
  /** "64 KiB" */
  label: string;
  scenario: Scenario;
}

/** the most values one sweep runs (the chart, the link and the work stay in proportion) */
export const MAX_SWEEP_VALUES = 256;

function sweepError(key: string, detail: string): ScenarioErrors {
  return new ScenarioErrors([new ScenarioError('--set', 0, 0, key, detail)]);
}

/**
 * One scenario per value of `key`, in the order given; without values, the
 * tunable's sweep domain (sweepDomain: every power of two of
 * fault_around_bytes, every choice, both booleans). Unknown keys and bad
 * values throw the ScenarioErrors applyOverrides throws (with a did-you-mean).
 */
export function planSweep(base: Scenario, key: string, values?: readonly string[]): SweepRun[] {
  if (!SETTABLE_KEYS.includes(key)) applyOverrides(base, { [key]: '0' }); /* throws: unknown tunable, did you mean */
  let raws: string[];
  if (values) raws = [...values];
  else {
    const t = tunableInfo(key);
    if (!t) throw sweepError(key, `${key} has no default sweep domain: give the values (${key}=v1,v2,...)`);
    try {
      raws = sweepDomain(t).map(tunableText);
    } catch {
      throw sweepError(key, `${key} has no default sweep domain: give the values (${key}=v1,v2,...)`);
    }
  }
  if (!raws.length) throw sweepError(key, 'a sweep needs at least one value');
  /* a chart of more points says nothing more, and its link would outgrow what servers accept */
  if (raws.length > MAX_SWEEP_VALUES)
    throw sweepError(
      key,
      `${raws.length.toLocaleString('en-US')} values: a sweep takes at most ${MAX_SWEEP_VALUES} (sweep a range in steps, or several sweeps)`,
    );
  const errors: ScenarioError[] = [];
  const out: SweepRun[] = [];
  for (const raw of raws) {
    try {
      const scenario = applyOverrides(base, { [key]: raw });
      const value = tunableValue(scenario, key);
      out.push({ value, raw, label: formatValue(key, value), scenario });
    } catch (e) {
      if (!(e instanceof ScenarioErrors)) throw e;
      errors.push(...e.errors);
    }
  }
  if (errors.length) throw new ScenarioErrors(errors);
  return out;
}

/**
 * A sweep's work in all, before any of its runs is compiled or run: the sum of the runs' estimated
 * operations against limits.sweep_operations (each run is held to limits.operations when compiled).
 */
export function checkSweepWork(base: Scenario, key: string, runs: SweepRun[], limits: Limits = DEFAULT_LIMITS) {
  const ops = runs.map((r) => estimate(r.scenario).operations);
  const total = ops.reduce((a, b) => a + b, 0);
  if (total <= limits.sweep_operations) return;
  const most = Math.max(...ops);
  throw new ScenarioErrors([
    new LimitExceeded(
      base.file,
      null,
      'sweep_operations',
      total,
      limits.sweep_operations,
      `this sweep of ${key} needs about ${formatFigure('operations', total)} operations in all (${runs.length} runs, the largest ${formatFigure('operations', most)}), ${formatDuration(total)} of work`,
    ),
  ]);
}

/** An unknown key's "(did you mean 'x'?)" for option parsing that happens before a scenario exists. */
export function suggestKey(key: string): string {
  return suggest(key, SETTABLE_KEYS);
}

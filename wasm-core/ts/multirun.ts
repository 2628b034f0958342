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
import type { Scenario, SettingValue } from './scenario.js';
import { withSettings } from './tunables.js';

export { withSettings };
import {
  formatTunable,
  KERNEL_TUNABLES,
  MACHINE_SETTINGS,
  tunableInfo,
  type TunableValue,
  followsVersion,
  versionDefault,
} from './tunables.js';

/* ------------------------------------------------------------ tunables of a scenario */

/** every key a run may change, in the order people read them: kernel tunables, machine.*, seed */
export const RUN_KEYS: readonly string[] = [
  ...KERNEL_TUNABLES.map((t) => t.key),
  ...MACHINE_SETTINGS.map((t) => t.key),
  'seed',
  'without',
];

/** a scenario's value for a key of RUN_KEYS (the resolved value, defaults included) */
export function tunableValue(s: Scenario, key: string): TunableValue {
  if (key === 'seed') return s.seed;
  if (key === 'without') return s.without;
  if (key.startsWith('machine.'))
    return (s.machine as unknown as Record<string, TunableValue>)[key.slice('machine.'.length)];
  return (s.kernel as unknown as Record<string, TunableValue>)[key];
}

/** a value as people read it: "64 KiB", "mm-wide", "[16 KiB, 64 KiB]", "1" for the seed */
export function formatValue(key: string, v: TunableValue): string {
  if (key === 'without') return (v as string[]).length ? (v as string[]).join(', ') : 'nothing';
  const t = tunableInfo(key);
  return t ? formatTunable(t, v) : String(v);
}

/** "fault_around_bytes 64 KiB, vmacache mm-wide"; steps left out read "without fadvise" */
export function describeTunables(s: Scenario, keys: readonly string[]): string {
  return keys
    .filter((k) => k !== 'without' || s.without.length)
    .map((k) =>
      k === 'without'
        ? `without ${formatValue(k, s.without)}`
        : k === 'version'
          ? `Linux ${s.kernel.version}`
          : `${k} ${formatValue(k, tunableValue(s, k))}`,
    )
    .join(', ');
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  return a === b;
}

/**
 * The keys (kernel tunables, machine.*, seed) whose value in `run` differs from the scenario's own. When the
 * kernel version differs, a key whose value in each run is its version's rule is the version's doing, not a
 * change of its own: "version" alone stands for it.
 */
export function changedTunables(own: Scenario, run: Scenario): string[] {
  const va = own.kernel.version,
    vb = run.kernel.version;
  return RUN_KEYS.filter((k) => {
    if (same(tunableValue(own, k), tunableValue(run, k))) return false;
    if (va === vb || k === 'version') return true;
    const t = tunableInfo(k);
    const ruled = (s: Scenario, v: string) =>
      !!t && followsVersion(t) && same(tunableValue(s, k), versionDefault(t, v));
    return !(ruled(own, va) && ruled(run, vb));
  });
}

/* ------------------------------------------------------------ plans */

/** two runs named by the tunables that differ between them: "fault_around_bytes 64 KiB" / "… 4 KiB" */
export function runLabels(a: Scenario, b: Scenario): { a: string; b: string } {
  const keys = changedTunables(a, b);
  /* the run with every step: "with fadvise", beside the other's "without fadvise" */
  const name = (x: Scenario, y: Scenario) =>
    describeTunables(x, keys) ||
    (keys.includes('without') ? `with ${y.without.filter((k) => !x.without.includes(k)).join(', ')}` : '');
  return keys.length ? { a: name(a, b), b: name(b, a) } : { a: 'A', b: 'B (same tunables as A)' };
}

/**
 * The kernel a run stands for, where its changed keys' values name one (the tunables' `versions`):
 * "3.14" for fault_around_bytes 4 KiB, "2.6.38" for fadvise_dontneed invalidate-only; null when a key's
 * value names none, or two keys name different kernels.
 */
export function kernelOfRun(s: Scenario, keys: readonly string[]): string | null {
  const named = keys
    .filter((k) => k !== 'without')
    .map((k) => tunableInfo(k)?.versions?.[String(tunableValue(s, k))] ?? null);
  return named.length && named.every((v) => v !== null) && new Set(named).size === 1 ? named[0] : null;
}

/**
 * Two runs named as a speaker says them: by the kernel each stands for, with the keys beside it
 * ("3.15 · fault_around_bytes 64 KiB" / "3.14 · fault_around_bytes 4 KiB"); by the keys alone where the
 * values name no kernel, or the same one.
 */
export function kernelRunLabels(a: Scenario, b: Scenario): { a: string; b: string } {
  const plain = runLabels(a, b);
  const keys = changedTunables(a, b);
  const k = kernelsOfRuns(a, b);
  if (!k) return plain;
  /* two kernels by version: each run by its version, then whatever else differs ("6.18 · fault_around_bytes 4 KiB") */
  if (keys.includes('version')) {
    const rest = keys.filter((x) => x !== 'version');
    const name = (x: Scenario, v: string) => `${v}${rest.length ? ` \u00b7 ${describeTunables(x, rest)}` : ''}`;
    return { a: name(a, k.a), b: name(b, k.b) };
  }
  return { a: `${k.a} \u00b7 ${plain.a}`, b: `${k.b} \u00b7 ${plain.b}` };
}

/** the kernels two runs stand for, when they name two different ones (their versions, or their keys' values) */
export function kernelsOfRuns(a: Scenario, b: Scenario): { a: string; b: string } | null {
  const keys = changedTunables(a, b);
  if (keys.includes('version')) return { a: a.kernel.version, b: b.kernel.version };
  const ka = kernelOfRun(a, keys),
    kb = kernelOfRun(b, keys);
  return ka && kb && ka !== kb ? { a: ka, b: kb } : null;
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

/** typed settings (a scenario's compare:, a beat's set:) as --set and a link's set= take them: lists in brackets */
export function settingsText(v: Record<string, SettingValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, Array.isArray(x) ? `[${x.join(', ')}]` : String(x)]));
}

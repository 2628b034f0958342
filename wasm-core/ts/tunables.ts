/**
 * Tunables and machine settings, all read from the generated description
 * (gen/interface.ts TUNABLES): defaults, the header encoding, display, and
 * the domain a sweep runs over. The loader, the compiler, the CLI's --set
 * help, the tunables drawer and docs/reference.md all use this one list.
 */
import { formatSize } from './units.js';
import { TUNABLES, type KernelTunables, type MachineSettings, type TunableInfo } from './gen/interface.js';

import type { Scenario, SettingValue } from './scenario.js';

export type { KernelTunables, MachineSettings, TunableInfo };
export { TUNABLES };

export type TunableValue = number | boolean | string | readonly number[] | readonly string[];

export const KERNEL_TUNABLES = TUNABLES.filter((t) => t.scope === 'kernel');
export const MACHINE_SETTINGS = TUNABLES.filter((t) => t.scope === 'machine');
/** every key `--set` and the URL accept: kernel tunables, machine.*, and the seed */
/** what --set, --compare and a link's set= take: the tunables, the seed, and the step kinds a run leaves out */
export const SETTABLE_KEYS = [...TUNABLES.map((t) => t.key), 'seed', 'without'];

export function tunableInfo(key: string): TunableInfo | undefined {
  return TUNABLES.find((t) => t.key === key);
}

/* ------------------------------------------------------------ kernel versions */

/** the kernels a scenario can name (kernel: version:), oldest first: the choices of the `version` key */
export const KERNEL_VERSIONS: readonly string[] = TUNABLES.find((t) => t.key === 'version')!.choices!;
/** the kernel a scenario that names none follows: today's */
export const DEFAULT_VERSION = TUNABLES.find((t) => t.key === 'version')!.default as string;

const KERNEL_RE = /^\d+(\.\d+)+$/;
/** "2.6.39" < "3.14" < "6.10": dotted numbers compared part by part */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number),
    y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** a `versions` key (the value as text) as the tunable's value */
function valueOfText(t: TunableInfo, text: string): TunableValue {
  if (t.type === 'bool') return text === 'true';
  if (t.type === 'choice') return text;
  return Number(text);
}

/**
 * A tunable's value under a kernel version: from its `versions` map (value -> the kernel where it became the
 * rule), the value of the latest kernel at or before `version`, the oldest value before all of them. A
 * tunable whose map names no kernel release (anon_prefault: "2004 prefault") keeps its default in every
 * version.
 */
/** whether a tunable's value follows the kernel version: its `versions` map names kernel releases only */
export const followsVersion = (t: TunableInfo): boolean =>
  t.key !== 'version' && !!t.versions && Object.values(t.versions).every((k) => KERNEL_RE.test(k));

export function versionDefault(t: TunableInfo, version: string): TunableValue {
  if (t.key === 'version') return version;
  if (!followsVersion(t)) return Array.isArray(t.default) ? [...t.default] : t.default;
  const steps = Object.entries(t.versions!).sort((a, b) => compareVersions(a[1], b[1]));
  let at = steps[0];
  for (const st of steps) if (compareVersions(st[1], version) <= 0) at = st;
  return valueOfText(t, at[0]);
}

/** every kernel tunable's value under a version (nothing set explicitly) */
export function kernelOf(version: string): KernelTunables {
  return Object.fromEntries(
    KERNEL_TUNABLES.map((t) => [t.key, versionDefault(t, version)]),
  ) as unknown as KernelTunables;
}

/** the kernel tunables of a scenario that names no version and sets nothing: today's */
export const DEFAULT_KERNEL = kernelOf(DEFAULT_VERSION);
export const DEFAULT_MACHINE = Object.fromEntries(
  MACHINE_SETTINGS.map((t) => [t.key.slice('machine.'.length), t.default]),
) as unknown as MachineSettings;

/** the value a header field holds for a tunable's value */
export function encodeTunable(t: TunableInfo, v: TunableValue): number | bigint {
  switch (t.type) {
    case 'bool':
      return v ? 1 : 0;
    case 'choice': {
      const i = t.choices!.indexOf(v as string);
      if (i < 0) throw new Error(`${t.key}: '${String(v)}' is not one of ${t.choices!.join(', ')}`);
      return i;
    }
    case 'sizes': {
      let bits = 0;
      for (const s of v as number[]) bits |= 1 << Math.log2(s / 4096);
      return bits >>> 0;
    }
    default:
      return t.ctype === 'u64' ? BigInt(v as number) : (v as number);
  }
}

export { formatSize as formatBytes };

/** a value as people read it: 64 KiB, 128 KiB (readahead_kb), per-thread, [16 KiB, 64 KiB] */
export function formatTunable(t: TunableInfo, v: TunableValue): string {
  if (t.type === 'size') return formatSize(v as number);
  if (t.type === 'sizes') return `[${(v as number[]).map(formatSize).join(', ')}]`;
  if (t.type === 'int' && t.unit === 'KiB') return formatSize((v as number) * 1024);
  if (t.type === 'int' && t.unit) return `${(v as number).toLocaleString('en-US')} ${t.unit}`;
  return String(v);
}

/** the value as `--set`/the URL writes it (a YAML scalar the loader reads back) */
export function tunableText(v: TunableValue): string {
  return Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
}

/**
 * The values a sweep runs over by default: every power of two of a pow2
 * size, the description's `sweep` list, every choice, both booleans, each
 * size of a list of sizes alone.
 */
export function sweepDomain(t: TunableInfo): TunableValue[] {
  if (t.sweep) return [...t.sweep];
  if (t.type === 'size' && t.pow2) {
    const out: number[] = [];
    for (let v = t.min!; v <= t.max!; v *= 2) out.push(v);
    return out;
  }
  if (t.type === 'choice') return [...t.choices!];
  /* a list of sizes (mTHP): each size alone, the folio orders one by one */
  if (t.type === 'sizes') {
    const out: number[][] = [];
    for (let v = t.min!; v <= t.max!; v *= 2) out.push([v]);
    return out;
  }
  if (t.type === 'bool') return [false, true];
  throw new Error(`${t.key} has no default sweep domain: give the values (sweep=${t.key}:v1,v2,...)`);
}

/**
 * s with tunables set to typed values (sizes in bytes), as a scenario's own
 * `compare:` holds them or applyOverrides has parsed them. Any key of
 * RUN_KEYS; the caller has checked the values.
 */
export function withSettings(s: Scenario, values: Readonly<Record<string, SettingValue>>): Scenario {
  const out: Scenario = { ...s, kernel: { ...s.kernel }, kernelGiven: { ...s.kernelGiven }, machine: { ...s.machine } };
  const kernel = out.kernel as unknown as Record<string, SettingValue>;
  /* a new version first: every key nobody set takes that kernel's value; then the keys set here win */
  const version = values.version as string | undefined;
  if (version !== undefined)
    for (const t of KERNEL_TUNABLES)
      if (!(t.key in out.kernelGiven) && !(t.key in values)) kernel[t.key] = versionDefault(t, version) as SettingValue;
  for (const [key, v] of Object.entries(values)) {
    if (key === 'seed') out.seed = v as number;
    else if (key === 'without') out.without = [...(v as string[])];
    else if (key.startsWith('machine.'))
      (out.machine as unknown as Record<string, SettingValue>)[key.slice('machine.'.length)] = v;
    else {
      kernel[key] = v;
      /* set by hand: a later change of version leaves it as it is */
      if (key !== 'version') out.kernelGiven[key as keyof KernelTunables] = { line: 0, col: 0, path: key };
    }
  }
  return out;
}

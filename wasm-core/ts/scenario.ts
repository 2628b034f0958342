/**
 * What a scenario is once loaded (ts/load/ turns YAML or JSON text into
 * one): its files, processes and steps, every tunable with its default, and
 * where each part was written (At: line, column, key path) so that every
 * later error can point there. The step kinds are described in
 * ../interface/steps.ts; a loaded step of a described kind has the type its
 * description gives (DescribedStep), the structural ones (repeat, expect,
 * say) are the format's own.
 */
import type { DescribedStep, STEPS, TaskRef } from '../interface/steps.js';
import type { At } from './errors.js';
import type { KernelTunables, MachineSettings } from './gen/interface.js';

export type { At, TaskRef };

/* the kernel tunables and machine settings, with their defaults: wasm-core/interface/ (generated) */
export type Tunables = KernelTunables;
export type Machine = MachineSettings;

/**
 * fs: 'disk' is a page cache filled by read I/O (readahead, major faults)
 * with order-0 folios; 'tmpfs' is shmem: pages exist once written and are
 * never read from a disk (this project's extension to the format).
 */
export type FileSystem = 'disk' | 'tmpfs';
export interface FileDef {
  name: string;
  size: number;
  cached: boolean;
  fs: FileSystem;
  sparse: boolean;
  /** the file system caches it in large folios when the kernel can (false: ext4 data=journal) */
  largeFolios: boolean;
  at: At;
  cachedAt: At;
}
export interface ProcDef {
  name: string;
  threads: number;
  at: At;
  /** format extension (the VMA cache): the mm's initial vmacache_seqnum, so that a run can reach its 32-bit wrap */
  vmacacheSeqnum?: number;
}

/** the step kinds ../interface/steps.ts describes */
export type DescribedKind = keyof typeof STEPS;

export type Step =
  | { [K in DescribedKind]: DescribedStep<K> }[DescribedKind]
  | { kind: 'repeat'; times: number; stride: number; steps: Step[]; at: At }
  | {
      kind: 'expect';
      task?: TaskRef;
      counters: { name: string; value: number; at: At }[];
      folio?: { task: TaskRef; map: string; offset: number; at: At };
      fields: { name: string; value: number; at: At }[];
      at: At;
    }
  | { kind: 'say'; text: string; at: At };
export type StepKind = Step['kind'];
export type Advice = DescribedStep<'madvise'>['advice'];
export type Pattern = DescribedStep<'access'>['pattern'];

/** a value of a tunable or machine setting, as a scenario or `--set` gives it (sizes in bytes) */
import type { Letter } from './letter.js';

export type SettingValue = string | number | boolean | number[] | string[];

/** extension: reference data drawn beside a sweep over `x` */
export interface Reference {
  source: string;
  x: string;
  y: string;
  points: { x: number; y: number }[];
  at: At;
}

export interface Scenario {
  file: string;
  source: string;
  name: string;
  about: string;
  seed: number;
  kernel: Tunables;
  /** tunables the scenario sets itself */
  kernelGiven: Partial<Record<keyof Tunables, At>>;
  machine: Machine;
  files: FileDef[];
  processes: ProcDef[];
  steps: Step[];
  at: At;
  /**
   * step kinds this run leaves out, each kept as a no-op so that steps still line up with another run's
   * (`without: [fadvise]`: the backup without its fadvise calls, the letter's NRS); a run setting, never
   * written at the top level: `compare: { without: [fadvise] }`, `--set without=fadvise`
   */
  without: string[];
  /** the natural comparison, keyed by the `--set` key (`fault_around_bytes`, `machine.io_latency`, `without`) */
  compare?: Record<string, SettingValue>;
  /** where `compare:` is */
  compareAt?: At;
  /** extension: reference data for a sweep */
  reference?: Reference;
  /** the cover letter's table beside the model's (./letter.ts) */
  letter?: Letter;
}

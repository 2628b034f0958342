/**
 * What every event sentence is made of: the sentence, the kernel function
 * that does the work (linked to version-pinned source), a short label, and
 * the words they share. events.ts tells the core's events; each mechanism's
 * describer (./<id>.ts, listed by ../gen/describers.ts) tells its own.
 */
import type { Program } from '../compile.js';
import type { SimEvent } from '../gen/events.js';

/** the kernel version the links point at (the model follows v6.19 where kernels differ) */
export const KERNEL_VERSION = 'v6.19';
export const elixir = (ident: string, version = KERNEL_VERSION) =>
  `https://elixir.bootlin.com/linux/${version}/A/ident/${ident}`;

export const hex = (n: number) => `0x${n.toString(16)}`;
export const plural = (n: number, w: string) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;

export interface Described {
  text: string;
  /** the kernel function that does it (or null for the model's own bookkeeping) */
  fn: string | null;
  /** a short label for compact lists */
  label: string;
  /** the kernel version fn links to, where the model follows another than KERNEL_VERSION (the LRU: v2.6.39) */
  version?: string;
}

/** what a mechanism's describer gets: the event's task and the program's file names */
export interface DescribeContext {
  task: string;
  file: (i: number) => string;
  prog?: Program;
}

/** a mechanism's sentences for its own events (wasm-core/ts/describe/), null for an event not its own */
export type Describer = (e: SimEvent, ctx: DescribeContext) => Described | null;

/** a page named from an LRU event's page ((file + 1) << 32 | pgoff), or by its pfn when anonymous */
export function pageName(e: { page: number; pfn: number }, file: DescribeContext['file']): string {
  const hi = Math.floor(e.page / 2 ** 32),
    lo = e.page % 2 ** 32;
  return hi ? `${file(hi - 1)} page ${lo}` : `an anonymous page (pfn ${e.pfn})`;
}

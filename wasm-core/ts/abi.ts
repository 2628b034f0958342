/**
 * The core's interface for TypeScript: everything comes from
 * ./gen/interface.ts, which scripts/gen-interface.mjs generates from the one
 * description in wasm-core/interface/ (the C side, mmsim_gen.h, comes from
 * the same). This file only derives conveniences from it. Core.load() checks
 * the interface hash, and the drift test (wasm-core/test/interface.test.ts)
 * compares every struct offset, enum value and export with the compiled wasm.
 */
import {
  COUNTER_INFO,
  FILEF,
  FOLIO_FIELD_NAMES,
  LruList,
  Op,
  PC_FLAG,
  PcState,
  PgtLevel,
  PROCF,
  SKIP_REASON_DOCS,
  STRUCTS,
} from './gen/interface.js';

export * from './gen/interface.js';
export * from './gen/events.js';

export const FIRST_GAUGE = COUNTER_INFO.findIndex((c) => c.gauge);
/** Counters from here on are the model's own: the kernel has no such counter. */
export const FIRST_MODEL_COUNTER = COUNTER_INFO.findIndex((c) => c.model);
/** The counters scenario-format.md requires every run to report. */
export const REQUIRED_COUNTERS = COUNTER_INFO.filter((c) => c.required).map((c) => c.name);

export const EVENT_SIZE = STRUCTS.event.size;

export const SKIP_REASONS = SKIP_REASON_DOCS;
/** names of a numeric TS enum's members, by value */
const namesOf = (e: Record<string, string | number>) =>
  Object.entries(e)
    .filter(([, v]) => typeof v === 'number')
    .sort((a, b) => (a[1] as number) - (b[1] as number))
    .map(([k]) => k);
const snake = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

export const PGT_LEVELS = namesOf(PgtLevel).map((n) => n.toUpperCase());
export const LRU_LISTS = namesOf(LruList).map(snake);
export const OP_NAMES = namesOf(Op).map((n) => n.toLowerCase());

/** mmsim_pagecache_states(): enum mmsim_pc_state, | PC_READAHEAD for PG_readahead */
export const PC = {
  none: PcState.None,
  uptodate: PcState.Uptodate,
  reading: PcState.Reading,
  shadow: PcState.Shadow,
} as const;
export const PC_STATE_MASK = PC_FLAG.STATE_MASK;
export const PC_READAHEAD = PC_FLAG.READAHEAD;
/** the page continues the previous page's large page-cache folio */
export const PC_CONT = PC_FLAG.CONT;

export const FILE_CACHED = FILEF.CACHED;
export const FILE_SHMEM = FILEF.SHMEM;
export const FILE_SPARSE = FILEF.SPARSE;
export const FILE_ORDER0 = FILEF.ORDER0;
export const PROC_FORKED = PROCF.FORKED;

export const FOLIO_FIELDS = FOLIO_FIELD_NAMES;
export type FolioFieldName = (typeof FOLIO_FIELDS)[number];

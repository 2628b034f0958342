/**
 * The core's ABI, mirrored from wasm-core/include/mmsim.h. Core.load() checks
 * the ABI version and the counter and event names against the wasm, so a
 * drift between this file and the header fails loudly, never silently.
 */

export const ABI_VERSION = 2;
export const PROG_MAGIC = 0x50534d4d;
export const PAGE_SIZE = 4096;
export const NONE = 0xffffffff;

/** /proc/vmstat names, in enum mmsim_counter order. */
export const COUNTERS = [
  'pgfault', 'pgmajfault', 'pgactivate', 'pgdeactivate', 'pgrotated', 'pgrefill', 'pgscan',
  'pgsteal', 'workingset_refault', 'vmacache_find_calls', 'vmacache_find_hits',
  'vmacache_full_flushes', 'thp_fault_alloc', 'thp_fault_fallback', 'pginvalidate', 'pgreclaim',
  'pgalloc_normal', 'pgfree', 'pgpgin', 'pgpgout', 'pgreuse',
  'nr_free_pages', 'nr_inactive_anon', 'nr_active_anon', 'nr_inactive_file', 'nr_active_file',
  'nr_unevictable', 'nr_file_pages', 'nr_mapped', 'nr_anon_pages', 'nr_shmem', 'nr_dirty',
  'nr_writeback', 'nr_page_table_pages',
  'touches', 'fault_around_calls', 'fault_around_mapped', 'fault_around_skipped',
  'fault_retries', 'readahead_pages',
] as const;
export type CounterName = (typeof COUNTERS)[number];
export const FIRST_GAUGE = COUNTERS.indexOf('nr_free_pages');
/** Counters from here on are the model's own: the kernel has no such counter. */
export const FIRST_MODEL_COUNTER = COUNTERS.indexOf('touches');

/** The counters scenario-format.md requires every run to report. */
export const REQUIRED_COUNTERS: CounterName[] = [
  'pgfault', 'pgmajfault', 'pgactivate', 'pgdeactivate', 'pgrotated', 'pgrefill', 'pgscan',
  'pgsteal', 'workingset_refault', 'vmacache_find_calls', 'vmacache_find_hits', 'thp_fault_alloc',
  'pginvalidate', 'pgreclaim',
];

export const TASK_COUNTERS = [
  'pgfault', 'maj_flt', 'min_flt', 'vmacache_find_calls', 'vmacache_find_hits', 'touches',
] as const;
export type TaskCounterName = (typeof TASK_COUNTERS)[number];

export const MM_COUNTERS = ['rss_file', 'rss_anon', 'rss_shmem', 'map_count', 'pgtables'] as const;

export const EVENTS = [
  'mmsim_step', 'mmsim_access', 'page_fault_user', 'mm_fault_done', 'mm_pgtable_alloc',
  'mm_pgtable_free', 'mm_filemap_map_pages', 'mm_set_pte', 'mm_filemap_map_skip',
  'mm_filemap_fault', 'page_cache_sync_ra', 'page_cache_async_ra', 'mm_filemap_add_to_page_cache',
  'mm_filemap_delete_from_page_cache', 'mmsim_read_done', 'mmsim_read_submit', 'mmsim_folio_wait',
  'mmsim_vma_add', 'mmsim_vma_remove', 'mmsim_vma_split', 'mmsim_vma_merge', 'mmsim_vma_flags',
  'mmsim_zap_range', 'mm_page_alloc', 'mm_page_free', 'mm_lru_insertion', 'mm_lru_activate',
  'mmsim_file_preload', 'mmsim_fork', 'mmsim_exit', 'mmsim_expect', 'mmsim_say', 'mmsim_error', 'mmsim_shmem_fault',
  'mmsim_readahead_mark',
] as const;
export type EventName = (typeof EVENTS)[number];

export const EV = Object.fromEntries(EVENTS.map((n, i) => [n, i])) as Record<EventName, number>;
export const EVF_OP_START = 0x8000;
export const EV_TYPE_MASK = 0x7fff;
export const EVENT_SIZE = 32;

export enum FaultKind {
  None = 0, AnonZero, AnonNew, FileAround, FileRead, FileCow, FileShared, WpReuse, WpCopy,
  WpShared, Retry, Error,
}

export enum SetHow { Fault = 0, AroundSelf, Around, Anon, Zero, Cow, Reuse, Fork }

export enum SkipReason {
  Hole = 0, Shadow, Locked, NotUptodate, Readahead, Eof, Hwpoison, PtePresent,
}
export const SKIP_REASONS = [
  'not in page cache', 'evicted (shadow entry)', 'locked: read I/O in flight', 'not uptodate',
  'PG_readahead: left for ->fault', 'beyond end of file', 'hardware-poisoned',
  'PTE already present',
];

export enum PgtLevel { Pgd = 0, Pud, Pmd, Pte }
export const PGT_LEVELS = ['PGD', 'PUD', 'PMD', 'PTE'];

/** mmsim_pagecache_states(): enum mmsim_pc_state, | PC_READAHEAD for PG_readahead */
export const PC = { none: 0, uptodate: 1, reading: 2, shadow: 3 } as const;
export const PC_STATE_MASK = 0x0f;
export const PC_READAHEAD = 0x10;

export enum LruList { InactiveAnon = 0, ActiveAnon, InactiveFile, ActiveFile, Unevictable }
export const LRU_LISTS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'unevictable'];

export const VM_FAULT = {
  OOM: 0x1, SIGBUS: 0x2, MAJOR: 0x4, SIGSEGV: 0x40, NOPAGE: 0x100, LOCKED: 0x200, RETRY: 0x400,
} as const;
export const FAULT_FLAG = { WRITE: 0x1, ALLOW_RETRY: 0x4, TRIED: 0x20, USER: 0x40 } as const;

export const VM = {
  READ: 0x1, WRITE: 0x2, EXEC: 0x4, SHARED: 0x8, MAYREAD: 0x10, MAYWRITE: 0x20, MAYSHARE: 0x80,
  SEQ_READ: 0x8000, RAND_READ: 0x10000, HUGEPAGE: 0x20000000, NOHUGEPAGE: 0x40000000,
} as const;

export const PTE = {
  PRESENT: 1n << 0n, RW: 1n << 1n, USER: 1n << 2n, ACCESSED: 1n << 5n, DIRTY: 1n << 6n,
  PSE: 1n << 7n, SPECIAL: 1n << 9n, PFN_MASK: 0x000ffffffffff000n,
} as const;

/** struct page flag bits (enum mmsim_pageflags) */
export const PG = {
  locked: 0, writeback: 1, referenced: 2, uptodate: 3, dirty: 4, lru: 5, head: 6, active: 7,
  workingset: 8, reserved: 9, reclaim: 10, swapbacked: 11, unevictable: 12, mlocked: 13,
  hwpoison: 14, anon_exclusive: 15, buddy: 24, table: 25, tail: 26, anon: 27,
} as const;

export enum Op {
  Nop = 0, Mmap, Munmap, Madvise, Access, Read, Write, Fadvise, Fsync, Fork, Exit, Repeat, Expect,
  Say,
}
export const OP_NAMES = [
  'nop', 'mmap', 'munmap', 'madvise', 'access', 'read', 'write', 'fadvise', 'fsync', 'fork',
  'exit', 'repeat', 'expect', 'say',
];

export enum Pattern { Sequential = 0, Random, Uniform, List }
export enum Advice { Hugepage = 0, Nohugepage, Random, Sequential, Dontneed }

export const STEPF = { SHARED: 0x1, WRITE: 0x2, FIXED: 0x4, MAPLIST: 0x8, LENGTH: 0x10 } as const;
export const TASK_ALL = 0x80000000;
export const FILE_CACHED = 0x1;
export const FILE_SHMEM = 0x2;
export const PROC_FORKED = 0x1;

export enum ExpectKind { Counter = 1, TaskCounter = 2, FolioAt = 3, FolioField = 4 }
export const FOLIO_FIELDS = [
  'mapcount', 'entire_mapcount', 'likely_mapped_shared', 'order', 'refcount', 'page_mapcount',
] as const;
export type FolioField = (typeof FOLIO_FIELDS)[number];

export enum RunStatus { Done = 0, Work = 1, StopEvent = 2, EventsFull = 3, Error = 4 }

export enum ErrorCode {
  OK = 0, ENOMEM = -1, EINVAL = -2, EOOM = -3, ESEGV = -4, ESIGBUS = -5, ENOMAP = -6,
  ENOTASK = -7, ELIMIT = -8, ENOTIMPL = -9, EEXIST = -10, EABI = -11, ESTATE = -12,
  EINVARIANT = -13,
}

/** Struct sizes (bytes), wasm32 layout. */
export const SIZE = {
  header: 128, file: 16, proc: 16, step: 64, event: 32, errorInfo: 32, expectFailure: 32,
  vmaInfo: 48, walk: 72, pageInfo: 32, taskInfo: 8 + 8 * TASK_COUNTERS.length,
  mmInfo: 16 + 8 * MM_COUNTERS.length, fileInfo: 32,
} as const;

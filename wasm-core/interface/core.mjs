/*
 * The core's interface, described once: constants, enums, flags, counters,
 * events, the fixed-layout structs and the exported functions.
 *
 * scripts/gen-interface.mjs turns this file (with the mechanisms' own
 * descriptions in ./mechanisms, listed in ./index.mjs) into
 *   wasm-core/include/mmsim_gen.h    C enums, X-macros, structs, prototypes
 *   wasm-core/src/interface_gen.c    the layout table the drift test reads back from the wasm,
 *                                    and the tunables' range checks run by mmsim_load()
 *   wasm-core/exports.txt            the wasm export list
 *   wasm-core/ts/gen/interface.ts    the same for TypeScript, with struct offsets
 * Edit here, never there: `npm test` fails if a generated file is stale.
 *
 * Field types: u8 u16 u32 i32 u64 i64; `n` makes an array. Structs are laid
 * out with natural alignment and no implicit padding is allowed (the
 * generator refuses a layout that would need it), so wasm32 and x86-64 agree.
 */

/* bumped when the program format or an export changes incompatibly (Core.load() checks it) */
export const ABI_VERSION = 3;

export const constants = [
  ['PROG_MAGIC', 0x50534d4d, 'program magic, "MMSP" little-endian'],
  ['SNAP_MAGIC', 0x4e534d4d, 'snapshot magic, "MMSN"'],
  ['PAGE_SHIFT', 12],
  ['PAGE_SIZE', 4096],
  ['NONE', 0xffffffff, 'no index (a u32 field with nothing in it)'],
  ['EVF_OP_START', 0x8000, 'in mmsim_event.type: first event of an operation'],
  ['EV_TYPE_MASK', 0x7fff],
  ['TASK_ALL', 0x80000000, 'mmsim_step.task: a process id | TASK_ALL ("app.*")'],
  /* what a program may hold (load.c refuses more; the loader's limits, ts/limits.ts, cap there) */
  ['MAX_FILES', 1024, 'files in a program'],
  ['MAX_PROCS', 1024, 'processes in a program, forked ones included'],
  ['MAX_TASKS', 4096, 'threads in a program'],
  ['MAX_MAPS', 65536, 'map names in a program'],
  ['MAX_STEPS', 1 << 20, 'compiled steps in a program'],
  ['MAX_DATA', 1 << 24, "u64 words in a program's data table (page and map lists)"],
  ['MAX_LOOPS', 8, "repeats nested in one another (the interpreter's loop stack)"],
  ['MAX_MAP_COUNT', 65530, "VMAs per process: the kernel's default vm.max_map_count"],
];

/*
 * enums: TS name, C name, C prefix; members [name, value?, doc?]. The C
 * identifier is prefix + the member's name in UPPER_SNAKE case unless
 * `keepCase` (page flags keep the kernel's PG_ spelling).
 */
export const enums = [
  {
    ts: 'ErrorCode',
    c: 'mmsim_error',
    prefix: 'MMSIM_',
    keepCase: true,
    members: [
      ['OK', 0],
      ['ENOMEM', -1, 'the host refused memory (mmsim_config.max_bytes or malloc)'],
      ['EINVAL', -2, 'malformed program or argument'],
      ['EOOM', -3, 'machine.memory exhausted for a non-reclaimable need'],
      ['ESEGV', -4, 'access outside any VMA, or a write to a read-only VMA'],
      ['ESIGBUS', -5, 'access to a page of a file mapping beyond EOF'],
      ['ENOMAP', -6, "the task's process has no mapping of that name"],
      ['ENOTASK', -7, 'the task (or its process) does not exist or has exited'],
      ['ELIMIT', -8, 'a model limit (VMAs, processes, events per op...)'],
      ['ENOTIMPL', -9, 'a step kind this version of the model does not run yet'],
      ['EEXIST', -10, 'the name is already mapped in that process'],
      ['EABI', -11, 'program built for another ABI version'],
      ['ESTATE', -12, 'call not allowed in this state (e.g. run before load)'],
      ['EINVARIANT', -13, 'the debug_vm invariant checker failed: mmsim_check_message()'],
    ],
  },
  {
    ts: 'RunStatus',
    c: 'mmsim_run_status',
    prefix: 'MMSIM_RUN_',
    members: [
      ['Done', 0, 'the program ran to its end'],
      ['Work', 1, 'stopped: work budget reached'],
      ['StopEvent', 2, 'stopped: event count reached stop_event'],
      ['EventsFull', 3, 'stopped: drain the event buffer and call again'],
      ['Error', 4, 'stopped for good: see mmsim_last_error()'],
    ],
  },
  {
    ts: 'FaultKind',
    c: 'mmsim_fault_kind',
    prefix: 'MMSIM_FK_',
    doc: 'MMSIM_EV_FAULT_DONE.b: how the fault was resolved',
    members: [
      ['None', 0],
      ['AnonZero', 1, 'do_anonymous_page: read, zero page mapped'],
      ['AnonNew', 2, 'do_anonymous_page: write, new page'],
      ['FileAround', 3, 'do_read_fault: map_pages mapped the faulting page'],
      ['FileRead', 4, 'do_read_fault: ->fault + finish_fault'],
      ['FileCow', 5, 'do_cow_fault'],
      ['FileShared', 6, 'do_shared_fault'],
      ['WpReuse', 7, 'do_wp_page: wp_page_reuse'],
      ['WpCopy', 8, 'do_wp_page: wp_page_copy'],
      ['WpShared', 9, 'do_wp_page: wp_page_shared'],
      ['Retry', 10, 'VM_FAULT_RETRY: the fault will be retried'],
      ['Error', 11, 'VM_FAULT_SIGBUS / SIGSEGV / OOM'],
      ['HugeAnon', 12, 'do_huge_pmd_anonymous_page: write, a THP mapped by one PMD'],
      ['HugeZero', 13, 'do_huge_pmd_anonymous_page: read, the huge zero page mapped by one PMD'],
      ['HugeWpReuse', 14, 'do_huge_pmd_wp_page: the only mapping of the THP made writable in place'],
      [
        'AnonPrefault',
        15,
        'do_anonymous_page: a predicted fault, a batch of pages mapped ahead (2004 anticipatory prefault)',
      ],
    ],
  },
  {
    ts: 'SetHow',
    c: 'mmsim_set_how',
    prefix: 'MMSIM_SET_',
    doc: 'MMSIM_EV_SET_PTE.c',
    members: [
      ['Fault', 0, 'the faulting page, by ->fault + finish_fault'],
      ['AroundSelf', 1, 'the faulting page, by map_pages'],
      ['Around', 2, 'a neighbour, by map_pages (fault-around)'],
      ['Anon', 3, 'a new anonymous page'],
      ['Zero', 4, 'the shared zero page'],
      ['Cow', 5, 'a private copy (do_cow_fault, wp_page_copy)'],
      ['Reuse', 6, 'made writable in place (wp_page_reuse)'],
      ['Fork', 7, 'copied into a child at fork'],
    ],
  },
  {
    ts: 'SkipReason',
    c: 'mmsim_skip_reason',
    prefix: 'MMSIM_SKIP_',
    count: 'MMSIM_NR_SKIP_REASONS',
    doc: 'MMSIM_EV_MAP_SKIP.b: why filemap_map_pages did not map a page',
    members: [
      ['Hole', 0, 'not in page cache'],
      ['Shadow', 1, 'evicted (shadow entry)'],
      ['Locked', 2, 'locked: read I/O in flight'],
      ['NotUptodate', 3, 'not uptodate'],
      ['Readahead', 4, 'PG_readahead: left for ->fault'],
      ['Eof', 5, 'beyond end of file'],
      ['Hwpoison', 6, 'hardware-poisoned'],
      ['PtePresent', 7, 'PTE already present'],
    ],
  },
  {
    ts: 'PgtLevel',
    c: 'mmsim_pgt_level',
    prefix: 'MMSIM_PGT_',
    doc: 'page-table levels',
    members: [
      ['Pgd', 0],
      ['Pud', 1],
      ['Pmd', 2],
      ['Pte', 3],
    ],
  },
  {
    ts: 'PageUse',
    c: 'mmsim_page_use',
    prefix: 'MMSIM_USE_',
    doc: 'MMSIM_EV_PAGE_ALLOC.c',
    members: [
      ['Pagecache', 0],
      ['Anon', 1],
      ['Pgtable', 2],
      ['Other', 3],
    ],
  },
  {
    ts: 'LruList',
    c: 'mmsim_lru_list',
    prefix: 'MMSIM_LRU_',
    count: 'MMSIM_NR_LRU_LISTS',
    doc: 'enum lru_list',
    members: [
      ['InactiveAnon', 0],
      ['ActiveAnon', 1],
      ['InactiveFile', 2],
      ['ActiveFile', 3],
      ['Unevictable', 4],
    ],
  },
  {
    ts: 'PcState',
    c: 'mmsim_pc_state',
    prefix: 'MMSIM_PC_',
    doc: 'mmsim_pagecache_states(): | MMSIM_PC_READAHEAD',
    members: [
      ['None', 0],
      ['Uptodate', 1],
      ['Reading', 2],
      ['Shadow', 3],
    ],
  },
  /* enum mmsim_op (ts: Op) comes from the step kinds' description, ./steps.ts */
  {
    ts: 'Pattern',
    c: 'mmsim_pattern',
    prefix: 'MMSIM_PAT_',
    members: [
      ['Sequential', 0],
      ['Random', 1],
      ['Uniform', 2],
      ['List', 3],
    ],
  },
  {
    ts: 'Advice',
    c: 'mmsim_advice',
    prefix: 'MMSIM_ADV_',
    members: [
      ['Hugepage', 0],
      ['Nohugepage', 1],
      ['Random', 2],
      ['Sequential', 3],
      ['Dontneed', 4],
    ],
  },
  {
    ts: 'ExpectKind',
    c: 'mmsim_expect_kind',
    prefix: 'MMSIM_EXPECT_',
    doc: 'expect items: (key, value) u64 pairs; key = kind<<56 | ...',
    members: [
      ['Counter', 1, 'key = kind<<56 | counter id; global'],
      ['TaskCounter', 2, 'key = kind<<56 | task<<16 | task counter id'],
      ['FolioAt', 3, 'key = kind<<56 | task<<16 | map; value = offset'],
      ['FolioField', 4, 'key = kind<<56 | field; value = expected'],
    ],
  },
  {
    ts: 'FolioField',
    c: 'mmsim_folio_field',
    prefix: 'MMSIM_FOLIO_',
    count: 'MMSIM_NR_FOLIO_FIELDS',
    names: true,
    members: [
      ['mapcount', 0, 'folio_mapcount()'],
      ['entire_mapcount', 1, 'folio_entire_mapcount()'],
      ['likely_mapped_shared', 2, 'folio_likely_mapped_shared() (0/1)', 'LIKELY_SHARED'],
      ['order', 3, 'folio_order()'],
      ['refcount', 4, 'folio_ref_count()'],
      ['page_mapcount', 5, "the page's own _mapcount + 1"],
      [
        'nr_pages_mapped',
        6,
        "the folio's _nr_pages_mapped as stored: pages mapped by a PTE, + ENTIRELY_MAPPED (8388608) while a PMD maps it (0 for a small folio)",
      ],
      [
        'large_mapcount',
        7,
        "the folio's _large_mapcount + 1: every PTE and PMD mapping it (6.10; a small folio: its mapcount)",
      ],
    ],
  },
  {
    ts: 'PG',
    c: 'mmsim_pageflags',
    prefix: 'MMSIM_PG_',
    keepCase: true,
    constObject: true,
    doc: "struct page.flags bits, named as the kernel's PG_* (include/linux/page-flags.h)",
    members: [
      ['locked', 0],
      ['writeback', 1],
      ['referenced', 2],
      ['uptodate', 3],
      ['dirty', 4],
      ['lru', 5],
      ['head', 6],
      ['active', 7],
      ['workingset', 8],
      ['reserved', 9],
      ['reclaim', 10, '== PG_readahead'],
      ['swapbacked', 11],
      ['unevictable', 12],
      ['mlocked', 13],
      ['hwpoison', 14],
      ['anon_exclusive', 15],
      ['buddy', 24, 'page type (the kernel keeps these in page_type)', 'MMSIM_PGTY_buddy'],
      ['table', 25, 'page type', 'MMSIM_PGTY_table'],
      ['tail', 26, 'the kernel marks tails in compound_head bit 0'],
      ['anon', 27, 'the kernel marks anon in page->mapping bit 0'],
    ],
  },
];

/* flag sets: #defines in C, a const object in TS; values may be bigint (PTE bits) */
export const flags = [
  {
    ts: 'PTE',
    prefix: 'MMSIM_PTE_',
    u64: true,
    doc: 'x86-64 PTE bits used by the model',
    members: [
      ['PRESENT', 1n << 0n],
      ['RW', 1n << 1n],
      ['USER', 1n << 2n],
      ['ACCESSED', 1n << 5n],
      ['DIRTY', 1n << 6n],
      ['PSE', 1n << 7n, 'huge PMD leaf (reserved for THP)'],
      ['SPECIAL', 1n << 9n, '_PAGE_SPECIAL: e.g. the zero page'],
      ['PFN_MASK', 0x000ffffffffff000n],
    ],
  },
  {
    ts: 'VM',
    prefix: 'MMSIM_VM_',
    doc: 'vm_flags (include/linux/mm.h values)',
    members: [
      ['READ', 0x1],
      ['WRITE', 0x2],
      ['EXEC', 0x4],
      ['SHARED', 0x8],
      ['MAYREAD', 0x10],
      ['MAYWRITE', 0x20],
      ['MAYSHARE', 0x80],
      ['SEQ_READ', 0x8000],
      ['RAND_READ', 0x10000],
      ['HUGEPAGE', 0x20000000],
      ['NOHUGEPAGE', 0x40000000],
    ],
  },
  {
    ts: 'VM_FAULT',
    prefix: 'MMSIM_VM_FAULT_',
    doc: 'vm_fault_t bits (include/linux/mm_types.h)',
    members: [
      ['OOM', 0x1],
      ['SIGBUS', 0x2],
      ['MAJOR', 0x4],
      ['SIGSEGV', 0x40],
      ['NOPAGE', 0x100],
      ['LOCKED', 0x200],
      ['RETRY', 0x400],
      ['FALLBACK', 0x800],
    ],
  },
  {
    ts: 'FAULT_FLAG',
    prefix: 'MMSIM_FAULT_FLAG_',
    doc: 'fault flags (enum fault_flag)',
    members: [
      ['WRITE', 0x1],
      ['ALLOW_RETRY', 0x4],
      ['TRIED', 0x20],
      ['USER', 0x40],
    ],
  },
  {
    ts: 'STEPF',
    prefix: 'MMSIM_STEPF_',
    doc: 'mmsim_step.flags',
    members: [
      ['SHARED', 0x1, 'mmap: MAP_SHARED'],
      ['WRITE', 0x2, 'mmap: PROT_WRITE; access: op write'],
      ['FIXED', 0x4, 'mmap: addr given (MAP_FIXED)'],
      ['MAPLIST', 0x8, 'access: data[] holds one map id per thread'],
      ['LENGTH', 0x10, 'length given (else: to the end)'],
    ],
  },
  {
    ts: 'FILEF',
    prefix: 'MMSIM_FILE_',
    doc: 'mmsim_prog_file.flags',
    members: [
      ['CACHED', 0x1, 'in the page cache before step 1'],
      ['SHMEM', 0x2, 'tmpfs: shmem_fault, no I/O, no write-notify'],
      ['SPARSE', 0x4, 'a disk file whose blocks are not written yet: a partial write reads nothing first'],
      [
        'ORDER0',
        0x8,
        'a disk file on a file system without large folios (large_folios: false, as ext4 mounted data=journal): order-0 page-cache folios under every kernel',
      ],
    ],
  },
  {
    ts: 'PROCF',
    prefix: 'MMSIM_PROC_',
    doc: 'mmsim_prog_proc.flags',
    members: [['FORKED', 0x1, 'created by a fork step, not present at start']],
  },
  {
    ts: 'PC_FLAG',
    prefix: 'MMSIM_PC_',
    doc: 'mmsim_pagecache_states() bits beside enum mmsim_pc_state',
    members: [
      ['READAHEAD', 0x10, 'PG_readahead'],
      ['CONT', 0x20, "the page continues the previous page's large folio"],
      ['STATE_MASK', 0x0f],
    ],
  },
];

/*
 * Global counters, in this order. `vmstat`: the name is /proc/vmstat's;
 * `gauge`: a state, not an event count; `model`: the model's own (the kernel
 * has no such counter), reported separately. `required`: scenario-format.md
 * makes every run report it. Mechanisms add their model counters in their
 * own description (appended after these).
 */
export const counters = [
  [
    'PGFAULT',
    'pgfault',
    { required: true, doc: 'page faults (every fault the fault handler completed, as 5.9+ counts them)' },
  ],
  ['PGMAJFAULT', 'pgmajfault', { required: true, doc: 'major faults: the page had to be read from disk' }],
  ['PGACTIVATE', 'pgactivate', { required: true, doc: 'pages moved to an active LRU list' }],
  ['PGDEACTIVATE', 'pgdeactivate', { required: true, doc: 'pages moved from an active list to an inactive one' }],
  [
    'PGROTATED',
    'pgrotated',
    { required: true, doc: 'pages moved to the tail of the inactive list (after writeback, or by fadvise)' },
  ],
  ['PGREFILL', 'pgrefill', { required: true, doc: 'pages the active list scan looked at (shrink_active_list)' }],
  ['PGSCAN', 'pgscan', { required: true, doc: 'pages reclaim scanned on the inactive lists (kswapd and direct)' }],
  ['PGSTEAL', 'pgsteal', { required: true, doc: 'pages reclaim freed' }],
  [
    'WORKINGSET_REFAULT',
    'workingset_refault',
    { required: true, doc: 'faults or reads of a page evicted before (a shadow entry found)' },
  ],
  [
    'VMACACHE_FIND_CALLS',
    'vmacache_find_calls',
    { required: true, doc: 'find_vma() calls (3.15 vmstat with CONFIG_DEBUG_VM_VMACACHE)' },
  ],
  ['VMACACHE_FIND_HITS', 'vmacache_find_hits', { required: true, doc: 'find_vma() calls the VMA cache answered' }],
  [
    'VMACACHE_FULL_FLUSHES',
    'vmacache_full_flushes',
    { doc: 'vmacache_flush_all(): the seqnum wrapped, every task of the mm flushed' },
  ],
  ['THP_FAULT_ALLOC', 'thp_fault_alloc', { required: true, doc: 'THPs allocated on a fault' }],
  [
    'THP_FAULT_FALLBACK',
    'thp_fault_fallback',
    { doc: 'THP faults that found no free 2 MiB block and fell back to 4 KiB pages' },
  ],
  [
    'PGINVALIDATE',
    'pginvalidate',
    { required: true, doc: "pages fadvise(DONTNEED) tried to drop (the seed's profiling counter)" },
  ],
  [
    'PGRECLAIM',
    'pgreclaim',
    { required: true, doc: "pages fadvise(DONTNEED) could not drop and deactivated (the seed's profiling counter)" },
  ],
  ['PGALLOC_NORMAL', 'pgalloc_normal', { doc: 'pages allocated' }],
  ['PGFREE', 'pgfree', { doc: 'pages freed' }],
  ['PGPGIN', 'pgpgin', { doc: 'KiB read from disk' }],
  ['PGPGOUT', 'pgpgout', { doc: 'KiB written to disk' }],
  ['PGREUSE', 'pgreuse', { doc: 'write faults that reused the page in place (wp_page_reuse)' }],
  ['NR_FREE_PAGES', 'nr_free_pages', { gauge: true, doc: 'free pages' }],
  ['NR_INACTIVE_ANON', 'nr_inactive_anon', { gauge: true, doc: 'pages on the inactive anonymous list' }],
  ['NR_ACTIVE_ANON', 'nr_active_anon', { gauge: true, doc: 'pages on the active anonymous list' }],
  ['NR_INACTIVE_FILE', 'nr_inactive_file', { gauge: true, doc: 'pages on the inactive file list' }],
  ['NR_ACTIVE_FILE', 'nr_active_file', { gauge: true, doc: 'pages on the active file list' }],
  ['NR_UNEVICTABLE', 'nr_unevictable', { gauge: true, doc: 'pages on the unevictable list' }],
  ['NR_FILE_PAGES', 'nr_file_pages', { gauge: true, doc: 'pages in the page cache (tmpfs included)' }],
  ['NR_MAPPED', 'nr_mapped', { gauge: true, doc: 'page-cache pages mapped by some process' }],
  ['NR_ANON_PAGES', 'nr_anon_pages', { gauge: true, doc: 'anonymous pages mapped' }],
  ['NR_SHMEM', 'nr_shmem', { gauge: true, doc: 'tmpfs and shmem pages' }],
  ['NR_DIRTY', 'nr_dirty', { gauge: true, doc: 'dirty page-cache pages' }],
  ['NR_WRITEBACK', 'nr_writeback', { gauge: true, doc: 'pages under writeback' }],
  ['NR_PAGE_TABLE_PAGES', 'nr_page_table_pages', { gauge: true, doc: 'pages holding page tables' }],
  ['MODEL_TOUCHES', 'touches', { model: true, doc: 'user-space touches run' }],
  ['MODEL_FAULT_RETRIES', 'fault_retries', { model: true, doc: 'faults that returned VM_FAULT_RETRY' }],
  [
    'MODEL_EVENTS_DROPPED',
    'events_dropped',
    { model: true, doc: 'events the host could not be given (out of memory for the buffer): never silent' },
  ],
];

/* Per-task counters (task_struct's min_flt/maj_flt and per-task vm events). */
export const taskCounters = [
  ['T_PGFAULT', 'pgfault'],
  ['T_MAJ_FLT', 'maj_flt'],
  ['T_MIN_FLT', 'min_flt'],
  ['T_VMACACHE_FIND_CALLS', 'vmacache_find_calls'],
  ['T_VMACACHE_FIND_HITS', 'vmacache_find_hits'],
  ['T_TOUCHES', 'touches'],
  ['T_PREFAULT_HITS', 'prefault_hits'],
  ['T_PREFAULT_PAGES', 'prefault_pages'],
];

/* Per-mm counters (mm->rss_stat and friends), signed. */
export const mmCounters = [
  ['MM_FILEPAGES', 'rss_file'],
  ['MM_ANONPAGES', 'rss_anon'],
  ['MM_SHMEMPAGES', 'rss_shmem'],
  ['MM_MAP_COUNT', 'map_count'],
  ['MM_PGTABLES', 'pgtables'],
];

/*
 * Events: fixed 32-byte records (struct mmsim_event), named like kernel
 * tracepoints; mechanisms append their own. Every event kind's fields are
 * described here, once: [name, type, doc, opts]. Types: 'addr' (the record's
 * u64 addr word), 'u32', 'i32', 'bool' (0/1 in a u32), 'u64' (two u32 words,
 * low first). Fields fill the u32 words a, b, c, d in order (opts.word pins
 * one: 'a'..'d'); opts.bits packs fields side by side in one word, low bits
 * first. opts.enum names the enum a value comes from, opts.unit its unit.
 *
 * Generated from this: the C emit helpers trace_<name>(sim, field...)
 * (src/trace_gen.h: a kind's fields as arguments, so no call site can fill
 * the wrong word), the TypeScript decoder with named fields (ev.pfn, not
 * ev.a) and their byte offsets, and the sentence each field's doc gives.
 */
export const events = [
  [
    'STEP',
    'mmsim_step',
    'step boundary',
    [
      ['op', 'u32', 'the step kind', { enum: 'Op' }],
      ['pc', 'u32', "the step index in the program (as the record's step)"],
    ],
  ],
  [
    'ACCESS',
    'mmsim_access',
    'touches that hit present PTEs, coalesced into one record',
    [
      ['address', 'addr', 'the first page touched'],
      ['count', 'u32', 'touches', { unit: 'touches' }],
      ['write', 'bool', 'the touches wrote (else read)'],
      ['last', 'u64', 'the last page touched'],
    ],
  ],
  [
    'PAGE_FAULT',
    'page_fault_user',
    'a user page fault, as the CPU traps (the x86 tracepoint; it fires before find_vma)',
    [
      ['address', 'addr', 'the faulting address'],
      ['error_code', 'u32', 'the hardware error code: 1 present, 2 write, 4 user'],
      ['flags', 'u32', 'the fault flags (FAULT_FLAG_*)', { flags: 'FAULT_FLAG' }],
      ['attempt', 'u32', '0, or 1.. for a retry', { word: 'd' }],
    ],
  ],
  [
    'FAULT_DONE',
    'mm_fault_done',
    'handle_mm_fault returned',
    [
      ['address', 'addr', 'the faulting address'],
      ['ret', 'u32', 'the vm_fault_t returned (VM_FAULT_*)', { flags: 'VM_FAULT' }],
      ['kind', 'u32', 'how the fault was resolved', { enum: 'FaultKind' }],
      ['mapped', 'u32', 'pages this fault mapped', { unit: 'pages' }],
    ],
  ],
  [
    'PGTABLE_ALLOC',
    'mm_pgtable_alloc',
    'a page-table page allocated',
    [
      ['address', 'addr', 'the address being faulted'],
      ['level', 'u32', 'the level of the new table', { enum: 'PgtLevel' }],
      ['pfn', 'u32', "the table's page frame"],
    ],
  ],
  [
    'PGTABLE_FREE',
    'mm_pgtable_free',
    'a page-table page freed',
    [
      ['address', 'addr', 'the start of the span it mapped'],
      ['level', 'u32', 'its level', { enum: 'PgtLevel' }],
      ['pfn', 'u32', "the table's page frame"],
    ],
  ],
  [
    'MAP_PAGES',
    'mm_filemap_map_pages',
    'the fault-around window (filemap_map_pages)',
    [
      ['address', 'addr', 'the address of start_pgoff'],
      ['file', 'u32', 'the file'],
      ['start_pgoff', 'u32', 'the first page of the window'],
      ['end_pgoff', 'u32', 'the last page of the window'],
      ['fault_pgoff', 'u32', 'the faulting page'],
    ],
  ],
  [
    'SET_PTE',
    'mm_set_pte',
    'a PTE set',
    [
      ['address', 'addr', 'the virtual address'],
      ['pfn', 'u32', 'the page frame mapped (0: the zero page)'],
      ['pgoff', 'u32', 'the page index: in the file, or in the anonymous mapping'],
      ['how', 'u32', 'how the page got mapped', { enum: 'SetHow' }],
      ['pte_flags', 'u32', "the PTE's low 12 bits (PTE_*)"],
    ],
  ],
  [
    'MAP_SKIP',
    'mm_filemap_map_skip',
    'filemap_map_pages skipped a page',
    [
      ['address', 'addr', 'the address of the page'],
      ['pgoff', 'u32', 'the file page'],
      ['reason', 'u32', 'why it was not mapped', { enum: 'SkipReason' }],
      ['pfn', 'u32', 'its page frame, or 0 when there is none'],
    ],
  ],
  [
    'FILEMAP_FAULT',
    'mm_filemap_fault',
    '->fault (filemap_fault)',
    [
      ['address', 'addr', 'the faulting address'],
      ['file', 'u32', 'the file'],
      ['pgoff', 'u32', 'the file page'],
      ['cached', 'bool', 'the page was in the page cache'],
    ],
  ],
  [
    'SYNC_RA',
    'page_cache_sync_ra',
    'synchronous readahead, or the mmap read-around of a major fault',
    [
      ['address', 'addr', 'the faulting address (read-around), or 0'],
      ['file', 'u32', 'the file'],
      ['start', 'u32', 'the first page of the window'],
      ['size', 'u32', 'pages in the window', { unit: 'pages' }],
      ['async_size', 'u32', 'pages before its end where PG_readahead is set', { unit: 'pages' }],
    ],
  ],
  [
    'ASYNC_RA',
    'page_cache_async_ra',
    'asynchronous readahead (a PG_readahead page was reached)',
    [
      ['file', 'u32', 'the file'],
      ['start', 'u32', 'the first page of the window'],
      ['size', 'u32', 'pages in the window', { unit: 'pages' }],
      ['async_size', 'u32', 'pages before its end where PG_readahead is set', { unit: 'pages' }],
    ],
  ],
  [
    'ADD_TO_PAGE_CACHE',
    'mm_filemap_add_to_page_cache',
    'a folio entered the page cache',
    [
      ['file', 'u32', 'the file', { bits: 16 }],
      ['order', 'u32', "the folio's order (0: one page)", { bits: 16 }],
      ['pgoff', 'u32', 'the file page (the first, for a large folio)'],
      ['pfn', 'u32', 'its page frame (the head page)'],
      ['page_flags', 'u32', 'its page flags (PG_*)'],
    ],
  ],
  [
    'DELETE_FROM_PAGE_CACHE',
    'mm_filemap_delete_from_page_cache',
    'a folio left the page cache',
    [
      ['file', 'u32', 'the file', { bits: 16 }],
      ['order', 'u32', "the folio's order (0: one page)", { bits: 16 }],
      ['pgoff', 'u32', 'the file page (the first, for a large folio)'],
      ['pfn', 'u32', 'its page frame (the head page)'],
      ['shadow', 'bool', 'reclaim left a shadow entry in its place'],
    ],
  ],
  [
    'IO_DONE',
    'mmsim_read_done',
    'a read request completed',
    [
      ['file', 'u32', 'the file'],
      ['start', 'u32', 'the first page read'],
      ['nr', 'u32', 'pages read', { unit: 'pages' }],
      ['req', 'u32', 'the request id'],
    ],
  ],
  [
    'IO_SUBMIT',
    'mmsim_read_submit',
    'a read request submitted',
    [
      ['file', 'u32', 'the file'],
      ['start', 'u32', 'the first page to read'],
      ['nr', 'u32', 'pages to read', { unit: 'pages' }],
      ['req', 'u32', 'the request id'],
    ],
  ],
  [
    'FOLIO_WAIT',
    'mmsim_folio_wait',
    'a task waited for a locked folio (its read in flight)',
    [
      ['file', 'u32', 'the file'],
      ['pgoff', 'u32', 'the file page'],
      ['req', 'u32', 'the read request it waited for'],
    ],
  ],
  [
    'VMA_ADD',
    'mmsim_vma_add',
    'a VMA was created',
    [
      ['vm_start', 'addr', 'its start'],
      ['mm', 'u32', 'the address space'],
      ['vma', 'u32', 'the VMA id'],
      ['vm_end', 'u64', 'its end'],
    ],
  ],
  [
    'VMA_REMOVE',
    'mmsim_vma_remove',
    'a VMA was removed',
    [
      ['vm_start', 'addr', 'its start'],
      ['mm', 'u32', 'the address space'],
      ['vma', 'u32', 'the VMA id'],
      ['vm_end', 'u64', 'its end'],
    ],
  ],
  [
    'VMA_SPLIT',
    'mmsim_vma_split',
    'a VMA was split in two',
    [
      ['vm_start', 'addr', 'the start of the VMA split'],
      ['mm', 'u32', 'the address space'],
      ['vma', 'u32', 'the id of the new, upper VMA'],
      ['vm_end', 'u64', "where it was split (the lower part's new end)"],
    ],
  ],
  [
    'VMA_MERGE',
    'mmsim_vma_merge',
    'two VMAs were merged into one',
    [
      ['vm_start', 'addr', "the merged VMA's start"],
      ['mm', 'u32', 'the address space'],
      ['vma', 'u32', 'the VMA that remains'],
      ['vm_end', 'u64', "the merged VMA's end"],
    ],
  ],
  [
    'VMA_FLAGS',
    'mmsim_vma_flags',
    "a VMA's flags changed (madvise)",
    [
      ['vm_start', 'addr', 'its start'],
      ['mm', 'u32', 'the address space'],
      ['vma', 'u32', 'the VMA id'],
      ['vm_flags', 'u32', 'the new flags (VM_*)', { flags: 'VM' }],
    ],
  ],
  [
    'ZAP',
    'mmsim_zap_range',
    'PTEs cleared by munmap, madvise(DONTNEED) or exit (one mmsim_pte_clear per cleared PTE precedes it)',
    [
      ['start', 'addr', 'the start of the range'],
      ['cleared', 'u32', 'PTEs cleared', { unit: 'PTEs' }],
      ['freed', 'u32', 'pages freed', { unit: 'pages' }],
      ['end', 'u64', 'the end of the range'],
    ],
  ],
  [
    'PAGE_ALLOC',
    'mm_page_alloc',
    'a page or folio allocated',
    [
      ['pfn', 'u32', 'its first page frame'],
      ['order', 'u32', 'its order (2^order pages)'],
      ['use', 'u32', 'what it is for', { enum: 'PageUse' }],
    ],
  ],
  [
    'PAGE_FREE',
    'mm_page_free',
    'a page or folio freed',
    [
      ['pfn', 'u32', 'its first page frame'],
      ['order', 'u32', 'its order (2^order pages)'],
    ],
  ],
  [
    'LRU_ADD',
    'mm_lru_insertion',
    'a folio put on an LRU list (its pagevec drained)',
    [
      ['page', 'addr', 'the page: (file + 1) << 32 | pgoff for a file page, 0 for an anonymous one'],
      ['pfn', 'u32', 'its page frame'],
      ['lru', 'u32', 'the list', { enum: 'LruList' }],
    ],
  ],
  [
    'LRU_ACTIVATE',
    'mm_lru_activate',
    'activate_page(): a second access moved a folio to its active list',
    [
      ['page', 'addr', 'the page (as mm_lru_insertion)'],
      ['pfn', 'u32', 'its page frame'],
      ['lru', 'u32', 'the active list it went to', { enum: 'LruList' }],
      ['from', 'u32', 'the inactive list it left', { enum: 'LruList' }],
    ],
  ],
  [
    'PRELOAD',
    'mmsim_file_preload',
    'a file was put in the page cache before step 1 (cached: all)',
    [
      ['file', 'u32', 'the file'],
      ['nr', 'u32', 'pages', { unit: 'pages' }],
    ],
  ],
  [
    'FORK',
    'mmsim_fork',
    'a process forked',
    [
      ['parent', 'u32', "the parent's address space"],
      ['child', 'u32', "the child's address space"],
    ],
  ],
  ['EXIT', 'mmsim_exit', 'a process exited', [['mm', 'u32', 'its address space']]],
  [
    'EXPECT',
    'mmsim_expect',
    'an expect step',
    [
      ['pass', 'bool', 'every item held'],
      ['checked', 'u32', 'items checked'],
      ['failed', 'u32', 'items that failed'],
    ],
  ],
  ['SAY', 'mmsim_say', 'a say step', [['text', 'u32', "the data index of its text (the host's)"]]],
  [
    'ERROR',
    'mmsim_error',
    'the run stopped with an error',
    [
      ['address', 'addr', 'the address involved, or 0'],
      ['error', 'u32', 'the error, negated (-MMSIM_E*)'],
      ['pc', 'u32', 'the step it stopped at'],
    ],
  ],
  [
    'SHMEM_FAULT',
    'mmsim_shmem_fault',
    'shmem_fault() on a tmpfs file (the kernel has no tracepoint here)',
    [
      ['address', 'addr', 'the faulting address'],
      ['file', 'u32', 'the file'],
      ['pgoff', 'u32', 'the file page'],
      ['found', 'bool', 'the page existed (else a hole got a new page)'],
    ],
  ],
  [
    'RA_MARK',
    'mmsim_readahead_mark',
    'PG_readahead set on a page (readahead) or cleared (the mark was reached)',
    [
      ['file', 'u32', 'the file'],
      ['pgoff', 'u32', 'the file page'],
      ['set', 'bool', 'set (else cleared)'],
    ],
  ],
  [
    'PTE_CLEAR',
    'mmsim_pte_clear',
    'a present PTE cleared (zap_pte_range: munmap, madvise(DONTNEED), exit; reclaim and splits)',
    [
      ['address', 'addr', 'the virtual address'],
      ['pfn', 'u32', 'the page frame it mapped'],
      ['mm', 'u32', 'the address space'],
    ],
  ],
];

/*
 * The kernels a scenario can name (kernel: version:), oldest first: each is the set of rules the model
 * follows for every behaviour it has. A tunable's `versions` map (value -> the kernel where that value
 * became the rule) gives its default under each version: the value of the latest kernel at or before the
 * version, the oldest value before all of them. A key the scenario sets explicitly wins over the version.
 */
export const kernelVersions = ['2.6.38', '2.6.39', '3.14', '3.15', '6.9', '6.10', '6.12', '6.18'];

/* the core's own kernel key: which kernel's rules (the header carries it, for the record: the core reads
   every behaviour from its own key, never from the version) */
export const kernel = [
  {
    key: 'version',
    field: 'kernel_version',
    type: 'choice',
    choices: kernelVersions,
    default: '6.18',
    cEnum: 'mmsim_kernel_version',
    cPrefix: 'MMSIM_KERNEL_',
    kernel: 'all',
    status: 'modelled',
    quick: true,
    readsAlone: true,
    desc: "The kernel whose rules the run follows: each tunable it does not set takes that kernel's value (fault_around_bytes from 3.15, the VMA cache from 3.14 to 6.0, fadvise_dontneed, workingset, large_mapcount, nr_pages_mapped_batching...). Without it, 6.18: today's kernel. A seed scenario names its seed's kernel.",
  },
];

/*
 * Settings the program header carries besides the kernel tunables (which
 * come from the mechanisms): the machine. `key` is the scenario's (and
 * --set's) name; `field` the header field. Same fields as a tunable.
 */
export const machine = [
  {
    key: 'machine.memory',
    field: 'memory',
    type: 'size',
    ctype: 'u64',
    page: true,
    min: 2 ** 20,
    max: 2 ** 42,
    default: 4 * 2 ** 30,
    unit: 'bytes',
    kernel: '-',
    desc: "Page frames the simulator may hand out (the machine's RAM; at most 4 TiB, so that pfns stay below 2^31).",
  },
  {
    key: 'machine.io_latency',
    field: 'io_latency',
    type: 'int',
    min: 0,
    max: 1_000_000,
    default: 0,
    unit: 'operations',
    kernel: '-',
    sweep: [0, 5, 10, 20, 30, 50, 100],
    desc: "This model's read I/O time: a read completes this many operations (touches and steps) after it is submitted (0: at once).",
  },
];

/*
 * Structs: the program (header, files, processes, steps, then nr_data u64)
 * and what the queries fill in. `tunables: true` in the header expands to one
 * u32 per kernel tunable and per u32 machine setting, in registry order.
 */
export const structs = [
  {
    name: 'event',
    doc: '32 bytes, one trace record',
    fields: [
      ['type', 'u16', 'enum mmsim_event_type | MMSIM_EVF_OP_START'],
      ['task', 'u16', 'task id, 0xffff when none'],
      ['step', 'u32', 'program step index'],
      ['addr', 'u64'],
      ['a', 'u32'],
      ['b', 'u32'],
      ['c', 'u32'],
      ['d', 'u32'],
    ],
  },
  {
    name: 'prog_header',
    doc: "the program's first record",
    fields: [
      ['magic', 'u32', 'MMSIM_PROG_MAGIC'],
      ['abi', 'u32', 'MMSIM_ABI_VERSION'],
      ['seed', 'u64'],
      ['memory', 'u64', 'machine.memory, bytes'],
      { tunables: true },
      ['nr_files', 'u32'],
      ['nr_procs', 'u32'],
      ['nr_tasks', 'u32'],
      ['nr_maps', 'u32', 'number of distinct map names'],
      ['nr_steps', 'u32'],
      ['nr_data', 'u32'],
    ],
  },
  {
    name: 'prog_file',
    fields: [
      ['size', 'u64', 'bytes'],
      ['flags', 'u32', 'MMSIM_FILE_*'],
      ['reserved', 'u32'],
    ],
  },
  {
    name: 'prog_proc',
    fields: [
      ['threads', 'u32'],
      ['first_task', 'u32', 'task ids first_task .. first_task+threads-1'],
      ['flags', 'u32', 'MMSIM_PROC_*'],
      ['vmacache_seqnum', 'u32', "the mm's initial vmacache_seqnum (0 unless the scenario sets it)"],
    ],
  },
  {
    name: 'step',
    doc: '64 bytes, one program step',
    fields: [
      ['op', 'u8', 'enum mmsim_op'],
      ['flags', 'u8', 'MMSIM_STEPF_*'],
      ['kind', 'u8', 'access: pattern; madvise/fadvise: advice'],
      ['reserved', 'u8'],
      ['task', 'u32'],
      ['map', 'u32', 'map name id'],
      ['file', 'u32', 'file id; fork: child process id'],
      ['offset', 'u64'],
      ['length', 'u64'],
      ['stride', 'u64', 'access, repeat: bytes'],
      ['count', 'u64', 'access uniform: touches; repeat: times'],
      ['addr', 'u64', 'mmap: fixed address; repeat: body length in steps'],
      ['data', 'u32', 'index into the data table'],
      ['ndata', 'u32', 'number of u64 words there'],
    ],
  },
  {
    name: 'error_info',
    fields: [
      ['code', 'i32', 'enum mmsim_error'],
      ['step', 'u32', 'program step index, MMSIM_NONE if none'],
      ['task', 'u32'],
      ['reserved', 'u32'],
      ['addr', 'u64', 'faulting address or other detail'],
      ['detail', 'u64', 'error-specific: needed frames, limit...'],
    ],
  },
  {
    name: 'expect_failure',
    fields: [
      ['step', 'u32'],
      ['item', 'u32', 'index of the (key,value) pair in the step'],
      ['key', 'u64'],
      ['expected', 'u64'],
      ['actual', 'u64', 'MMSIM_UNLIMITED when the folio was not mapped'],
    ],
  },
  {
    name: 'vma_info',
    fields: [
      ['vm_start', 'u64'],
      ['vm_end', 'u64'],
      ['vm_pgoff', 'u64'],
      ['vm_flags', 'u32'],
      ['file', 'u32', 'file id + 1, 0 = anonymous'],
      ['id', 'u32'],
      ['anon_vma', 'u32'],
      ['map', 'u32', 'map name id that created it, MMSIM_NONE if unknown'],
      ['reserved', 'u32'],
    ],
  },
  {
    name: 'walk',
    doc: 'one page-table walk (PGD -> PTE)',
    fields: [
      ['addr', 'u64'],
      ['entry', 'u64', 'entry read at each level (0 = none)', 4],
      ['table_pfn', 'u32', 'pfn of the table read at each level (0 = none)', 4],
      ['index', 'u32', 'index within each table', 4],
    ],
  },
  {
    name: 'page_info',
    fields: [
      ['pfn', 'u32'],
      ['flags', 'u32'],
      ['refcount', 'i32'],
      ['mapcount', 'i32', '_mapcount + 1'],
      ['mapping', 'u32', 'file id + 1, or anon_vma | 0x80000000, 0'],
      ['index', 'u32'],
      ['order', 'u32'],
      ['lru', 'u32', 'enum mmsim_lru_list, MMSIM_NONE if not on an LRU'],
    ],
  },
  {
    name: 'task_info',
    fields: [
      ['mm', 'u32', 'process id'],
      ['alive', 'u32'],
      ['counters', 'u64', 'enum mmsim_task_counter order', 'taskCounters'],
    ],
  },
  {
    name: 'mm_info',
    fields: [
      ['alive', 'u32'],
      ['nr_vmas', 'u32'],
      ['pgd_pfn', 'u32'],
      ['exited', 'u32', '1 once the process exited; alive and exited both 0: not forked yet'],
      ['counters', 'i64', 'enum mmsim_mm_counter order', 'mmCounters'],
    ],
  },
  {
    name: 'file_info',
    fields: [
      ['size', 'u64'],
      ['nrpages', 'u32'],
      ['mmap_miss', 'u32'],
      ['ra_start', 'u64'],
      ['ra_size', 'u32'],
      ['ra_async_size', 'u32'],
    ],
  },
];

/*
 * Exported functions, as C prototypes with a doc line. The generator emits
 * the prototypes (mmsim_gen.h), the wasm export list and the TypeScript
 * signatures (a pointer or size_t is an i32 in wasm32, a 64-bit integer a
 * bigint). `libc` ones are not declared again. C-only helpers (mmsim_create
 * with a config struct) stay in mmsim.h.
 */
export const exports = [
  ['void *malloc(size_t n)', 'libc, for the host to pass buffers', { libc: true }],
  ['void free(void *p)', '', { libc: true }],
  ['uint32_t mmsim_abi_version(void)', 'MMSIM_ABI_VERSION'],
  [
    'uint32_t mmsim_interface_hash(void)',
    'a hash of this whole description: the host refuses a core built from another',
  ],
  [
    'struct mmsim *mmsim_create_with(int trace, int debug_vm, uint32_t event_capacity, uint64_t max_bytes)',
    'create a machine without a config struct (max_bytes 0: no limit); NULL if out of memory',
  ],
  ['void mmsim_destroy(struct mmsim *sim)', ''],
  [
    'int mmsim_load(struct mmsim *sim, const void *prog, size_t len)',
    'load a program (copied); 0 or enum mmsim_error, then mmsim_last_error() tells the step',
  ],
  [
    'int mmsim_run(struct mmsim *sim, uint64_t work_budget, uint64_t stop_event)',
    'run until the end, an error, work_budget more operations (touches and steps), the total event count reaching stop_event, or a full event buffer; returns enum mmsim_run_status',
  ],
  ['uint64_t mmsim_work_done(const struct mmsim *sim)', 'operations done so far'],
  [
    'uint64_t mmsim_work_total(const struct mmsim *sim)',
    'operations the program will do (known at load), for progress bars',
  ],
  ['int mmsim_finished(const struct mmsim *sim)', ''],
  ['const struct mmsim_error_info *mmsim_last_error(const struct mmsim *sim)', ''],
  ['uint32_t mmsim_nr_expect_failures(const struct mmsim *sim)', ''],
  ['const struct mmsim_expect_failure *mmsim_expect_failure(const struct mmsim *sim, uint32_t i)', ''],
  ['uint32_t mmsim_steps_executed(const struct mmsim *sim)', ''],
  ['void mmsim_set_trace(struct mmsim *sim, int on)', 'record events or not'],
  ['const struct mmsim_event *mmsim_events(const struct mmsim *sim)', 'the buffered event records'],
  ['uint32_t mmsim_nr_events(const struct mmsim *sim)', ''],
  ['void mmsim_events_clear(struct mmsim *sim)', ''],
  ['uint64_t mmsim_events_total(const struct mmsim *sim)', 'events emitted since load'],
  ['const char *mmsim_event_name(uint32_t type)', ''],
  ['uint64_t mmsim_counter(const struct mmsim *sim, uint32_t id)', ''],
  ['const uint64_t *mmsim_counters(const struct mmsim *sim)', 'all counters, enum mmsim_counter order'],
  ['const char *mmsim_counter_name(uint32_t id)', ''],
  ['const char *mmsim_task_counter_name(uint32_t id)', ''],
  ['uint32_t mmsim_nr_tasks(const struct mmsim *sim)', ''],
  ['uint32_t mmsim_nr_mms(const struct mmsim *sim)', ''],
  ['int mmsim_task_info(const struct mmsim *sim, uint32_t task, struct mmsim_task_info *out)', ''],
  ['int mmsim_mm_info(const struct mmsim *sim, uint32_t mm, struct mmsim_mm_info *out)', ''],
  ['int mmsim_file_info(const struct mmsim *sim, uint32_t file, struct mmsim_file_info *out)', ''],
  ['uint32_t mmsim_vmas(const struct mmsim *sim, uint32_t mm, struct mmsim_vma_info *out, uint32_t max)', ''],
  ['int mmsim_walk(const struct mmsim *sim, uint32_t mm, uint64_t addr, struct mmsim_walk *out)', ''],
  [
    'uint32_t mmsim_pte_table(const struct mmsim *sim, uint32_t mm, uint64_t addr, uint64_t *out512)',
    'copy the 512 entries of the PTE table that maps addr (zeros if none); returns its pfn or 0',
  ],
  ['int mmsim_page_info(const struct mmsim *sim, uint32_t pfn, struct mmsim_page_info *out)', ''],
  [
    'uint32_t mmsim_pte_states(const struct mmsim *sim, uint32_t mm, uint64_t start, uint32_t n, uint8_t *out)',
    'per page of [start, start + n pages): bit 0 present, bit 1 writable (0 none, 1 read-only, 3 writable), +4 anonymous, +8 zero page, +16 mapped by a PMD leaf (a THP; 8 + 16 the huge zero page)',
  ],
  [
    'uint32_t mmsim_pte_heat(const struct mmsim *sim, uint32_t mm, uint64_t start, uint64_t end, uint32_t n, uint32_t *out)',
    'heat strip: [start,end) split in n buckets; out[i] = pages mapped (present PTEs, or under a PMD leaf) in bucket i',
  ],
  [
    'uint32_t mmsim_pagecache(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n, uint32_t *out)',
    'page cache of a file from pgoff: out[i] = pfn or 0 (MMSIM_NONE for a shadow entry)',
  ],
  [
    'uint32_t mmsim_pagecache_states(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n, uint8_t *out)',
    'page-cache state from pgoff, for drawing: out[i] = MMSIM_PC_* | MMSIM_PC_READAHEAD',
  ],
  [
    'uint32_t mmsim_lru_head(const struct mmsim *sim, uint32_t list, uint32_t *out, uint32_t max)',
    'the first max pfns of an LRU list',
  ],
  ['uint64_t mmsim_snapshot_size(const struct mmsim *sim)', ''],
  ['int mmsim_snapshot_save(const struct mmsim *sim, void *buf, uint64_t len)', ''],
  ['int mmsim_snapshot_restore(struct mmsim *sim, const void *buf, uint64_t len)', ''],
  [
    'int mmsim_capture_at(struct mmsim *sim, uint64_t event)',
    'arm a capture: save the whole state when the event count reaches event (right after event - 1 is recorded), even inside an operation; drops the previous capture',
  ],
  [
    'int mmsim_capture_restore(struct mmsim *sim)',
    'put the captured state in place: the machine stands inside an operation, for queries only (mmsim_run refuses until a snapshot is restored); MMSIM_EINVAL if nothing was captured',
  ],
  [
    'void mmsim_capture_release(struct mmsim *sim)',
    "free the capture's buffer and disarm: its memory no longer counts against the machine's (a frame taken while a run still records)",
  ],
  ['uint64_t mmsim_mem_bytes(const struct mmsim *sim)', 'host memory the core holds (bytes), now'],
  ['uint64_t mmsim_mem_peak(const struct mmsim *sim)', 'and at most'],
  [
    'int mmsim_check(struct mmsim *sim, char *msg, uint32_t msg_len)',
    'CONFIG_DEBUG_VM-style invariant check; 0 if sound, else < 0 and a message',
  ],
  ['const char *mmsim_check_message(const struct mmsim *sim)', 'the message of the last failed check run by debug_vm'],
  [
    'const char *mmsim_load_message(const struct mmsim *sim)',
    'why mmsim_load() refused a program (a short English phrase)',
  ],
  [
    'const uint32_t *mmsim_layout(void)',
    'the layout table (interface_gen.c): what the compiler made of this description, for the drift test',
  ],
  ['uint32_t mmsim_layout_len(void)', 'rows in the layout table'],
  [
    'void mmsim_trace_selftest(struct mmsim *sim)',
    'emit every event kind once through its generated helper, each field a sentinel value (the drift test decodes them by name)',
  ],
];

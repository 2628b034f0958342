/*
 * mmsim.h - a deterministic model of the Linux kernel's memory management
 *
 * What it is
 * ----------
 * One struct (struct mmsim) holds a whole simulated machine: page frames and
 * folios with the kernel's page flags, refcount and mapcount; processes (mm)
 * with threads (tasks); VMAs in a red-black tree; 4-level x86-64 page tables;
 * files with a page cache; the page-fault path with fault-around and
 * read-around; the LRU lists; vmstat counters. It runs a *program*: a scenario
 * compiled by the TypeScript loader (wasm-core/ts/compile.ts) into fixed-layout
 * records (struct mmsim_prog_header, _file, _proc, _step and a u64 data table).
 *
 * The core prints nothing and reads no files. It allocates only through
 * mmsim_config.alloc/free (malloc by default). It reports everything as
 * counters (enum mmsim_counter, kernel /proc/vmstat names) and as a stream of
 * fixed-layout events (struct mmsim_event, named like kernel tracepoints).
 * Native (gcc) and WebAssembly builds give bit-identical results: every choice
 * derives from the scenario's seed and no pointer value ever leaks into state
 * (everything is addressed by 32-bit indices).
 *
 * Usage
 * -----
 *     struct mmsim_config cfg;
 *     mmsim_config_default(&cfg);
 *     cfg.trace = 1;                            // record events
 *     struct mmsim *sim = mmsim_create(&cfg);
 *     int err = mmsim_load(sim, prog, prog_len); // < 0: bad program
 *     for (;;) {
 *         int st = mmsim_run(sim, MMSIM_UNLIMITED, MMSIM_UNLIMITED);
 *         // consume mmsim_events(sim)[0 .. mmsim_nr_events(sim)), then:
 *         mmsim_events_clear(sim);
 *         if (st != MMSIM_RUN_EVENTS_FULL) break;  // DONE or ERROR (or a budget)
 *     }
 *     uint64_t faults = mmsim_counter(sim, MMSIM_PGFAULT);
 *     mmsim_destroy(sim);
 *
 * mmsim_run() stops only between two *operations* (one user-space touch with
 * the fault it may take, or one whole non-access step), so a run interrupted by
 * a budget and resumed emits exactly the same events as an uninterrupted one.
 * The first event of each operation carries MMSIM_EVF_OP_START.
 *
 * Time travel: mmsim_snapshot_save() serialises the whole simulated state (not
 * the program, which is immutable once loaded); mmsim_snapshot_restore() puts
 * it back. Restore a snapshot taken at event e0 and call
 * mmsim_run(sim, MMSIM_UNLIMITED, e) to stand at the operation boundary e.
 *
 * Where the model follows which kernel is documented per mechanism at the top
 * of each src/ file; the rules come from ../shared/docs/kernel-mechanisms.md.
 */
#ifndef MMSIM_H
#define MMSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump on any change of a struct below or of an enum's numbering. */
#define MMSIM_ABI_VERSION 2
#define MMSIM_PROG_MAGIC 0x50534d4du /* "MMSP" little-endian */
#define MMSIM_SNAP_MAGIC 0x4e534d4du /* "MMSN" */

#define MMSIM_PAGE_SHIFT 12
#define MMSIM_PAGE_SIZE (1u << MMSIM_PAGE_SHIFT)
#define MMSIM_UNLIMITED UINT64_MAX
#define MMSIM_NONE 0xffffffffu

/* ------------------------------------------------------------------ errors */

enum mmsim_error {
	MMSIM_OK = 0,
	MMSIM_ENOMEM = -1,        /* the host refused memory (mmsim_config.max_bytes or malloc) */
	MMSIM_EINVAL = -2,        /* malformed program or argument */
	MMSIM_EOOM = -3,          /* machine.memory exhausted for a non-reclaimable need */
	MMSIM_ESEGV = -4,         /* access outside any VMA, or a write to a read-only VMA */
	MMSIM_ESIGBUS = -5,       /* access to a page of a file mapping beyond EOF */
	MMSIM_ENOMAP = -6,        /* the task's process has no mapping of that name */
	MMSIM_ENOTASK = -7,       /* the task (or its process) does not exist or has exited */
	MMSIM_ELIMIT = -8,        /* a model limit (VMAs, processes, events per op...) */
	MMSIM_ENOTIMPL = -9,      /* a step kind this version of the model does not run yet */
	MMSIM_EEXIST = -10,       /* the name is already mapped in that process */
	MMSIM_EABI = -11,         /* program built for another ABI version */
	MMSIM_ESTATE = -12,       /* call not allowed in this state (e.g. run before load) */
	MMSIM_EINVARIANT = -13,   /* the debug_vm invariant checker failed: mmsim_check_message() */
};

/* ------------------------------------------------------------- run status */

enum mmsim_run_status {
	MMSIM_RUN_DONE = 0,        /* the program ran to its end */
	MMSIM_RUN_WORK = 1,        /* stopped: work budget reached */
	MMSIM_RUN_STOP_EVENT = 2,  /* stopped: event count reached stop_event */
	MMSIM_RUN_EVENTS_FULL = 3, /* stopped: drain the event buffer and call again */
	MMSIM_RUN_ERROR = 4,       /* stopped for good: see mmsim_last_error() */
};

/* ----------------------------------------------------------------- tunables */

enum mmsim_vmacache_mode { MMSIM_VMACACHE_PER_THREAD = 0, MMSIM_VMACACHE_MM_WIDE = 1 };
enum mmsim_prefault_mode { MMSIM_PREFAULT_OFF = 0, MMSIM_PREFAULT_ANTICIPATORY = 1 };
enum mmsim_thp_mode { MMSIM_THP_NEVER = 0, MMSIM_THP_MADVISE = 1, MMSIM_THP_ALWAYS = 2 };
enum mmsim_fadvise_mode { MMSIM_FADVISE_DEACTIVATE = 0, MMSIM_FADVISE_INVALIDATE_ONLY = 1 };

/* ---------------------------------------------------------------- counters */

/*
 * Global counters. Names (mmsim_counter_name) are /proc/vmstat's where the
 * kernel has the counter; MMSIM_MODEL_* counters are the model's own (the
 * kernel has no such counter) and are reported separately by the hosts.
 */
#define MMSIM_COUNTERS(X)                                                     \
	/* events (monotonic) */                                              \
	X(PGFAULT, "pgfault")                                                 \
	X(PGMAJFAULT, "pgmajfault")                                           \
	X(PGACTIVATE, "pgactivate")                                           \
	X(PGDEACTIVATE, "pgdeactivate")                                       \
	X(PGROTATED, "pgrotated")                                             \
	X(PGREFILL, "pgrefill")                                               \
	X(PGSCAN, "pgscan")                                                   \
	X(PGSTEAL, "pgsteal")                                                 \
	X(WORKINGSET_REFAULT, "workingset_refault")                           \
	X(VMACACHE_FIND_CALLS, "vmacache_find_calls")                         \
	X(VMACACHE_FIND_HITS, "vmacache_find_hits")                           \
	X(VMACACHE_FULL_FLUSHES, "vmacache_full_flushes")                     \
	X(THP_FAULT_ALLOC, "thp_fault_alloc")                                 \
	X(THP_FAULT_FALLBACK, "thp_fault_fallback")                           \
	X(PGINVALIDATE, "pginvalidate")                                       \
	X(PGRECLAIM, "pgreclaim")                                             \
	X(PGALLOC_NORMAL, "pgalloc_normal")                                   \
	X(PGFREE, "pgfree")                                                   \
	X(PGPGIN, "pgpgin")                                                   \
	X(PGPGOUT, "pgpgout")                                                 \
	X(PGREUSE, "pgreuse")                                                 \
	/* state (gauges) */                                                  \
	X(NR_FREE_PAGES, "nr_free_pages")                                     \
	X(NR_INACTIVE_ANON, "nr_inactive_anon")                               \
	X(NR_ACTIVE_ANON, "nr_active_anon")                                   \
	X(NR_INACTIVE_FILE, "nr_inactive_file")                               \
	X(NR_ACTIVE_FILE, "nr_active_file")                                   \
	X(NR_UNEVICTABLE, "nr_unevictable")                                   \
	X(NR_FILE_PAGES, "nr_file_pages")                                     \
	X(NR_MAPPED, "nr_mapped")                                             \
	X(NR_ANON_PAGES, "nr_anon_pages")                                     \
	X(NR_SHMEM, "nr_shmem")                                               \
	X(NR_DIRTY, "nr_dirty")                                               \
	X(NR_WRITEBACK, "nr_writeback")                                       \
	X(NR_PAGE_TABLE_PAGES, "nr_page_table_pages")                         \
	/* the model's own */                                                 \
	X(MODEL_TOUCHES, "touches")                                           \
	X(MODEL_FAULT_AROUND_CALLS, "fault_around_calls")                     \
	X(MODEL_FAULT_AROUND_MAPPED, "fault_around_mapped")                   \
	X(MODEL_FAULT_AROUND_SKIPPED, "fault_around_skipped")                 \
	X(MODEL_FAULT_RETRIES, "fault_retries")                               \
	X(MODEL_READAHEAD_PAGES, "readahead_pages")

enum mmsim_counter {
#define MMSIM_X_ENUM(id, name) MMSIM_##id,
	MMSIM_COUNTERS(MMSIM_X_ENUM)
#undef MMSIM_X_ENUM
	MMSIM_NR_COUNTERS
};
#define MMSIM_FIRST_GAUGE MMSIM_NR_FREE_PAGES
#define MMSIM_FIRST_MODEL_COUNTER MMSIM_MODEL_TOUCHES

/* Per-task counters (task_struct's min_flt/maj_flt and per-task vm events). */
#define MMSIM_TASK_COUNTERS(X)                                                \
	X(T_PGFAULT, "pgfault")                                               \
	X(T_MAJ_FLT, "maj_flt")                                               \
	X(T_MIN_FLT, "min_flt")                                               \
	X(T_VMACACHE_FIND_CALLS, "vmacache_find_calls")                       \
	X(T_VMACACHE_FIND_HITS, "vmacache_find_hits")                         \
	X(T_TOUCHES, "touches")

enum mmsim_task_counter {
#define MMSIM_X_ENUM(id, name) MMSIM_##id,
	MMSIM_TASK_COUNTERS(MMSIM_X_ENUM)
#undef MMSIM_X_ENUM
	MMSIM_NR_TASK_COUNTERS
};

/* Per-mm counters (mm->rss_stat and friends). */
enum mmsim_mm_counter {
	MMSIM_MM_FILEPAGES = 0,
	MMSIM_MM_ANONPAGES,
	MMSIM_MM_SHMEMPAGES,
	MMSIM_MM_MAP_COUNT,
	MMSIM_MM_PGTABLES,
	MMSIM_NR_MM_COUNTERS
};

/* ------------------------------------------------------------------ events */

/*
 * Events. Fixed 32-byte records; fields a..d are per type (documented here
 * and in wasm-core/ts/events.ts, which turns them into sentences). addr is a
 * user virtual address unless noted. "u64 in c:d" means c = low, d = high.
 */
#define MMSIM_EVENTS(X)                                                                       \
	/* step boundary:           a=op  b=step index (same as .step) */                    \
	X(STEP, "mmsim_step")                                                                \
	/* touches that hit present PTEs, coalesced: addr=first, a=count, b=op (0 read, 1    \
	   write), c:d=last addr */                                                          \
	X(ACCESS, "mmsim_access")                                                            \
	/* a user page fault (x86 trace point): a=error_code (1 present, 2 write, 4 user),   \
	   b=fault flags (FAULT_FLAG_*), c=vma id, d=attempt (0, or 1.. for a retry) */      \
	X(PAGE_FAULT, "page_fault_user")                                                     \
	/* handle_mm_fault returned: a=vm_fault_t, b=kind (MMSIM_FK_*), c=pages mapped */    \
	X(FAULT_DONE, "mm_fault_done")                                                       \
	/* a page-table page allocated: addr=address being faulted, a=level of the new        \
	   table (MMSIM_PGT_*), b=pfn */                                                     \
	X(PGTABLE_ALLOC, "mm_pgtable_alloc")                                                 \
	/* a page-table page freed: addr=start of the span it mapped, a=level, b=pfn */      \
	X(PGTABLE_FREE, "mm_pgtable_free")                                                   \
	/* the fault-around window: addr=address of start_pgoff, a=file, b=start_pgoff,     \
	   c=end_pgoff, d=faulting pgoff */                                                  \
	X(MAP_PAGES, "mm_filemap_map_pages")                                                 \
	/* a PTE set: addr, a=pfn, b=pgoff (or anon index), c=how (MMSIM_SET_*),             \
	   d=the PTE's low 12 bits */                                                        \
	X(SET_PTE, "mm_set_pte")                                                             \
	/* map_pages skipped a page: addr, a=pgoff, b=reason (MMSIM_SKIP_*), c=pfn or 0 */    \
	X(MAP_SKIP, "mm_filemap_map_skip")                                                   \
	/* ->fault (filemap_fault): addr, a=file, b=pgoff, c=1 if the page was cached */      \
	X(FILEMAP_FAULT, "mm_filemap_fault")                                                 \
	/* readahead: a=file, b=start pgoff, c=pages, d=async_size; SYNC_RA is also used for \
	   mmap read-around */                                                               \
	X(SYNC_RA, "page_cache_sync_ra")                                                     \
	X(ASYNC_RA, "page_cache_async_ra")                                                   \
	/* a folio entered the page cache: a=file, b=pgoff, c=pfn, d=page flags */           \
	X(ADD_TO_PAGE_CACHE, "mm_filemap_add_to_page_cache")                                 \
	/* a folio left the page cache: a=file, b=pgoff, c=pfn */                            \
	X(DELETE_FROM_PAGE_CACHE, "mm_filemap_delete_from_page_cache")                       \
	/* read I/O completed: a=file, b=first pgoff, c=pages, d=request id */               \
	X(IO_DONE, "mmsim_read_done")                                                        \
	/* read I/O submitted: a=file, b=first pgoff, c=pages, d=request id */               \
	X(IO_SUBMIT, "mmsim_read_submit")                                                    \
	/* a task waited for a locked folio: a=file, b=pgoff, c=request id */                \
	X(FOLIO_WAIT, "mmsim_folio_wait")                                                    \
	/* VMA life: addr=vm_start, a=mm, b=vma id, c:d=vm_end (split: b=new vma) */         \
	X(VMA_ADD, "mmsim_vma_add")                                                          \
	X(VMA_REMOVE, "mmsim_vma_remove")                                                    \
	X(VMA_SPLIT, "mmsim_vma_split")                                                      \
	X(VMA_MERGE, "mmsim_vma_merge")                                                      \
	X(VMA_FLAGS, "mmsim_vma_flags")                                                      \
	/* PTEs cleared by munmap/madvise/exit: addr=start, a=PTEs cleared,                   \
	   b=pages freed, c:d=end */                                                         \
	X(ZAP, "mmsim_zap_range")                                                            \
	/* a page or folio allocated/freed: a=pfn, b=order, c=use (MMSIM_USE_*) */           \
	X(PAGE_ALLOC, "mm_page_alloc")                                                       \
	X(PAGE_FREE, "mm_page_free")                                                         \
	/* LRU: a=pfn, b=list (MMSIM_LRU_*) */                                               \
	X(LRU_ADD, "mm_lru_insertion")                                                       \
	X(LRU_ACTIVATE, "mm_lru_activate")                                                   \
	/* a file was put in the page cache before step 1: a=file, b=pages */                \
	X(PRELOAD, "mmsim_file_preload")                                                     \
	/* process life: a=mm of the parent (fork) or the process, b=child mm */             \
	X(FORK, "mmsim_fork")                                                                \
	X(EXIT, "mmsim_exit")                                                                \
	/* an expect step: a=1 pass/0 fail, b=items checked, c=items failed */               \
	X(EXPECT, "mmsim_expect")                                                            \
	/* a say step: a=data index of its text (host side) */                               \
	X(SAY, "mmsim_say")                                                                  \
	/* the run stopped with an error: a=-error, b=step */                                \
	X(ERROR, "mmsim_error")                                                              \
	/* shmem_fault() (tmpfs; no kernel tracepoint): a=file, b=pgoff, c=1 found, 0 hole */ \
	X(SHMEM_FAULT, "mmsim_shmem_fault")                                                  \
	/* PG_readahead set on a page (readahead) or cleared (the mark was reached):         \
	   a=file, b=pgoff, c=1 set / 0 cleared */                                           \
	X(RA_MARK, "mmsim_readahead_mark")

enum mmsim_event_type {
#define MMSIM_X_ENUM(id, name) MMSIM_EV_##id,
	MMSIM_EVENTS(MMSIM_X_ENUM)
#undef MMSIM_X_ENUM
	MMSIM_NR_EVENT_TYPES
};

#define MMSIM_EVF_OP_START 0x8000u /* in .type: first event of an operation */
#define MMSIM_EV_TYPE_MASK 0x7fffu

struct mmsim_event {
	uint16_t type;   /* enum mmsim_event_type | MMSIM_EVF_OP_START */
	uint16_t task;   /* task id, 0xffff when none */
	uint32_t step;   /* program step index */
	uint64_t addr;
	uint32_t a, b, c, d;
};

/* MMSIM_EV_FAULT_DONE.b: how the fault was resolved */
enum mmsim_fault_kind {
	MMSIM_FK_NONE = 0,
	MMSIM_FK_ANON_ZERO,     /* do_anonymous_page: read, zero page mapped */
	MMSIM_FK_ANON_NEW,      /* do_anonymous_page: write, new page */
	MMSIM_FK_FILE_AROUND,   /* do_read_fault: map_pages mapped the faulting page */
	MMSIM_FK_FILE_READ,     /* do_read_fault: ->fault + finish_fault */
	MMSIM_FK_FILE_COW,      /* do_cow_fault */
	MMSIM_FK_FILE_SHARED,   /* do_shared_fault */
	MMSIM_FK_WP_REUSE,      /* do_wp_page: wp_page_reuse */
	MMSIM_FK_WP_COPY,       /* do_wp_page: wp_page_copy */
	MMSIM_FK_WP_SHARED,     /* do_wp_page: wp_page_shared */
	MMSIM_FK_RETRY,         /* VM_FAULT_RETRY: the fault will be retried */
	MMSIM_FK_ERROR,         /* VM_FAULT_SIGBUS / SIGSEGV / OOM */
};

/* MMSIM_EV_SET_PTE.c */
enum mmsim_set_how {
	MMSIM_SET_FAULT = 0,    /* the faulting page, by ->fault + finish_fault */
	MMSIM_SET_AROUND_SELF,  /* the faulting page, by map_pages */
	MMSIM_SET_AROUND,       /* a neighbour, by map_pages (fault-around) */
	MMSIM_SET_ANON,         /* a new anonymous page */
	MMSIM_SET_ZERO,         /* the shared zero page */
	MMSIM_SET_COW,          /* a private copy (do_cow_fault, wp_page_copy) */
	MMSIM_SET_REUSE,        /* made writable in place (wp_page_reuse) */
	MMSIM_SET_FORK,         /* copied into a child at fork */
};

/* MMSIM_EV_MAP_SKIP.b: why filemap_map_pages did not map a page */
enum mmsim_skip_reason {
	MMSIM_SKIP_HOLE = 0,     /* no folio in the page cache (map_pages never does I/O) */
	MMSIM_SKIP_SHADOW,       /* a shadow (value) entry: evicted, refault pending */
	MMSIM_SKIP_LOCKED,       /* folio locked (read I/O in flight) */
	MMSIM_SKIP_NOT_UPTODATE, /* folio not uptodate (I/O failed) */
	MMSIM_SKIP_READAHEAD,    /* PG_readahead: left for ->fault to trigger async readahead */
	MMSIM_SKIP_EOF,          /* beyond i_size */
	MMSIM_SKIP_HWPOISON,     /* PageHWPoison */
	MMSIM_SKIP_PTE_PRESENT,  /* the PTE is already populated */
	MMSIM_NR_SKIP_REASONS
};

/* page-table levels (MMSIM_EV_PGTABLE_*.a, struct mmsim_walk) */
enum mmsim_pgt_level { MMSIM_PGT_PGD = 0, MMSIM_PGT_PUD, MMSIM_PGT_PMD, MMSIM_PGT_PTE };

/* MMSIM_EV_PAGE_ALLOC.c */
enum mmsim_page_use {
	MMSIM_USE_PAGECACHE = 0, MMSIM_USE_ANON, MMSIM_USE_PGTABLE, MMSIM_USE_OTHER
};

/* LRU lists (enum lru_list) */
enum mmsim_lru_list {
	MMSIM_LRU_INACTIVE_ANON = 0,
	MMSIM_LRU_ACTIVE_ANON,
	MMSIM_LRU_INACTIVE_FILE,
	MMSIM_LRU_ACTIVE_FILE,
	MMSIM_LRU_UNEVICTABLE,
	MMSIM_NR_LRU_LISTS
};

/* ---------------------------------------------------------- page flags */

/* struct page.flags bits, named as the kernel's PG_* (include/linux/page-flags.h) */
enum mmsim_pageflags {
	MMSIM_PG_locked = 0,
	MMSIM_PG_writeback,
	MMSIM_PG_referenced,
	MMSIM_PG_uptodate,
	MMSIM_PG_dirty,
	MMSIM_PG_lru,
	MMSIM_PG_head,
	MMSIM_PG_active,
	MMSIM_PG_workingset,
	MMSIM_PG_reserved,
	MMSIM_PG_reclaim, /* == PG_readahead */
	MMSIM_PG_swapbacked,
	MMSIM_PG_unevictable,
	MMSIM_PG_mlocked,
	MMSIM_PG_hwpoison,
	MMSIM_PG_anon_exclusive,
	/* page types (the kernel keeps these in page_type) */
	MMSIM_PGTY_buddy = 24,
	MMSIM_PGTY_table,
	MMSIM_PG_tail,      /* the kernel marks tails in compound_head bit 0 */
	MMSIM_PG_anon,      /* the kernel marks anon in page->mapping bit 0 */
};
#define MMSIM_PG_readahead MMSIM_PG_reclaim

/* x86-64 PTE bits used by the model */
#define MMSIM_PTE_PRESENT (1ull << 0)
#define MMSIM_PTE_RW (1ull << 1)
#define MMSIM_PTE_USER (1ull << 2)
#define MMSIM_PTE_ACCESSED (1ull << 5)
#define MMSIM_PTE_DIRTY (1ull << 6)
#define MMSIM_PTE_PSE (1ull << 7)      /* huge PMD leaf (reserved for THP) */
#define MMSIM_PTE_SPECIAL (1ull << 9)  /* _PAGE_SPECIAL: e.g. the zero page */
#define MMSIM_PTE_PFN_MASK 0x000ffffffffff000ull

/* vm_flags (include/linux/mm.h values) */
#define MMSIM_VM_READ 0x00000001u
#define MMSIM_VM_WRITE 0x00000002u
#define MMSIM_VM_EXEC 0x00000004u
#define MMSIM_VM_SHARED 0x00000008u
#define MMSIM_VM_MAYREAD 0x00000010u
#define MMSIM_VM_MAYWRITE 0x00000020u
#define MMSIM_VM_MAYSHARE 0x00000080u
#define MMSIM_VM_SEQ_READ 0x00008000u
#define MMSIM_VM_RAND_READ 0x00010000u
#define MMSIM_VM_HUGEPAGE 0x20000000u
#define MMSIM_VM_NOHUGEPAGE 0x40000000u

/* vm_fault_t bits (include/linux/mm_types.h) */
#define MMSIM_VM_FAULT_OOM 0x000001u
#define MMSIM_VM_FAULT_SIGBUS 0x000002u
#define MMSIM_VM_FAULT_MAJOR 0x000004u
#define MMSIM_VM_FAULT_SIGSEGV 0x000040u
#define MMSIM_VM_FAULT_NOPAGE 0x000100u
#define MMSIM_VM_FAULT_LOCKED 0x000200u
#define MMSIM_VM_FAULT_RETRY 0x000400u
#define MMSIM_VM_FAULT_ERROR (MMSIM_VM_FAULT_OOM | MMSIM_VM_FAULT_SIGBUS | MMSIM_VM_FAULT_SIGSEGV)

/* fault flags (enum fault_flag) */
#define MMSIM_FAULT_FLAG_WRITE 0x01u
#define MMSIM_FAULT_FLAG_ALLOW_RETRY 0x04u
#define MMSIM_FAULT_FLAG_TRIED 0x20u
#define MMSIM_FAULT_FLAG_USER 0x40u

/* ---------------------------------------------------------------- program */

enum mmsim_op {
	MMSIM_OP_NOP = 0,
	MMSIM_OP_MMAP,
	MMSIM_OP_MUNMAP,
	MMSIM_OP_MADVISE,
	MMSIM_OP_ACCESS,
	MMSIM_OP_READ,
	MMSIM_OP_WRITE,
	MMSIM_OP_FADVISE,
	MMSIM_OP_FSYNC,
	MMSIM_OP_FORK,
	MMSIM_OP_EXIT,
	MMSIM_OP_REPEAT,
	MMSIM_OP_EXPECT,
	MMSIM_OP_SAY,
	MMSIM_NR_OPS
};

enum mmsim_pattern {
	MMSIM_PAT_SEQUENTIAL = 0, MMSIM_PAT_RANDOM, MMSIM_PAT_UNIFORM, MMSIM_PAT_LIST
};

enum mmsim_advice {
	MMSIM_ADV_HUGEPAGE = 0, MMSIM_ADV_NOHUGEPAGE, MMSIM_ADV_RANDOM,
	MMSIM_ADV_SEQUENTIAL, MMSIM_ADV_DONTNEED
};

/* mmsim_step.flags */
#define MMSIM_STEPF_SHARED 0x01u   /* mmap: MAP_SHARED */
#define MMSIM_STEPF_WRITE 0x02u    /* mmap: PROT_WRITE; access: op write */
#define MMSIM_STEPF_FIXED 0x04u    /* mmap: addr given (MAP_FIXED) */
#define MMSIM_STEPF_MAPLIST 0x08u  /* access: data[] holds one map id per thread */
#define MMSIM_STEPF_LENGTH 0x10u   /* length given (else: to the end) */

/* mmsim_step.task: a task id, or a process id | MMSIM_TASK_ALL ("app.*") */
#define MMSIM_TASK_ALL 0x80000000u

struct mmsim_step {            /* 64 bytes */
	uint8_t op;            /* enum mmsim_op */
	uint8_t flags;         /* MMSIM_STEPF_* */
	uint8_t kind;          /* access: pattern; madvise/fadvise: advice */
	uint8_t reserved;
	uint32_t task;
	uint32_t map;          /* map name id */
	uint32_t file;         /* file id; fork: child process id */
	uint64_t offset;
	uint64_t length;
	uint64_t stride;       /* access, repeat: bytes */
	uint64_t count;        /* access uniform: touches; repeat: times */
	uint64_t addr;         /* mmap: fixed address; repeat: body length in steps */
	uint32_t data;         /* index into the data table */
	uint32_t ndata;        /* number of u64 words there */
};

/* expect items: pairs of u64 (key, value) in the data table */
#define MMSIM_EXPECT_COUNTER 1u       /* key = kind<<56 | counter id; global */
#define MMSIM_EXPECT_TASK_COUNTER 2u  /* key = kind<<56 | task<<16 | task counter id */
#define MMSIM_EXPECT_FOLIO_AT 3u      /* key = kind<<56 | task<<16 | map; value = offset */
#define MMSIM_EXPECT_FOLIO_FIELD 4u   /* key = kind<<56 | field; value = expected */
#define MMSIM_EXPECT_KIND(key) ((uint32_t)((key) >> 56))

enum mmsim_folio_field {
	MMSIM_FOLIO_MAPCOUNT = 0,      /* folio_mapcount() */
	MMSIM_FOLIO_ENTIRE_MAPCOUNT,   /* folio_entire_mapcount() */
	MMSIM_FOLIO_LIKELY_SHARED,     /* folio_likely_mapped_shared() (0/1) */
	MMSIM_FOLIO_ORDER,             /* folio_order() */
	MMSIM_FOLIO_REFCOUNT,          /* folio_ref_count() */
	MMSIM_FOLIO_PAGE_MAPCOUNT,     /* the page's own _mapcount + 1 */
	MMSIM_NR_FOLIO_FIELDS
};

struct mmsim_prog_header {      /* 128 bytes */
	uint32_t magic;            /* MMSIM_PROG_MAGIC */
	uint32_t abi;              /* MMSIM_ABI_VERSION */
	uint64_t seed;
	uint64_t memory;           /* machine.memory, bytes */
	uint32_t fault_around_bytes;
	uint32_t vmacache;         /* enum mmsim_vmacache_mode */
	uint32_t anon_prefault;    /* enum mmsim_prefault_mode */
	uint32_t anon_prefault_cap;
	uint32_t thp;              /* enum mmsim_thp_mode */
	uint32_t mthp_orders;      /* bit n: order n enabled */
	uint32_t large_mapcount;   /* 1: 6.10 rules, 0: 6.9 rules */
	uint32_t fadvise_dontneed; /* enum mmsim_fadvise_mode */
	uint32_t readahead_kb;
	uint32_t io_latency;       /* touches until a submitted read completes (0: at once) */
	uint32_t nr_files;
	uint32_t nr_procs;
	uint32_t nr_tasks;
	uint32_t nr_maps;          /* number of distinct map names */
	uint32_t nr_steps;
	uint32_t nr_data;
	uint32_t reserved[10];
};

#define MMSIM_FILE_CACHED 0x1u
#define MMSIM_FILE_SHMEM 0x2u  /* tmpfs: shmem_fault, no I/O, no write-notify */
struct mmsim_prog_file {        /* 16 bytes */
	uint64_t size;             /* bytes */
	uint32_t flags;            /* MMSIM_FILE_CACHED | MMSIM_FILE_SHMEM */
	uint32_t reserved;
};

#define MMSIM_PROC_FORKED 0x1u /* created by a fork step, not present at start */
struct mmsim_prog_proc {        /* 16 bytes */
	uint32_t threads;
	uint32_t first_task;       /* task ids first_task .. first_task+threads-1 */
	uint32_t flags;
	uint32_t reserved;
};

/*
 * A program is: header, nr_files mmsim_prog_file, nr_procs mmsim_prog_proc,
 * nr_steps mmsim_step, nr_data uint64_t; all little-endian, no padding.
 */

/* ---------------------------------------------------------------- config */

struct mmsim_config {
	int trace;                /* record events */
	int debug_vm;             /* run the invariant checker after every step */
	uint32_t event_capacity;  /* event buffer size (records) */
	uint64_t max_bytes;       /* refuse to allocate beyond this (host memory) */
	void *(*alloc)(size_t size, void *ctx);
	void (*free)(void *ptr, void *ctx);
	void *alloc_ctx;
};

/* ------------------------------------------------------------ query structs */

struct mmsim_error_info {
	int32_t code;             /* enum mmsim_error */
	uint32_t step;            /* program step index, MMSIM_NONE if none */
	uint32_t task;
	uint32_t reserved;
	uint64_t addr;            /* faulting address or other detail */
	uint64_t detail;          /* error-specific: needed frames, limit... */
};

struct mmsim_expect_failure {
	uint32_t step;
	uint32_t item;            /* index of the (key,value) pair in the step */
	uint64_t key;
	uint64_t expected;
	uint64_t actual;          /* MMSIM_UNLIMITED when the folio was not mapped */
};

struct mmsim_vma_info {         /* 48 bytes */
	uint64_t vm_start, vm_end;
	uint64_t vm_pgoff;
	uint32_t vm_flags;
	uint32_t file;            /* file id + 1, 0 = anonymous */
	uint32_t id;
	uint32_t anon_vma;
	uint32_t map;             /* map name id that created it, MMSIM_NONE if unknown */
	uint32_t reserved;
};

struct mmsim_walk {             /* one page-table walk (PGD -> PTE) */
	uint64_t addr;
	uint64_t entry[4];        /* entry read at each level (0 = none) */
	uint32_t table_pfn[4];    /* pfn of the table read at each level (0 = none) */
	uint32_t index[4];        /* index within each table */
};

struct mmsim_page_info {        /* 32 bytes */
	uint32_t pfn;
	uint32_t flags;
	int32_t refcount;
	int32_t mapcount;         /* _mapcount + 1 */
	uint32_t mapping;         /* file id + 1, or anon_vma | 0x80000000, 0 */
	uint32_t index;
	uint32_t order;
	uint32_t lru;             /* enum mmsim_lru_list, MMSIM_NONE if not on an LRU */
};

struct mmsim_task_info {
	uint32_t mm;              /* process id */
	uint32_t alive;
	uint64_t counters[MMSIM_NR_TASK_COUNTERS];
};

struct mmsim_mm_info {
	uint32_t alive;
	uint32_t nr_vmas;
	uint32_t pgd_pfn;
	uint32_t reserved;
	int64_t counters[MMSIM_NR_MM_COUNTERS];
};

struct mmsim_file_info {
	uint64_t size;
	uint32_t nrpages;
	uint32_t mmap_miss;
	uint64_t ra_start;
	uint32_t ra_size;
	uint32_t ra_async_size;
};

/* --------------------------------------------------------------- functions */

struct mmsim;

uint32_t mmsim_abi_version(void);
void mmsim_config_default(struct mmsim_config *cfg);
struct mmsim *mmsim_create(const struct mmsim_config *cfg);
/* the same without a struct, for hosts that cannot lay one out (max_bytes 0: no limit) */
struct mmsim *mmsim_create_with(int trace, int debug_vm, uint32_t event_capacity, uint64_t max_bytes);
void mmsim_destroy(struct mmsim *sim);

/* Load a program (copied). Returns 0 or enum mmsim_error; on error
 * mmsim_last_error() tells the step. */
int mmsim_load(struct mmsim *sim, const void *prog, size_t len);

/* Run until the end, an error, or: work_budget more operations (touches and
 * steps) have run, or the total event count has reached stop_event, or the
 * event buffer needs draining. Returns enum mmsim_run_status. */
int mmsim_run(struct mmsim *sim, uint64_t work_budget, uint64_t stop_event);

/* Operations done so far, and the total the program will do (its length in
 * touches and steps, known at load), for progress bars. */
uint64_t mmsim_work_done(const struct mmsim *sim);
uint64_t mmsim_work_total(const struct mmsim *sim);
int mmsim_finished(const struct mmsim *sim);

const struct mmsim_error_info *mmsim_last_error(const struct mmsim *sim);
uint32_t mmsim_nr_expect_failures(const struct mmsim *sim);
const struct mmsim_expect_failure *mmsim_expect_failure(const struct mmsim *sim, uint32_t i);
uint32_t mmsim_steps_executed(const struct mmsim *sim);

/* events */
void mmsim_set_trace(struct mmsim *sim, int on);
const struct mmsim_event *mmsim_events(const struct mmsim *sim);
uint32_t mmsim_nr_events(const struct mmsim *sim);
void mmsim_events_clear(struct mmsim *sim);
uint64_t mmsim_events_total(const struct mmsim *sim);
const char *mmsim_event_name(uint32_t type);

/* counters */
uint64_t mmsim_counter(const struct mmsim *sim, uint32_t id);
const uint64_t *mmsim_counters(const struct mmsim *sim);
const char *mmsim_counter_name(uint32_t id);
const char *mmsim_task_counter_name(uint32_t id);
uint32_t mmsim_nr_tasks(const struct mmsim *sim);
uint32_t mmsim_nr_mms(const struct mmsim *sim);
int mmsim_task_info(const struct mmsim *sim, uint32_t task, struct mmsim_task_info *out);
int mmsim_mm_info(const struct mmsim *sim, uint32_t mm, struct mmsim_mm_info *out);
int mmsim_file_info(const struct mmsim *sim, uint32_t file, struct mmsim_file_info *out);

/* state queries for views */
uint32_t mmsim_vmas(const struct mmsim *sim, uint32_t mm, struct mmsim_vma_info *out, uint32_t max);
int mmsim_walk(const struct mmsim *sim, uint32_t mm, uint64_t addr, struct mmsim_walk *out);
/* copy the 512 entries of the PTE table that maps addr (zeros if none); returns its pfn or 0 */
uint32_t mmsim_pte_table(const struct mmsim *sim, uint32_t mm, uint64_t addr, uint64_t *out512);
int mmsim_page_info(const struct mmsim *sim, uint32_t pfn, struct mmsim_page_info *out);
/* per page of [start, start + n pages): 0 none, 1 present read-only, 2 present writable,
 * +4 if the page is anonymous, +8 zero page; for drawing */
uint32_t mmsim_pte_states(const struct mmsim *sim, uint32_t mm, uint64_t start, uint32_t n, uint8_t *out);
/* heat strip: [start,end) split in n buckets; out[i] = present PTEs in bucket i */
uint32_t mmsim_pte_heat(const struct mmsim *sim, uint32_t mm, uint64_t start, uint64_t end, uint32_t n, uint32_t *out);
/* page cache of a file from pgoff: out[i] = pfn or 0 (MMSIM_NONE for a shadow entry) */
uint32_t mmsim_pagecache(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n, uint32_t *out);
/* page-cache state of a file from pgoff, for drawing: out[i] = MMSIM_PC_* | MMSIM_PC_READAHEAD */
enum mmsim_pc_state { MMSIM_PC_NONE = 0, MMSIM_PC_UPTODATE = 1, MMSIM_PC_READING = 2, MMSIM_PC_SHADOW = 3 };
#define MMSIM_PC_READAHEAD 0x10u /* PG_readahead */
uint32_t mmsim_pagecache_states(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n, uint8_t *out);
uint32_t mmsim_lru_head(const struct mmsim *sim, uint32_t list, uint32_t *out, uint32_t max);

/* time travel */
uint64_t mmsim_snapshot_size(const struct mmsim *sim);
int mmsim_snapshot_save(const struct mmsim *sim, void *buf, uint64_t len);
int mmsim_snapshot_restore(struct mmsim *sim, const void *buf, uint64_t len);

/* host memory the core holds (bytes), now and at most */
uint64_t mmsim_mem_bytes(const struct mmsim *sim);
uint64_t mmsim_mem_peak(const struct mmsim *sim);

/* CONFIG_DEBUG_VM-style invariant check; 0 if sound, else < 0 and a message */
int mmsim_check(struct mmsim *sim, char *msg, uint32_t msg_len);
/* the message of the last failed check run by debug_vm */
const char *mmsim_check_message(const struct mmsim *sim);
/* why mmsim_load() refused a program (for MMSIM_EINVAL: a short English phrase) */
const char *mmsim_load_message(const struct mmsim *sim);

#ifdef __cplusplus
}
#endif
#endif /* MMSIM_H */

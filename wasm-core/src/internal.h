/*
 * internal.h - the simulated machine's data structures.
 *
 * Memory layout
 * -------------
 * Everything the simulation owns lives in *pools*: arrays of fixed-size
 * elements grown in chunks that never move, addressed by 32-bit indices
 * (pfn for struct page, table id for page tables, vma id, ...). Index 0 of
 * every pool is reserved, so 0 means "none" (pfn 0 is the zero page, which is
 * never freed). Holding a C pointer to an element across an allocation is
 * therefore safe, and no pointer value ever enters the state: native and
 * wasm runs are bit-identical, and a snapshot is the state struct followed by
 * the used part of every mutable pool.
 *
 * Cost per cached-and-mapped 4 KiB page: struct page 32 B + PTE 8 B +
 * page-cache slot 4 B (+ 1/64 of an xa_node header) = about 44 B.
 */
#ifndef MMSIM_INTERNAL_H
#define MMSIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mmsim.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE 4096ull
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PTRS_PER_PTE 512u
#define PMD_SHIFT 21
#define PUD_SHIFT 30
#define PGDIR_SHIFT 39
#define PMD_SIZE (1ull << PMD_SHIFT)
#define PUD_SIZE (1ull << PUD_SHIFT)
#define PGDIR_SIZE (1ull << PGDIR_SHIFT)
#define TASK_SIZE 0x7ffffffff000ull
/* bottom-up mmap layout from here (the kernel's legacy layout), for readable addresses */
#define MMAP_BASE 0x7f0000000000ull
#define TASK_UNMAPPED_BASE ALIGN_UP(TASK_SIZE / 3, PAGE_SIZE) /* the legacy bottom-up base */
#define MAX_PAGE_ORDER 10
/* the largest page-cache folio: PMD order (MAX_PAGECACHE_ORDER, 2 MiB with 4 KiB pages) */
#define MAX_PAGECACHE_ORDER 9
#define MMAP_LOTSAMISS 100
#define MMSIM_MAX_FAILS 64
#define MMSIM_IO_QUEUE 64
#define MMSIM_PRELOAD_CHUNK 4096u

#define ALIGN_DOWN(x, a) ((x) & ~((uint64_t)(a)-1))
#define ALIGN_UP(x, a) (((x) + (uint64_t)(a)-1) & ~((uint64_t)(a)-1))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#ifdef MMSIM_DEBUG
#define VM_BUG_ON(cond)                   \
	do {                              \
		if (cond)                 \
			__builtin_trap(); \
	} while (0)
#else
#define VM_BUG_ON(cond)             \
	do {                        \
		(void)sizeof(cond); \
	} while (0)
#endif

/* ------------------------------------------------------------- pools */

enum pool_id {
	POOL_PAGE = 0, /* mem_map: struct page by pfn; grown by the buddy allocator */
	POOL_PGTABLE, /* 512-entry page tables, by table id (page->private of the frame) */
	POOL_XA, /* page-cache radix nodes */
	POOL_VMA, /* struct vm_area_struct; element 0 is the rb-tree's NIL */
	POOL_MAPREC, /* scenario map names bound to address ranges */
	POOL_TASK, /* struct task_struct, id = task id + 1 */
	POOL_MM, /* struct mm_struct, id = process id + 1 */
	POOL_FILE, /* struct file, id = file id + 1 */
	POOL_ANON_VMA, /* struct anon_vma (rmap.c), id = page->mapping of an anon folio */
	NR_MUTABLE_POOLS,
	POOL_STEP = NR_MUTABLE_POOLS, /* the program's steps (immutable once loaded) */
	POOL_DATA, /* the program's u64 data table (immutable) */
	NR_POOLS
};

/* element counts per chunk, as shifts (constants keep the hot path cheap) */
#define PAGE_CHUNK_SHIFT 16
#define PGT_CHUNK_SHIFT 6
#define XA_POOL_SHIFT 8
#define SMALL_CHUNK_SHIFT 8
#define STEP_CHUNK_SHIFT 10
#define DATA_CHUNK_SHIFT 12

struct pool_state { /* part of the snapshot */
	uint32_t nr; /* elements [0, nr) exist; 0 is reserved */
	uint32_t free; /* free list head (linked through the element's first u32) */
	uint32_t nr_free;
	uint32_t reserved;
};

struct pool_mem { /* host side, never snapshotted */
	uint32_t elem_size;
	uint32_t shift;
	uint32_t nr_chunks;
	uint32_t max_chunks;
	uint8_t **chunk;
};

/* ------------------------------------------------------------- struct page */

/*
 * struct page, 32 bytes. For a large folio, page[1] reuses the head-only
 * fields for the folio's mapcounts exactly as the kernel's struct folio
 * overlays them (include/linux/mm_types.h); its order is in page[1].flags.
 */
struct page {
	uint32_t flags; /* 1 << MMSIM_PG_* */
	int32_t _refcount;
	int32_t _mapcount; /* -1: no PTE maps this page */
	uint32_t private; /* page table: table id; buddy: order; tail: head pfn */
	union {
		struct { /* order-0 folios and heads */
			uint32_t mapping; /* file id + 1, or anon_vma id (PG_anon set) */
			uint32_t index; /* pgoff, or linear index in the anon VMA */
			uint32_t lru_next, lru_prev; /* pfn; also buddy free lists */
		};
		struct { /* page[1] of a large folio */
			int32_t _large_mapcount;
			int32_t _entire_mapcount;
			int32_t _nr_pages_mapped;
			int32_t _pincount;
		};
	};
};
_Static_assert(sizeof(struct page) == 32, "struct page must stay 32 bytes");

#define PF(flag) (1u << MMSIM_PG_##flag)
#define PGTY(type) (1u << MMSIM_PGTY_##type)

/* ------------------------------------------------------------- page cache */

#define XA_CHUNK_SHIFT 6
#define XA_CHUNK_SIZE (1u << XA_CHUNK_SHIFT)
#define XA_CHUNK_MASK (XA_CHUNK_SIZE - 1)

struct xa_node {
	uint8_t shift; /* bits of index below this node */
	uint8_t offset; /* slot in parent */
	uint8_t count; /* non-empty slots */
	uint8_t nr_values; /* value (shadow) entries */
	uint32_t parent;
	/* PAGECACHE_TAG_DIRTY: leaf, bit n: slot n's folio is dirty; interior: child n holds a tagged entry */
	uint64_t tagged;
	uint32_t slots[XA_CHUNK_SIZE]; /* leaf: entries; interior: node ids */
};

/* an entry: 0 empty; folio = pfn << 1; value = v << 1 | 1 (xa_mk_value) */
static inline uint32_t xa_mk_folio(uint32_t pfn)
{
	return pfn << 1;
}
static inline uint32_t xa_mk_value(uint32_t v)
{
	return (v << 1) | 1;
}
static inline bool xa_is_value(uint32_t e)
{
	return e & 1;
}
static inline uint32_t xa_to_pfn(uint32_t e)
{
	return e >> 1;
}

struct xarray {
	uint32_t head; /* root node id, 0 if empty */
	uint32_t height; /* levels below head; max index = 64^height - 1 */
	/* the last leaf found by xa_load_cached(), like a kept xa_state: speed only */
	uint64_t leaf_base; /* first index of that leaf */
	uint32_t leaf; /* its node id, 0 if none */
	uint32_t reserved;
};

struct file_ra_state {
	uint64_t start;
	uint32_t size;
	uint32_t async_size;
	uint32_t ra_pages;
	uint32_t mmap_miss;
	uint64_t prev_pos;
	uint32_t order; /* folio order of the last readahead (always 0 here) */
	uint32_t _pad;
};

/*
 * struct file + inode + address_space, merged: one open file per scenario
 * file. flags: MMSIM_FILE_CACHED, MMSIM_FILE_SHMEM (a tmpfs file: shmem_aops,
 * shmem_vm_ops; see shmem_fault() in filemap.c).
 */
struct file {
	uint64_t i_size;
	struct xarray i_pages;
	uint32_t nrpages;
	uint32_t flags;
	struct file_ra_state f_ra;
	/* rmap.c: the VMAs that map this file (the kernel's i_mmap tree), linked through vm_area_struct.shared */
	uint32_t i_mmap;
	/* writeback.c: dirty and under-writeback pages, when the file went dirty, where writeback resumes */
	uint32_t nrdirty;
	uint32_t nrwriteback;
	uint32_t writeback_index;
	uint64_t dirtied_when; /* clock at the clean -> dirty transition */
};

static inline bool shmem_file(const struct file *f)
{
	return f->flags & MMSIM_FILE_SHMEM;
}

/* ------------------------------------------------------------- VMAs, mm */

/* 0 is black so that the zeroed NIL element (vma 0) is black */
#define RB_BLACK 0
#define RB_RED 1

struct vm_area_struct {
	uint64_t vm_start, vm_end; /* [vm_start, vm_end) */
	uint64_t vm_pgoff;
	uint32_t vm_flags;
	uint32_t vm_mm; /* mm id */
	uint32_t vm_file; /* file id + 1; 0 = anonymous */
	uint32_t anon_vma; /* 0 until the first anon page (anon_vma_prepare) */
	uint32_t vm_next, vm_prev; /* the sorted VMA list */
	uint32_t rb_parent, rb_left, rb_right;
	uint32_t rb_color;
	uint32_t map; /* map name id that created it (display only) */
	uint32_t alive;
	uint32_t shared_next, shared_prev; /* rmap.c: the file's i_mmap list */
	uint32_t anon_next,
		anon_prev; /* rmap.c: the VMAs of one anon_vma family (its root's list) */
};

/*
 * struct anon_vma (rmap.c): the rmap of anonymous folios. A folio's
 * ->mapping names the anon_vma of the VMA it was faulted in; fork gives
 * the child's VMA a new anon_vma whose parent is the parent VMA's, so
 * that the parent's folios (shared after fork) are found in the child
 * too. Every anon_vma of one family shares a root, and the root keeps the
 * list of the family's VMAs (the kernel's anon_vma_chain, flattened).
 */
struct anon_vma {
	uint32_t root;
	uint32_t parent; /* 0 for a root */
	uint32_t head; /* root only: first VMA of the family */
	uint32_t reserved;
};

/*
 * A scenario map name bound to a range of a process. A process's maprecs
 * sit in two treaps (mmap.c): by name, for the steps that name a map, and
 * by start address, for munmap's "names whose range it covers", so that
 * both stay O(log n) with tens of thousands of mappings.
 */
struct maprec {
	uint32_t mm, name, file; /* file id + 1, 0 anonymous */
	uint32_t prio; /* treap heap key: a hash of the id */
	uint32_t link[2][2]; /* [MAPREC_BY_NAME / MAPREC_BY_START][left / right] */
	uint64_t start, len, pgoff;
};
enum { MAPREC_BY_NAME, MAPREC_BY_START };

struct mm_struct {
	uint32_t pgd; /* pfn of the PGD table page */
	uint32_t mm_rb; /* root of the VMA rb-tree */
	uint32_t mmap; /* lowest VMA */
	uint32_t map_count;
	uint32_t mmap_cache; /* 3.14 mm->mmap_cache (vmacache issue) */
	uint32_t vmacache_seqnum;
	uint32_t alive;
	uint32_t maps[2]; /* maprec treap roots, [MAPREC_BY_NAME / MAPREC_BY_START] */
	uint32_t nr_threads;
	uint32_t first_task;
	uint64_t mmap_base; /* where get_unmapped_area() starts (mmap.c) */
	int64_t rss[MMSIM_NR_MM_COUNTERS];
	/*
	 * The model's paging-structure caches (x86 has them too: the PDE and
	 * PDPTE caches): the last PTE table and the last PMD table found.
	 * Emptied whenever a table is freed; they change no result, only speed.
	 */
	uint64_t ptc_addr; /* PMD-aligned address, or 1 if empty */
	uint64_t pmc_addr; /* PUD-aligned address, or 1 if empty */
	uint32_t ptc_table; /* table id */
	uint32_t pmc_table; /* table id */
	/*
	 * The search cache of get_unmapped_area() (mmap.c), per alignment
	 * (page, PMD): where the last search ended, and the largest usable
	 * gap below it. Only speed: the result is the first fit either way.
	 * (Last: the fault path's fields above keep their places.)
	 */
	uint64_t free_area_cache[2];
	uint64_t cached_hole_size[2];
	uint32_t pmd_huge_pte; /* deposited PTE tables, one per PMD leaf (huge_memory.c): first pfn, chained by ->index */
	uint32_t exited; /* exit_mmap() ran: not alive and exited, gone; not alive and not exited, not forked yet */
};

static inline void mm_flush_walk_cache(struct mm_struct *mm)
{
	mm->ptc_addr = 1;
	mm->pmc_addr = 1;
}

#define VMACACHE_SIZE 4
struct task_struct {
	uint32_t mm;
	uint32_t alive;
	uint64_t counters[MMSIM_NR_TASK_COUNTERS];
	uint32_t vmacache_seqnum;
	uint32_t vmacache[VMACACHE_SIZE];
	uint32_t anon_fault_order;
	uint64_t anon_fault_next_addr;
	/* the current access step's walk for this thread */
	uint64_t acc_start; /* address of slot 0 */
	uint64_t acc_slots; /* stride-slots in the range */
	uint64_t acc_stride; /* bytes */
	uint64_t acc_pos; /* touches done */
	uint64_t acc_len; /* touches to do */
	uint64_t acc_key; /* permutation / random key */
};

/* ------------------------------------------------------------- run state */

struct loop_state {
	uint32_t start, end;
	uint64_t i, times, stride;
};

struct io_req {
	uint32_t file, start, nr, id;
	uint64_t complete_at;
};

/* writeback.c: one write request in flight, a contiguous run of one file's pages */
struct wb_req {
	uint64_t submitted, complete_at;
	uint32_t file, first, nr, id, reason, reserved;
};

/* 2.6.39's per-CPU pagevec (swap.c), one CPU */
/* room for a 6.10+ folio_batch; a 2.6.39 pagevec holds MMSIM_PAGEVEC_SIZE of it (pagevec_size()) */
struct pagevec {
	uint32_t nr;
	uint32_t pages[MMSIM_FOLIO_BATCH_SIZE];
};

/* kswapd (vmscan.c): asleep, or inside balance_pgdat() at some priority */
struct kswapd_state {
	uint32_t running; /* woken below the low watermark, not yet balanced */
	uint32_t in_loop; /* inside balance_pgdat()'s loop_again */
	uint32_t priority; /* of its next pass */
	uint32_t reserved;
	uint64_t nr_reclaimed; /* this loop_again */
	uint64_t total_scanned;
};

struct lruvec {
	uint32_t head[MMSIM_NR_LRU_LISTS]; /* pfn of the head (most recently added) */
	uint32_t nr[MMSIM_NR_LRU_LISTS];
};

struct free_area {
	uint32_t head;
	uint32_t nr_free;
};

/* everything below is saved by a snapshot */
struct mmsim_state {
	uint32_t magic;
	uint32_t loaded;
	struct mmsim_prog_header hdr;
	uint32_t fault_around_pages;
	uint32_t ra_pages;

	uint64_t counters[MMSIM_NR_COUNTERS];
	uint64_t events_total;
	uint64_t work_done, work_total;
	/* the model's clock: one tick per operation (a touch or a step); read and write I/O complete by it */
	uint64_t clock;

	/* the interpreter (run.c; load.c starts it at step 0) */
	uint32_t pc;
	uint32_t finished;
	uint32_t steps_executed;
	uint32_t nr_loops;
	struct loop_state loops[MMSIM_MAX_LOOPS];
	uint32_t preload_file; /* files preloaded so far */
	uint32_t preload_pgoff;
	/* the access step in progress */
	uint32_t acc_active;
	uint32_t acc_task0; /* first task id */
	uint32_t acc_nthreads;
	uint32_t acc_cur; /* next thread to take a turn */
	uint32_t acc_write;
	uint32_t acc_pattern;
	uint64_t acc_remaining;
	uint64_t acc_off; /* offset adjustment of the step (repeat) */
	/* coalesced non-faulting touches (MMSIM_EV_ACCESS, run.c) */
	uint64_t run_count, run_first, run_last;
	uint32_t run_task, run_write;

	/*
	 * What is running: the interpreter sets them, trace.c stamps every
	 * event and the error record with them. The mm code below never reads
	 * them: it is told the task or mm it works for.
	 */
	uint32_t cur_step;
	uint32_t cur_task;

	struct mmsim_error_info err;
	uint32_t nr_fails;
	uint32_t reserved0;
	struct mmsim_expect_failure fails[MMSIM_MAX_FAILS];

	struct pool_state pools[NR_POOLS];

	/* the buddy allocator */
	uint32_t nr_frames; /* machine.memory / PAGE_SIZE */
	uint32_t high_water; /* pfns >= this were never handed out */
	struct free_area free_area[MAX_PAGE_ORDER + 1];

	struct lruvec lruvec;
	uint32_t reserved1;
	/* the per-CPU pagevecs (swap.c) */
	struct pagevec pvecs[MMSIM_NR_PVECS];
	/* the zone's reclaim state (vmscan.c), 2.6.39 */
	uint32_t wmark[3]; /* min, low, high (pages) */
	uint32_t inactive_ratio;
	uint64_t recent_scanned[2], recent_rotated[2]; /* [anon, file] */
	uint64_t nr_saved_scan[MMSIM_NR_LRU_LISTS];
	uint64_t pages_scanned; /* since a page was last freed */
	uint32_t all_unreclaimable;
	uint32_t reclaiming; /* reclaim is running: an allocation inside it does not reclaim again (PF_MEMALLOC) */
	struct kswapd_state kswapd;
	uint64_t inactive_age; /* workingset.c (3.15) */
	/* writeback (writeback.c) */
	struct wb_req wb[MMSIM_WB_QUEUE];
	uint32_t wb_count;
	uint32_t wb_next_id;
	uint32_t wb_congested;
	uint32_t flusher_woken;
	uint32_t dirty_ratelimit; /* pages dirtied since balance_dirty_pages() last looked */
	uint32_t ratelimit_pages;

	struct io_req io[MMSIM_IO_QUEUE];
	uint32_t io_count;
	uint32_t io_next_id;

	/* the deferred split queue of anon large folios (rmap.c): page[2]'s pfn of the first one, 0 empty */
	uint32_t deferred_split_head;
	uint32_t huge_zero_page; /* the huge zero page was set up (thp_zero_page_alloc counted once) */
};

struct mmsim {
	struct mmsim_state s;
	struct pool_mem pm[NR_POOLS];
	struct mmsim_config cfg;
	/* events: host side */
	struct mmsim_event *ev;
	uint32_t nr_ev, cap_ev, soft_cap_ev;
	uint32_t op_start; /* the next event starts an operation */
	uint64_t budget_end; /* mmsim_run(): work_done where this call stops (run.c: access_op) */
	int trace;
	int debug_vm;
	uint64_t mem_bytes, mem_peak;
	char check_msg[256];
	uint32_t host_refused; /* sim_alloc() failed: an EOOM that follows is the host's, not machine.memory's */
	const char *load_msg; /* why load.c refused the program, or why run.c stopped (lost events) */
	/*
	 * A capture (mem.c): the whole state, saved by trace_emit() when
	 * events_total reaches capture_at, in the middle of an operation, where
	 * no snapshot can be taken from outside. frozen: a capture was put in
	 * place; the machine answers queries but cannot resume half an
	 * operation, so mmsim_run() refuses until a snapshot is restored.
	 */
	uint64_t capture_at; /* UINT64_MAX: none armed */
	void *capture;
	uint64_t capture_len, capture_cap;
	int frozen;
	uint64_t prefetch_sink; /* run.c: mmu_prefetch()'s loads in wasm, folded in; never read */
};

/* ------------------------------------------------------------- accessors */

static inline struct page *pfn_to_page(const struct mmsim *sim, uint32_t pfn)
{
	return (struct page *)sim->pm[POOL_PAGE].chunk[pfn >> PAGE_CHUNK_SHIFT] +
	       (pfn & ((1u << PAGE_CHUNK_SHIFT) - 1));
}

static inline uint64_t *pgt_table(const struct mmsim *sim, uint32_t tid)
{
	return (uint64_t *)sim->pm[POOL_PGTABLE].chunk[tid >> PGT_CHUNK_SHIFT] +
	       (size_t)(tid & ((1u << PGT_CHUNK_SHIFT) - 1)) * PTRS_PER_PTE;
}

static inline void *pool_ptr(const struct mmsim *sim, int pool, uint32_t idx)
{
	const struct pool_mem *pm = &sim->pm[pool];
	return pm->chunk[idx >> pm->shift] +
	       (size_t)(idx & ((1u << pm->shift) - 1)) * pm->elem_size;
}

/* typed accessors: element size and chunk shift are constants (hot paths) */
#define POOL_ELEM(sim, pool, type, shift, idx) \
	((type *)(sim)->pm[pool].chunk[(idx) >> (shift)] + ((idx) & ((1u << (shift)) - 1)))

static inline struct xa_node *xa_node(const struct mmsim *sim, uint32_t id)
{
	return POOL_ELEM(sim, POOL_XA, struct xa_node, XA_POOL_SHIFT, id);
}
static inline struct vm_area_struct *vma_ptr(const struct mmsim *sim, uint32_t id)
{
	return POOL_ELEM(sim, POOL_VMA, struct vm_area_struct, SMALL_CHUNK_SHIFT, id);
}
static inline struct maprec *maprec_ptr(const struct mmsim *sim, uint32_t id)
{
	return POOL_ELEM(sim, POOL_MAPREC, struct maprec, SMALL_CHUNK_SHIFT, id);
}
static inline struct task_struct *task_ptr(const struct mmsim *sim, uint32_t task)
{
	return POOL_ELEM(sim, POOL_TASK, struct task_struct, SMALL_CHUNK_SHIFT, task + 1);
}
static inline struct mm_struct *mm_ptr(const struct mmsim *sim, uint32_t mm)
{
	return POOL_ELEM(sim, POOL_MM, struct mm_struct, SMALL_CHUNK_SHIFT, mm + 1);
}
static inline struct file *file_ptr(const struct mmsim *sim, uint32_t file)
{
	return POOL_ELEM(sim, POOL_FILE, struct file, SMALL_CHUNK_SHIFT, file + 1);
}

/* vma_is_shmem(): a mapping of a tmpfs file */
static inline bool vma_is_shmem(const struct mmsim *sim, const struct vm_area_struct *vma)
{
	return vma->vm_file && shmem_file(file_ptr(sim, vma->vm_file - 1));
}
static inline const struct mmsim_step *step_ptr(const struct mmsim *sim, uint32_t i)
{
	return POOL_ELEM(sim, POOL_STEP, const struct mmsim_step, STEP_CHUNK_SHIFT, i + 1);
}
static inline uint64_t prog_data(const struct mmsim *sim, uint32_t i)
{
	return *POOL_ELEM(sim, POOL_DATA, const uint64_t, DATA_CHUNK_SHIFT, i + 1);
}

/* ------------------------------------------------------------- page flags */

static inline bool PageFlag(const struct page *p, unsigned bit)
{
	return p->flags & (1u << bit);
}
#define folio_test(f, flag) (((f)->flags & PF(flag)) != 0)
#define folio_set(f, flag) ((f)->flags |= PF(flag))
#define folio_clear(f, flag) ((f)->flags &= ~PF(flag))
#define folio_test_anon(f) folio_test(f, anon)
#define folio_test_large(f) folio_test(f, head)

/* the folio a page belongs to: tails keep their head's pfn in ->private */
static inline uint32_t compound_head(const struct mmsim *sim, uint32_t pfn)
{
	const struct page *p = pfn_to_page(sim, pfn);

	return (p->flags & PF(tail)) ? p->private : pfn;
}

/* folio_order(): 0 for an order-0 folio; a large folio keeps it in page[1].flags */
static inline uint32_t folio_order(const struct mmsim *sim, uint32_t pfn)
{
	if (!(pfn_to_page(sim, pfn)->flags & PF(head)))
		return 0;
	return pfn_to_page(sim, pfn + 1)->flags & 0xff;
}

/*
 * A page's name in the LRU's events (their addr field): file id + 1 in the
 * high half and the page index in the low one for a page-cache folio, 0
 * for an anonymous one (its pfn is in the event too).
 */
static inline uint64_t page_tag(const struct mmsim *sim, uint32_t pfn)
{
	const struct page *folio = pfn_to_page(sim, compound_head(sim, pfn));

	if ((folio->flags & PF(anon)) || !folio->mapping)
		return 0;
	return ((uint64_t)folio->mapping << 32) | (folio->index + (pfn - compound_head(sim, pfn)));
}

/* mm_counter_file(): tmpfs pages (swap-backed) count in MM_SHMEMPAGES */
static inline int mm_counter_file(const struct page *folio)
{
	return folio_test(folio, swapbacked) ? MMSIM_MM_SHMEMPAGES : MMSIM_MM_FILEPAGES;
}

/* ------------------------------------------------------------- counters */

static inline void count_vm_event(struct mmsim *sim, enum mmsim_counter c)
{
	sim->s.counters[c]++;
}
static inline void count_vm_events(struct mmsim *sim, enum mmsim_counter c, uint64_t n)
{
	sim->s.counters[c] += n;
}
static inline void mod_node_page_state(struct mmsim *sim, enum mmsim_counter c, int64_t delta)
{
	sim->s.counters[c] = (uint64_t)((int64_t)sim->s.counters[c] + delta);
}
static inline void count_task_event(struct mmsim *sim, uint32_t task, enum mmsim_task_counter c)
{
	task_ptr(sim, task)->counters[c]++;
}

/* ------------------------------------------------------------- events */

void trace_emit(struct mmsim *sim, uint32_t type, uint64_t addr, uint32_t a, uint32_t b, uint32_t c,
		uint32_t d);

static inline void trace(struct mmsim *sim, uint32_t type, uint64_t addr, uint32_t a, uint32_t b,
			 uint32_t c, uint32_t d)
{
	if (unlikely(sim->trace))
		trace_emit(sim, type, addr, a, b, c, d);
}

/* a packed event field must fit its bits (the description's opts.bits) */
#define MMSIM_TRACE_FITS(v, bits) VM_BUG_ON((uint64_t)(v) >> (bits))

/* trace_<event>(sim, fields...): the emit helpers, generated from the description */
#include "trace_gen.h"

/* from here on an event is emitted through its helper only: a raw trace() could fill a word the
   description does not give its kind */
#define trace(...) \
	_Static_assert(0, "emit events through the trace_<event>() helpers of trace_gen.h")

/* trace.c: record the run's first error (the current step and task, addr, detail); returns code */
int sim_error(struct mmsim *sim, int code, uint64_t addr, uint64_t detail);

/* ------------------------------------------------------------- functions */

struct vm_fault;

/* mem.c */
void *sim_alloc(struct mmsim *sim, size_t size);
void sim_free(struct mmsim *sim, void *p, size_t size);
int pool_init(struct mmsim *sim, int pool, uint32_t elem_size, uint32_t shift);
int pool_reserve(struct mmsim *sim, int pool, uint32_t nr);
uint32_t pool_alloc(struct mmsim *sim, int pool);
void pool_free(struct mmsim *sim, int pool, uint32_t idx);
void pool_destroy_all(struct mmsim *sim);
void capture_now(struct mmsim *sim);
extern const char mmsim_frozen_msg[];

/* run.c: the machine's work between operations (read and write completions, kswapd, the flusher) */
void background_work(struct mmsim *sim);
static inline void sim_tick(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;

	s->clock++;
	if (unlikely(s->io_count | s->wb_count | s->kswapd.running | s->flusher_woken))
		background_work(sim);
}

/* debug_vm.c: the invariant checks every run ends with (the full ones: mmsim_check) */
int mmsim_check_cheap(struct mmsim *sim, char *msg, uint32_t len);

#endif /* MMSIM_INTERNAL_H */

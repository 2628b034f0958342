/*
 * test_core.c - native unit tests of the core, built with ASan and UBSan
 * and with assertions on (MMSIM_DEBUG). Every test runs with debug_vm, so
 * the invariant checker (debug_vm.c) runs after every step.
 *
 * Windows are drawn as PTE indexes within their page table:
 *
 *     |<------ aligned 16-page block ------>|
 *     16 17 ... 20 [21] 22 ... 31            [21] = the faulting page
 */
#include "harness.h"
#include "internal.h"
#include "filemap.h"
#include "huge_mm.h"
#include "memory.h"
#include "mmap.h"
#include "page_alloc.h"
#include "pagewalk.h"
#include "prefault.h"
#include "prng.h"
#include "rmap.h"
#include "swap.h"
#include "vmacache.h"
#include "vmscan.h"
#include "writeback.h"
#include "xarray.h"
#include "prog.h"

struct test_case tests[256];
int ntests;

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static struct mmsim_event *evs;
static size_t nevs, capevs;

static void collect(struct mmsim *sim)
{
	uint32_t n = mmsim_nr_events(sim);

	if (nevs + n > capevs) {
		capevs = (nevs + n) * 2;
		evs = realloc(evs, capevs * sizeof(*evs));
	}
	memcpy(evs + nevs, mmsim_events(sim), n * sizeof(*evs));
	nevs += n;
	mmsim_events_clear(sim);
}

static struct mmsim *start(struct prog *p)
{
	struct mmsim_config cfg;
	struct mmsim *sim;
	int err;

	mmsim_config_default(&cfg);
	cfg.trace = 1;
	cfg.debug_vm = 1;
	cfg.event_capacity = 4096;
	sim = mmsim_create(&cfg);
	prog_build(p);
	err = mmsim_load(sim, p->bytes, p->len);
	if (err)
		fprintf(stderr, "%s: load failed %d: %s (step %u)\n", current, err,
			mmsim_load_message(sim), mmsim_last_error(sim)->step);
	CHECK_EQ(err, 0);
	nevs = 0;
	return sim;
}

static int run_all(struct mmsim *sim)
{
	int st;

	do {
		st = mmsim_run(sim, MMSIM_UNLIMITED, MMSIM_UNLIMITED);
		collect(sim);
	} while (st == MMSIM_RUN_EVENTS_FULL);
	if (st == MMSIM_RUN_ERROR && mmsim_last_error(sim)->code == MMSIM_EINVARIANT)
		fprintf(stderr, "%s: invariant: %s\n", current, mmsim_check_message(sim));
	return st;
}

/* run operations until the interpreter is about to execute step pc */
static void run_to_step(struct mmsim *sim, uint32_t pc)
{
	/* (pc at a loop's end means the interpreter is about to end an iteration, not to run step pc) */
	while (!sim->s.finished &&
	       (sim->s.pc < pc || sim->s.acc_active || sim->s.preload_file < sim->s.hdr.nr_files ||
		(sim->s.nr_loops && sim->s.pc == sim->s.loops[sim->s.nr_loops - 1].end))) {
		int st = mmsim_run(sim, 1, MMSIM_UNLIMITED);

		collect(sim);
		if (st == MMSIM_RUN_ERROR)
			break;
	}
}

static size_t count_ev(uint32_t type)
{
	size_t n = 0;

	for (size_t i = 0; i < nevs; i++)
		if ((evs[i].type & MMSIM_EV_TYPE_MASK) == type)
			n++;
	return n;
}

static size_t count_skip(uint32_t reason)
{
	size_t n = 0;

	for (size_t i = 0; i < nevs; i++)
		if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_MAP_SKIP && evs[i].b == reason)
			n++;
	return n;
}

/* the i-th MAP_PAGES event */
static const struct mmsim_event *map_pages_ev(size_t k)
{
	for (size_t i = 0; i < nevs; i++)
		if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_MAP_PAGES && k-- == 0)
			return &evs[i];
	return NULL;
}

static const struct maprec *map0(struct mmsim *sim, uint32_t task, uint32_t map)
{
	return maprec_find(sim, task_ptr(sim, task)->mm, map);
}

static bool mapped(struct mmsim *sim, uint32_t task, uint64_t addr)
{
	uint64_t *pte = walk_pte(sim, mm_ptr(sim, task_ptr(sim, task)->mm), addr);

	return pte && pte_present(*pte);
}

/* ----------------------------------------------------------- windows */

/*
 * A release run (no debug_vm) ends with the cheap invariant checks: a state
 * broken on purpose (nr_free_pages off by one from the free lists) makes it
 * fail, never report done.
 */
TEST(release_run_ends_with_the_checks)
{
	struct prog p;
	uint64_t pages[] = { 0 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	sim->debug_vm = 0; /* a release run */
	run_to_step(sim, 1);
	sim->s.counters[MMSIM_NR_FREE_PAGES]++;
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_EINVARIANT);
	CHECK(strstr(mmsim_check_message(sim), "nr_free_pages"));
	mmsim_destroy(sim);
}

TEST(window_aligned)
{
	/*
	 * 256 KiB cached file, 2 MiB-aligned mapping, fault at page 21, W = 16:
	 *
	 *     16 17 18 19 20 [21] 22 23 24 25 26 27 28 29 30 31     all mapped
	 *
	 * The faulting page is mapped by map_pages itself: VM_FAULT_NOPAGE.
	 */
	struct prog p;
	uint64_t pages[] = { 21 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1);
	CHECK_EQ(map_pages_ev(0)->b, 16);
	CHECK_EQ(map_pages_ev(0)->c, 31);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_FAULT_AROUND_MAPPED), 15);
	for (uint64_t i = 0; i < 64; i++)
		CHECK_EQ(mapped(sim, 0, map0(sim, 0, 0)->start + i * PAGE_SIZE), i >= 16 && i < 32);
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_FILEPAGES], 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 16);
	mmsim_destroy(sim);
}

TEST(window_clamped_by_vma_start)
{
	/*
	 * The VMA starts 3 pages into an aligned block (MAP_FIXED at +12 KiB).
	 * A fault on its first page (PTE 3):
	 *
	 *     aligned block      0  1  2 |3 ... 15|16 17 18| 19 ...
	 *     VMA                         [3 ..................
	 *     window                      [3 ............. 18]    W pages from vm_start
	 *
	 * The window is not aligned: it runs into the next block (rule FA-3).
	 */
	struct prog p;
	uint64_t pages[] = { 0 };
	struct mmsim_step *m;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	m = prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	m->flags |= MMSIM_STEPF_FIXED;
	m->addr = 0x7f0000000000ull + 3 * PAGE_SIZE;
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map_pages_ev(0)->b, 0); /* start_pgoff: the first file page */
	CHECK_EQ(map_pages_ev(0)->c, 15); /* end_pgoff: 16 pages */
	CHECK_EQ(map_pages_ev(0)->addr, 0x7f0000000000ull + 3 * PAGE_SIZE);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 16);
	mmsim_destroy(sim);
}

TEST(window_clamped_by_vma_end)
{
	/*
	 * A 20-page mapping; a fault at page 18:
	 *
	 *     16 17 [18] 19 | 20 ... 31     VMA ends after 19
	 *     window 16 .. 19               clamped to the VMA end
	 */
	struct prog p;
	uint64_t pages[] = { 18 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 20 * PAGE_SIZE, 0, 0);
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map_pages_ev(0)->b, 16);
	CHECK_EQ(map_pages_ev(0)->c, 19);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 4);
	mmsim_destroy(sim);
}

TEST(window_clamped_by_page_table)
{
	/*
	 * The VMA starts at PTE 500 of its page table (MAP_FIXED at 2 MiB - 48 KiB).
	 * A fault on its first page:
	 *
	 *     PTE  496 ... 499 |[500] ... 511| 0 1 2 3 (next page table)
	 *     from = max(ALIGN_DOWN(500, 16), 500 - min(500, 0)) = 500
	 *     to   = min(500 + 16, 512, ...) - 1                  = 511
	 *
	 * 12 pages: the window never crosses into the next page table.
	 */
	struct prog p;
	uint64_t pages[] = { 0 };
	struct mmsim_step *m;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	m = prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	m->flags |= MMSIM_STEPF_FIXED;
	m->addr = 0x7f0000000000ull + 500 * PAGE_SIZE;
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map_pages_ev(0)->b, 0);
	CHECK_EQ(map_pages_ev(0)->c, 11);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 12);
	mmsim_destroy(sim);
}

TEST(window_file_offset)
{
	/*
	 * Mapping the file from offset 64 KiB: pgoff = page + 16. A fault at
	 * page 5 of the mapping: the window is aligned in the virtual address
	 * (pages 0..15 of the mapping), i.e. pgoffs 16..31.
	 */
	struct prog p;
	uint64_t pages[] = { 5 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 64 * KiB, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map_pages_ev(0)->b, 16);
	CHECK_EQ(map_pages_ev(0)->c, 31);
	CHECK_EQ(map_pages_ev(0)->d, 21);
	mmsim_destroy(sim);
}

TEST(window_whole_page_table)
{
	/* W = 512 (order 9): one fault maps the whole page table: PTE 0 .. 511 */
	struct prog p;
	uint64_t pages[] = { 300 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	p.h.fault_around_bytes = 2 * MiB;
	prog_file(&p, 4 * MiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, pages, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map_pages_ev(0)->b, 0);
	CHECK_EQ(map_pages_ev(0)->c, 511);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 512);
	mmsim_destroy(sim);
}

TEST(fault_around_off)
{
	/* fault_around_bytes = 4096: no map_pages; ->fault maps the one page */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	p.h.fault_around_bytes = 4096;
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 64);
	CHECK_EQ(count_ev(MMSIM_EV_MAP_PAGES), 0);
	CHECK_EQ(count_ev(MMSIM_EV_FILEMAP_FAULT), 64);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 0);
	mmsim_destroy(sim);
}

TEST(fault_count_independent_of_order)
{
	/* rule FA-COUNT: sequential and random touch every page, N/W faults either way */
	for (int pattern = MMSIM_PAT_SEQUENTIAL; pattern <= MMSIM_PAT_RANDOM; pattern++)
		for (uint32_t w = 4096; w <= 2 * MiB; w *= 2) {
			struct prog p;
			struct mmsim *sim;

			prog_init(&p, 64 * MiB);
			p.h.fault_around_bytes = w;
			prog_file(&p, 8 * MiB, 1);
			prog_proc(&p, 1, 0);
			prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
			prog_access(&p, 0, 0, 0, (uint8_t)pattern, 0, 0);
			sim = start(&p);
			CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
			CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2048 / (w / 4096));
			CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 2048);
			mmsim_destroy(sim);
		}
}

/* ----------------------------------------------------------- skip reasons */

/* a 64-page cached file mapped at an aligned address, stopped before the access step */
static struct mmsim *skip_setup(struct prog *p, uint64_t touch)
{
	struct mmsim *sim;

	prog_init(p, 64 * MiB);
	prog_file(p, 256 * KiB, 1);
	prog_proc(p, 1, 0);
	prog_mmap(p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(p, 0, 0, 0, &touch, 1);
	sim = start(p);
	run_to_step(sim, 1);
	return sim;
}

TEST(skip_hole_shadow_and_not_uptodate)
{
	/*
	 * Window 0 .. 15, fault at 0:
	 *     [0] 1 2 3 4 ...                  page 3 removed      -> hole
	 *                                      page 4 a shadow      -> shadow
	 *                                      page 5 !uptodate     -> not uptodate
	 */
	struct prog p;
	struct mmsim *sim = skip_setup(&p, 0);
	uint32_t pfn3 = filemap_get_folio(sim, 0, 3), pfn4 = filemap_get_folio(sim, 0, 4);

	filemap_remove_folio(sim, 0, pfn3, 0);
	filemap_remove_folio(sim, 0, pfn4, xa_mk_value(7)); /* as reclaim leaves it */
	folio_clear(pfn_to_page(sim, filemap_get_folio(sim, 0, 5)), uptodate);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_skip(MMSIM_SKIP_HOLE), 1);
	CHECK_EQ(count_skip(MMSIM_SKIP_SHADOW), 1);
	CHECK_EQ(count_skip(MMSIM_SKIP_NOT_UPTODATE), 1);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 13);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_FAULT_AROUND_SKIPPED), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1);
	mmsim_destroy(sim);
}

TEST(skip_readahead_hwpoison_locked)
{
	/*
	 * Window 16 .. 31, fault at 16:  page 20 PG_readahead, 21 PG_hwpoison,
	 * 22 PG_locked (a read in flight).
	 */
	struct prog p;
	struct mmsim *sim = skip_setup(&p, 16);

	folio_set(pfn_to_page(sim, filemap_get_folio(sim, 0, 20)), readahead);
	folio_set(pfn_to_page(sim, filemap_get_folio(sim, 0, 21)), hwpoison);
	sim->s.hdr.io_latency = 1000;
	{
		struct page *pg = pfn_to_page(sim, filemap_get_folio(sim, 0, 22));

		folio_set(pg, locked);
		folio_clear(pg, uptodate);
		io_submit_read(sim, 0, 22, 1);
	}
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_skip(MMSIM_SKIP_READAHEAD), 1);
	CHECK_EQ(count_skip(MMSIM_SKIP_HWPOISON), 1);
	CHECK_EQ(count_skip(MMSIM_SKIP_LOCKED), 1);
	CHECK_EQ(count_ev(MMSIM_EV_SET_PTE), 13);
	mmsim_destroy(sim);
}

TEST(skip_faulting_page_goes_to_fault)
{
	/*
	 * The faulting page itself carries PG_readahead: map_pages maps the 15
	 * others and returns 0, so ->fault runs. do_async_mmap_readahead() drops
	 * mmap_lock and calls page_cache_async_ra(), which clears the marker; the
	 * marker matches no readahead state and the next 32 pages are cached
	 * (page_cache_next_miss() finds no hole), so nothing is read. The fault
	 * is retried and the retry maps the page by fault-around. The first
	 * attempt ran under the per-VMA lock and was not VM_FAULT_MAJOR, so the
	 * retry does not carry FAULT_FLAG_TRIED: a minor fault for the task
	 * (x86 6.4+; before the per-VMA lock any retried fault was major).
	 */
	struct prog p;
	struct mmsim *sim = skip_setup(&p, 7);

	folio_set(pfn_to_page(sim, filemap_get_folio(sim, 0, 7)), readahead);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_ev(MMSIM_EV_FILEMAP_FAULT), 1);
	CHECK_EQ(count_ev(MMSIM_EV_ASYNC_RA), 0);
	CHECK(!folio_test(pfn_to_page(sim, filemap_get_folio(sim, 0, 7)), readahead));
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_READAHEAD_PAGES), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_FAULT_RETRIES), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1); /* a retry is not counted twice (v5.9+) */
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MAJ_FLT], 0);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT], 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 0);
	CHECK(mapped(sim, 0, map0(sim, 0, 0)->start + 7 * PAGE_SIZE));
	mmsim_destroy(sim);
}

TEST(skip_eof_and_pte_present)
{
	/*
	 * A 10-page file (the last page partial) in a 16-page mapping: pages
	 * 10 .. 15 are beyond EOF, and the window is clamped to i_size before
	 * anything is visited (they are neither mapped nor counted as skips):
	 *
	 *     mapping 0 .. 15, fault at 0:   window 0 .. 15 -> 0 .. 9
	 *
	 * Then an unaligned mapping whose first window runs into the next
	 * block makes the next fault skip present PTEs:
	 *
	 *     VMA at PTE 3:   window 1 = 3 .. 18   (fault at 3)
	 *                     window 2 = 16 .. 31  (fault at 20): 16 17 18 present
	 */
	struct prog p;
	uint64_t t1[] = { 0 }, t2[] = { 0, 17 };
	struct mmsim_step *m;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 9 * PAGE_SIZE + 100, 1);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 16 * PAGE_SIZE, 0, 0);
	prog_touch(&p, 0, 0, 0, t1, 1);
	m = prog_mmap(&p, 0, 1, 1, 0, 0, 0, 0);
	m->flags |= MMSIM_STEPF_FIXED;
	m->addr = 0x7f0000400000ull + 3 * PAGE_SIZE;
	prog_touch(&p, 0, 1, 0, t2, 2);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_skip(MMSIM_SKIP_EOF), 0);
	CHECK_EQ(map_pages_ev(0)->c, 9); /* end_pgoff clamped to the last page */
	CHECK_EQ(count_skip(MMSIM_SKIP_PTE_PRESENT), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_FAULT_AROUND_SKIPPED), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 10 + 16 + 13);
	mmsim_destroy(sim);
}

TEST(sigbus_beyond_eof)
{
	struct prog p;
	uint64_t t[] = { 12 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 10 * PAGE_SIZE, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 16 * PAGE_SIZE, 0, 0);
	prog_touch(&p, 0, 0, 0, t, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_ESIGBUS);
	CHECK_EQ(mmsim_last_error(sim)->step, 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1); /* failed faults count in pgfault */
	/* ... but not for the task: getrusage() counts successful faults only */
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_PGFAULT], 0);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MAJ_FLT] +
			 task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT],
		 0);
	/* the window 0 .. 15 was clamped to 0 .. 9 and found nothing to map at 12 */
	CHECK_EQ(map_pages_ev(0)->c, 9);
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- readahead */

TEST(major_fault_read_around)
{
	/*
	 * An uncached 1 MiB file read sequentially, readahead_kb 128 (32 pages):
	 *
	 *   fault at 0:  major; read-around 0 .. 31, PG_readahead on 24; retry
	 *                maps 0 .. 15 by fault-around
	 *   fault at 16: maps 16 .. 31 except 24 (PG_readahead)
	 *   fault at 24: ->fault sees the marker: async readahead 32 .. 63 (mark
	 *                32); retry maps 24
	 *   fault at 32: skips 32 (marked), ->fault: async 64 .. 95; retry
	 *   ... every 32 pages the marker sits at the window start; the last
	 *   async readahead (at 224) asks for 256 .. 287, past EOF: nothing read.
	 */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 1 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 256 / 16 + 1);
	CHECK_EQ(count_ev(MMSIM_EV_SYNC_RA), 1);
	CHECK_EQ(count_ev(MMSIM_EV_ASYNC_RA), 8); /* at 24, 32, 64, ..., 224 */
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_FILE_PAGES), 256);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGPGIN), 1024);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 256);
	mmsim_destroy(sim);
}

TEST(read_around_is_centred)
{
	/* a major fault at page 100: read-around 84 .. 115, marker on 108 */
	struct prog p;
	uint64_t t[] = { 100 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 1 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, t, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(file_ptr(sim, 0)->nrpages, 32);
	CHECK(filemap_get_folio(sim, 0, 84) && filemap_get_folio(sim, 0, 115));
	CHECK(!filemap_get_folio(sim, 0, 83) && !filemap_get_folio(sim, 0, 116));
	CHECK(folio_test(pfn_to_page(sim, filemap_get_folio(sim, 0, 108)), readahead));
	/* the retry's window 96 .. 111 maps all but the marked page */
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 15);
	mmsim_destroy(sim);
}

/* the k-th event of a type */
static const struct mmsim_event *nth_ev(uint32_t type, size_t k)
{
	for (size_t i = 0; i < nevs; i++)
		if ((evs[i].type & MMSIM_EV_TYPE_MASK) == type && k-- == 0)
			return &evs[i];
	return NULL;
}

/* a cold file of `pages` pages: touch page `first`, then read from first + 1 to the end */
static struct mmsim *resume_setup(struct prog *p, uint64_t pages, uint64_t first)
{
	prog_init(p, 64 * MiB);
	prog_file(p, pages * PAGE_SIZE, 0);
	prog_proc(p, 1, 0);
	prog_mmap(p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(p, 0, 0, 0, &first, 1);
	prog_access(p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, (first + 1) * PAGE_SIZE, 0);
	return start(p);
}

TEST(async_window_end_is_aligned)
{
	/*
	 * A cold 4 MiB file missed off-centre at page 17, then read on in order
	 * (Linux 6.18: 1 + 64 faults, measured with tools/kernel-check):
	 *
	 *   miss at 17:  read-around 1 .. 32, PG_readahead on 25
	 *   fault at 25: async at the expected mark: next window 33 .. 64 would
	 *                end at 65; trimmed to a 4-page boundary -> 33 .. 63
	 *                (31 pages), mark 33
	 *   fault at 33: async: 64 .. 95, mark 64 - on a 16-page fault-around
	 *                window start, where the reader faults anyway
	 *   then 96, 128, ... 992: one fault per 16-page window from 64 on.
	 *
	 * Without the trim the windows stay at 33 + 32k and every mark costs
	 * a fault of its own inside a window: 94 faults after the miss.
	 */
	struct prog p;
	struct mmsim *sim = resume_setup(&p, 1024, 17);

	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 0)->b, 33);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 0)->c, 31);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 1)->b, 64);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 1)->c, 32);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 2)->b, 96);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1 + 64);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MAJ_FLT], 1);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT], 64);
	mmsim_destroy(sim);
}

TEST(no_mark_when_eof_cuts_the_window)
{
	/*
	 * The same miss at 17 in a 50-page file:
	 *
	 *   read-around 1 .. 32, mark 25
	 *   async at 25: window 33 .. 63 (31 pages, lookahead 31), cut by EOF to
	 *                33 .. 49: 17 pages read, fewer than the lookahead, so
	 *                page_cache_ra_unbounded() marks none of them
	 *
	 * (The model used to mark 33, the first page, which cost a fault inside
	 * the window 32 .. 47.) Faults: 17 (major), 25, 32, 48.
	 */
	struct prog p;
	struct mmsim *sim = resume_setup(&p, 50, 17);

	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_ev(MMSIM_EV_ASYNC_RA), 1);
	CHECK_EQ(nth_ev(MMSIM_EV_ASYNC_RA, 0)->c, 31);
	CHECK_EQ(file_ptr(sim, 0)->nrpages, 49);
	for (uint64_t i = 0; i < 50; i++) {
		uint32_t pfn = filemap_get_folio(sim, 0, i);

		CHECK(!pfn || !folio_test(pfn_to_page(sim, pfn), readahead));
	}
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 4);
	mmsim_destroy(sim);
}

TEST(cold_sequential_read_is_one_major_fault)
{
	/*
	 * A cold 4 MiB file read in order: one major fault at 0 (read-around,
	 * retried), then every PG_readahead fault (24, then 32, 64, ... 992)
	 * drops the per-VMA lock for async readahead and is retried - as a
	 * minor fault, because the first attempt was not VM_FAULT_MAJOR.
	 * Linux 6.18: maj/min 1/64 (getrusage, /usr/bin/time, ps agree).
	 */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 4 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MAJ_FLT], 1);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT], 64);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_PGFAULT], 65);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_FAULT_RETRIES), 1 + 32);
	mmsim_destroy(sim);
}

TEST(locked_folio_keeps_mmap_miss)
{
	/*
	 * Page 7 of a cached file is under read I/O (locked) when the task
	 * faults on it, with mmap_miss at 100:
	 *
	 *   map_pages 0 .. 15: 15 usable pages (7 is locked)    -> 100 - 15 = 85
	 *   ->fault: page 7 found but locked: no mmap_miss-- (6.18) -> 85
	 *            wait for the read, drop the lock, retry
	 *   retry: map_pages: all 16 pages usable (15 already mapped) -> 85 - 16
	 */
	struct prog p;
	struct mmsim *sim = skip_setup(&p, 7);
	struct page *pg = pfn_to_page(sim, filemap_get_folio(sim, 0, 7));

	folio_set(pg, locked);
	folio_clear(pg, uptodate);
	sim->s.hdr.io_latency = 1000; /* the read stays in flight until waited for */
	io_submit_read(sim, 0, 7, 1);
	file_ptr(sim, 0)->f_ra.mmap_miss = 100;
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(count_ev(MMSIM_EV_FOLIO_WAIT), 1);
	CHECK_EQ(file_ptr(sim, 0)->f_ra.mmap_miss, 100 - 15 - 16);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT],
		 1); /* a retry after waiting is minor */
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- tmpfs */

static uint32_t prog_tmpfs(struct prog *p, uint64_t size, int cached)
{
	uint32_t f = prog_file(p, size, cached);

	p->files[f].flags |= MMSIM_FILE_SHMEM;
	return f;
}

TEST(tmpfs_read_then_shared_write)
{
	/*
	 * A written 4 MiB tmpfs file mapped shared and writable, without an
	 * address: placed page-aligned at mmap_base, s pages into a 16-page
	 * block (seed 1: s != 0, as the kernel's randomised base usually is):
	 *
	 *     vm_start = s pages into a block:  window 1 = [s .. s+15] (clamped)
	 *                                       then one per aligned block
	 *
	 * faults = ceil((s + 1024) / 16) = 65 (the kernel: 4,097 for 256 MiB).
	 * No ->page_mkwrite: the PTEs are writable from the read faults, so
	 * writing every page afterwards costs no fault.
	 */
	struct prog p;
	struct mmsim *sim;
	uint64_t vm_start, s;

	prog_init(&p, 64 * MiB);
	prog_tmpfs(&p, 4 * MiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 1);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_PGFAULT, 65);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_PGFAULT, 65);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_nr_expect_failures(sim), 0);
	vm_start = map0(sim, 0, 0)->start;
	s = (vm_start >> PAGE_SHIFT) & 15;
	CHECK(s != 0);
	CHECK_EQ(vm_start, mm_ptr(sim, 0)->mmap_base);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), (s + 1024 + 15) / 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_SHMEM), 1024);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_FILE_PAGES), 1024);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_INACTIVE_ANON), 1024);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 0); /* noop_dirty_folio */
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_SHMEMPAGES], 1024);
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_FILEPAGES], 0);
	CHECK_EQ(count_ev(MMSIM_EV_SHMEM_FAULT), 0); /* fault-around mapped every faulting page */
	mmsim_destroy(sim);
}

TEST(tmpfs_holes_private_writes_and_eof)
{
	/*
	 * A sparse tmpfs file (never written): every page is a hole, so
	 * fault-around finds nothing and each read fault allocates one new
	 * zeroed page in shmem_fault(): 64 minor faults for 64 pages (the
	 * kernel: 0/1024 for 4 MiB). A private writable mapping of it then
	 * copies each page on write (do_wp_page: 64 more faults); a read
	 * beyond i_size is SIGBUS.
	 */
	struct prog p;
	struct mmsim *sim;
	uint64_t beyond = 64;

	prog_init(&p, 64 * MiB);
	prog_tmpfs(&p, 256 * KiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 1);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_PGFAULT, 64);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_PGFAULT, 128);
	prog_mmap(&p, 0, 1, 0, 0, 65 * PAGE_SIZE, 1, 0);
	prog_touch(&p, 0, 1, 0, &beyond, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_ESIGBUS);
	CHECK_EQ(mmsim_nr_expect_failures(sim), 0);
	CHECK_EQ(count_ev(MMSIM_EV_SHMEM_FAULT), 64);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 0);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_MIN_FLT], 128);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_SHMEM), 64);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 64);
	mmsim_destroy(sim);
}

TEST(placement_keeps_2mib_alignment_for_disk_files)
{
	/* a disk file still lands at 0x7f0000000000; a tmpfs file below it */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 64 * KiB, 1);
	prog_tmpfs(&p, 64 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 0);
	prog_mmap(&p, 0, 1, 1, 0, 0, 1, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(map0(sim, 0, 0)->start, 0x7f0000000000ull);
	CHECK(map0(sim, 0, 1)->start < 0x7f0000000000ull);
	CHECK(map0(sim, 0, 1)->start >= 0x7f0000000000ull - 511 * PAGE_SIZE);
	mmsim_destroy(sim);
}

TEST(io_latency_makes_locked_skips)
{
	/* reads that take 40 touches: a sequential reader catches up with readahead */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	p.h.io_latency = 40;
	prog_file(&p, 1 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK(count_skip(MMSIM_SKIP_LOCKED) > 0);
	CHECK(count_ev(MMSIM_EV_FOLIO_WAIT) > 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 256);
	mmsim_destroy(sim);
}

TEST(random_madvise_no_readahead)
{
	/* MADV_RANDOM: every major fault reads one page; fault-around finds nothing else */
	struct prog p;
	struct mmsim_step *s;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->task = 0;
	s->map = 0;
	s->kind = MMSIM_ADV_RANDOM;
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 64);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 64);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_READAHEAD_PAGES), 0);
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- writes */

TEST(shared_write_no_fault_around)
{
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 1);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 64);
	CHECK_EQ(count_ev(MMSIM_EV_MAP_PAGES), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 64);
	mmsim_destroy(sim);
}

TEST(read_then_write_shared_is_wp_fault)
{
	/* read maps 16 read-only PTEs by fault-around; each write then takes a wp fault */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 64 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 1);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1 + 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 16);
	mmsim_destroy(sim);
}

TEST(private_write_cow)
{
	/* a private writable mapping: each write fault copies (do_cow_fault) */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 64 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 1);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 16);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 0); /* the page cache is untouched */
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_ANONPAGES], 16);
	mmsim_destroy(sim);
}

TEST(anon_zero_page_then_write)
{
	/* read maps the zero page (no RSS); a write then copies (wp_page_copy) */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 64 * KiB, 0, 1);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_NR_ANON_PAGES, 0);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_nr_expect_failures(sim), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 32);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 16);
	/*
	 * 2.6.39: new anon pages go to the active anon list, through the
	 * lru_add pagevec; the 14th drained it, the last two wait there:
	 *     active anon [14]    lru_add_pvecs[ACTIVE_ANON] [2]
	 */
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ACTIVE_ANON), 14);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_INACTIVE_ANON), 0);
	CHECK_EQ(sim->s.pvecs[MMSIM_PVEC_LRU_ADD_ACTIVE_ANON].nr, 2);
	mmsim_destroy(sim);
}

TEST(fork_cow)
{
	/*
	 * parent writes 4 anon pages, forks; the child writes page 0 (copy: the
	 * page is shared), then the parent writes page 0 (reuse: it is the only
	 * mapper now) and page 1 (copy).
	 */
	struct prog p;
	uint64_t p0[] = { 0 }, p01[] = { 0, 1 };
	struct mmsim_step *f;
	struct mmsim *sim;

	prog_anon_pair(&p, 64 * MiB, 16 * KiB);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	f = prog_step(&p, MMSIM_OP_FORK);
	f->task = 0;
	f->file = 1;
	prog_touch(&p, 1, 0, 1, p0, 1);
	prog_touch(&p, 0, 0, 1, p01, 2);
	prog_step(&p, MMSIM_OP_EXIT)->task = 1;
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 4 + 1 + 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGREUSE), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 4);
	CHECK(!mm_ptr(sim, 1)->alive);
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- VMAs, page tables */

static uint32_t nr_vmas(struct mmsim *sim, uint32_t mm)
{
	return mm_ptr(sim, mm)->map_count;
}

TEST(vma_split_and_merge)
{
	/*
	 *   step 0  mmap 4 MiB anon            [0 ............................ 4M)   1 VMA
	 *   step 1  madvise random [1M, 2M)    [0 .. 1M)[1M .. 2M)[2M ........ 4M)   3 VMAs, 2 splits
	 *   step 2  madvise random, all        [0 ............................ 4M)   1 VMA, 2 merges
	 *   step 3  munmap [2M, 3M)            [0 ...... 2M)          [3M .... 4M)   2 VMAs, 2 splits
	 *   step 4  mmap fixed [2M, 3M)        [0 ...... 2M)[2M .. 3M)[3M .... 4M)   3 VMAs (flags differ)
	 *   step 5  madvise random on it       [0 ............................ 4M)   1 VMA, 2 merges
	 */
	struct prog p;
	struct mmsim_step *s;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 4 * MiB, 0, 1);
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->map = 0;
	s->kind = MMSIM_ADV_RANDOM;
	s->offset = 1 * MiB;
	s->length = 1 * MiB;
	s->flags = MMSIM_STEPF_LENGTH;
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->map = 0;
	s->kind = MMSIM_ADV_RANDOM;
	s = prog_step(&p, MMSIM_OP_MUNMAP);
	s->map = 0;
	s->offset = 2 * MiB;
	s->length = 1 * MiB;
	s->flags = MMSIM_STEPF_LENGTH;
	s = prog_mmap(&p, 0, 1, -1, 0, 1 * MiB, 0, 1);
	s->flags |= MMSIM_STEPF_FIXED;
	s->addr = 0x7f0000200000ull;
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->map = 1;
	s->kind = MMSIM_ADV_RANDOM;
	sim = start(&p);
	run_to_step(sim, 2);
	CHECK_EQ(nr_vmas(sim, 0), 3);
	run_to_step(sim, 3);
	CHECK_EQ(nr_vmas(sim, 0), 1);
	run_to_step(sim, 4);
	CHECK_EQ(nr_vmas(sim, 0), 2);
	run_to_step(sim, 5);
	CHECK_EQ(nr_vmas(sim, 0), 3);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(nr_vmas(sim, 0), 1);
	CHECK_EQ(count_ev(MMSIM_EV_VMA_SPLIT), 4);
	CHECK_EQ(count_ev(MMSIM_EV_VMA_MERGE), 4);
	mmsim_destroy(sim);
}

TEST(mmap_merges_with_neighbours)
{
	/*
	 * Two 2 MiB anonymous mappings land back to back (bottom-up, 2 MiB
	 * aligned) and merge into one VMA; two mappings of the same file at
	 * file offset 0 do not (their pgoffs are not contiguous).
	 */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 2 * MiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 2 * MiB, 0, 1);
	prog_mmap(&p, 0, 1, -1, 0, 2 * MiB, 0, 1);
	prog_mmap(&p, 0, 2, 0, 0, 0, 0, 0);
	prog_mmap(&p, 0, 3, 0, 0, 0, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(nr_vmas(sim, 0), 3);
	CHECK_EQ(map0(sim, 0, 1)->start, 0x7f0000200000ull);
	CHECK_EQ(count_ev(MMSIM_EV_VMA_MERGE), 1);
	mmsim_destroy(sim);
}

TEST(vma_tree_stress)
{
	/* many fixed mappings and unmappings; debug_vm checks the rb-tree after each step */
	struct prog p;
	struct mmsim *sim;
	uint64_t x = 12345;

	prog_init(&p, 256 * MiB);
	prog_proc(&p, 1, 0);
	for (int i = 0; i < 150; i++) {
		struct mmsim_step *s;
		uint64_t page;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		page = (x >> 33) % 512;
		s = prog_mmap(&p, 0, (uint32_t)i, -1, 0, ((x >> 20) % 8 + 1) * PAGE_SIZE, 0, i & 1);
		s->flags |= MMSIM_STEPF_FIXED;
		s->addr = 0x7f0000000000ull + page * PAGE_SIZE;
		if (i % 3 == 2) {
			uint64_t pg = 0;

			prog_touch(&p, 0, (uint32_t)i, i & 1, &pg, 1);
		}
		if (i % 5 == 4) {
			s = prog_step(&p, MMSIM_OP_MUNMAP);
			s->map = (uint32_t)(i - 2);
		}
	}
	sim = start(&p);
	{
		int st = run_all(sim);

		/* a munmap of a name an earlier MAP_FIXED already unmapped is an error; accept it */
		CHECK(st == MMSIM_RUN_DONE || mmsim_last_error(sim)->code == MMSIM_ENOMAP);
	}
	CHECK(mmsim_last_error(sim)->code != MMSIM_EINVARIANT);
	mmsim_destroy(sim);
}

TEST(page_table_allocation)
{
	/*
	 * PGD exists from the start. The first fault allocates PUD, PMD and PTE
	 * tables; a fault 2 MiB further only a PTE table; one 1 GiB further a
	 * PMD and a PTE table; munmap frees all but the PGD.
	 */
	struct prog p;
	uint64_t t[] = { 0, 1, 512, 262144 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 2 * GiB, 0, 1);
	prog_touch(&p, 0, 0, 1, t, 4);
	prog_step(&p, MMSIM_OP_MUNMAP)->map = 0;
	sim = start(&p);
	run_to_step(sim, 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_PAGE_TABLE_PAGES), 1);
	run_to_step(sim, 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_PAGE_TABLE_PAGES), 1 + 3 + 1 + 2);
	CHECK_EQ(count_ev(MMSIM_EV_PGTABLE_ALLOC), 1 + 3 + 1 + 2);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_PAGE_TABLE_PAGES), 1);
	CHECK_EQ(count_ev(MMSIM_EV_PGTABLE_FREE), 6);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 0);
	mmsim_destroy(sim);
}

TEST(no_table_when_nothing_to_map)
{
	/*
	 * An uncached file: the first attempt's map_pages finds nothing and does
	 * not install the PTE table; after the read the retry installs it.
	 */
	struct prog p;
	uint64_t t[] = { 0 };
	struct mmsim *sim;
	size_t alloc_at = 0, map_pages_at = 0, retry_at = 0;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 64 * KiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, t, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (size_t i = 0; i < nevs; i++) {
		uint32_t ty = evs[i].type & MMSIM_EV_TYPE_MASK;

		if (ty == MMSIM_EV_PGTABLE_ALLOC && evs[i].a == MMSIM_PGT_PTE)
			alloc_at = i;
		if (ty == MMSIM_EV_MAP_PAGES && !map_pages_at)
			map_pages_at = i;
		if (ty == MMSIM_EV_FAULT_DONE && evs[i].b == MMSIM_FK_RETRY)
			retry_at = i;
	}
	CHECK(map_pages_at && retry_at && alloc_at > retry_at);
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- cleared PTEs */

struct pte_list {
	size_t n;
	uint64_t addr[256];
	uint32_t pfn[256];
};

/* append the present PTEs of mm in [start, end), in address order */
static void present_ptes(struct mmsim *sim, uint32_t mm, uint64_t start, uint64_t end,
			 struct pte_list *l)
{
	for (uint64_t a = start; a < end; a += PAGE_SIZE) {
		uint64_t *pte = walk_pte(sim, mm_ptr(sim, mm), a);

		if (pte && pte_present(*pte) && l->n < 256) {
			l->addr[l->n] = a;
			l->pfn[l->n++] = pte_pfn(*pte);
		}
	}
}

/*
 * The events from evs[from] clear exactly the PTEs of l, in order, one
 * MMSIM_EV_PTE_CLEAR (addr, pfn, mm) each; each MMSIM_EV_ZAP follows the
 * clears it sums up.
 */
static void check_pte_clears(size_t from, uint32_t mm, const struct pte_list *l)
{
	size_t k = 0, since_zap = 0;

	for (size_t i = from; i < nevs; i++) {
		uint32_t ty = evs[i].type & MMSIM_EV_TYPE_MASK;

		if (ty == MMSIM_EV_ZAP) {
			CHECK_EQ(evs[i].a, since_zap);
			since_zap = 0;
			continue;
		}
		if (ty != MMSIM_EV_PTE_CLEAR)
			continue;
		if (k < l->n) {
			CHECK_EQ(evs[i].addr, l->addr[k]);
			CHECK_EQ(evs[i].a, l->pfn[k]);
		}
		CHECK_EQ(evs[i].b, mm);
		since_zap++;
		k++;
	}
	CHECK_EQ(k, l->n);
	CHECK_EQ(since_zap, 0);
}

TEST(every_cleared_pte_is_an_event)
{
	/*
	 * anon (64 pages):  W W W W W W W W W W W W W W W W . . . . Z Z Z Z . . .
	 *                   0              7 8          15       20    23
	 *   munmap [8, 32):                  |<- 8 anon, 4 zero-page PTEs ->|
	 * file (64 pages, fault at 21 maps 16..31):  madvise(DONTNEED) [16, 20)
	 * exit: anon 0..7 and file 20..31
	 */
	struct prog p;
	uint64_t w[16], z[] = { 20, 21, 22, 23 }, f[] = { 21 };
	struct pte_list l;
	struct mmsim_step *s;
	struct mmsim *sim;
	struct mmsim_vma_info vi[8];
	uint64_t anon, file;
	uint32_t n;
	size_t from;

	for (uint64_t i = 0; i < 16; i++)
		w[i] = i;
	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 256 * KiB, 0, 1);
	prog_mmap(&p, 0, 1, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 1, w, 16);
	prog_touch(&p, 0, 0, 0, z, 4);
	prog_touch(&p, 0, 1, 0, f, 1);
	s = prog_step(&p, MMSIM_OP_MUNMAP); /* step 5 */
	s->map = 0;
	s->offset = 8 * PAGE_SIZE;
	s->length = 24 * PAGE_SIZE;
	s->flags = MMSIM_STEPF_LENGTH;
	s = prog_step(&p, MMSIM_OP_MADVISE); /* step 6 */
	s->map = 1;
	s->kind = MMSIM_ADV_DONTNEED;
	s->offset = 16 * PAGE_SIZE;
	s->length = 4 * PAGE_SIZE;
	s->flags = MMSIM_STEPF_LENGTH;
	prog_step(&p, MMSIM_OP_EXIT)->task = 0; /* step 7 */
	sim = start(&p);

	run_to_step(sim, 5);
	anon = map0(sim, 0, 0)->start;
	file = map0(sim, 0, 1)->start;
	memset(&l, 0, sizeof(l));
	present_ptes(sim, 0, anon + 8 * PAGE_SIZE, anon + 32 * PAGE_SIZE, &l);
	CHECK_EQ(l.n, 8 + 4);
	CHECK_EQ(l.pfn[8], 0); /* the zero page */
	from = nevs;
	run_to_step(sim, 6);
	check_pte_clears(from, 0, &l);

	memset(&l, 0, sizeof(l));
	present_ptes(sim, 0, file + 16 * PAGE_SIZE, file + 20 * PAGE_SIZE, &l);
	CHECK_EQ(l.n, 4);
	from = nevs;
	run_to_step(sim, 7);
	check_pte_clears(from, 0, &l);

	memset(&l, 0, sizeof(l));
	n = mmsim_vmas(sim, 0, vi, 8);
	for (uint32_t i = 0; i < n; i++)
		present_ptes(sim, 0, vi[i].vm_start, vi[i].vm_end, &l);
	CHECK_EQ(l.n, 8 + 12);
	from = nevs;
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	check_pte_clears(from, 0, &l);
	CHECK_EQ(count_ev(MMSIM_EV_EXIT), 1);
	mmsim_destroy(sim);
}

/* ----------------------------------------------------------- infrastructure */

TEST(buddy_merges)
{
	struct mmsim_config cfg;
	struct mmsim *sim;
	struct prog p;
	uint32_t a, b, c;
	uint64_t free0;

	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	mmsim_config_default(&cfg);
	sim = mmsim_create(&cfg);
	prog_build(&p);
	CHECK_EQ(mmsim_load(sim, p.bytes, p.len), 0);
	free0 = mmsim_counter(sim, MMSIM_NR_FREE_PAGES);
	CHECK_EQ(alloc_pages(sim, 3, &a, 0), 0);
	CHECK_EQ(a & 7, 0);
	CHECK_EQ(alloc_pages(sim, 0, &b, 0), 0);
	CHECK_EQ(alloc_pages(sim, 9, &c, 0), 0);
	CHECK_EQ(c & 511, 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_FREE_PAGES), free0 - 8 - 1 - 512);
	pfn_to_page(sim, a)->_refcount = 0;
	free_pages(sim, a, 3);
	free_pages(sim, b, 0);
	free_pages(sim, c, 9);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_FREE_PAGES), free0);
	{
		char msg[256];

		CHECK_EQ(mmsim_check(sim, msg, sizeof(msg)), 0);
	}
	/*
	 * pfn 0 is the zero page, pfn 1 the PGD. The order-0 page (pfn 2, split
	 * from the order-1 gap block 2..3) merged back with pfn 3.
	 */
	CHECK_EQ(b, 2);
	CHECK_EQ(sim->s.free_area[0].nr_free, 0);
	CHECK_EQ(sim->s.free_area[1].nr_free, 1);
	CHECK_EQ(sim->s.free_area[1].head, 2);
	mmsim_destroy(sim);
}

TEST(xarray_grow_and_shrink)
{
	struct mmsim_config cfg;
	struct mmsim *sim;
	struct xarray xa = { 0 };

	mmsim_config_default(&cfg);
	sim = mmsim_create(&cfg);
	for (uint64_t i = 0; i < 5000; i += 7)
		CHECK_EQ(xa_store(sim, &xa, i * 131, xa_mk_folio((uint32_t)i + 1)), 0);
	for (uint64_t i = 0; i < 5000; i += 7)
		CHECK_EQ(xa_load(sim, &xa, i * 131), xa_mk_folio((uint32_t)i + 1));
	CHECK_EQ(xa_load(sim, &xa, 131 * 7 + 1), 0);
	for (uint64_t i = 0; i < 5000; i += 7)
		xa_erase(sim, &xa, i * 131);
	CHECK_EQ(xa.head, 0);
	CHECK_EQ(sim->s.pools[POOL_XA].nr_free + 1, sim->s.pools[POOL_XA].nr);
	mmsim_destroy(sim);
}

/* permute_index()'s width as first counted, bit by bit: recorded runs and goldens depend on its values */
static unsigned permute_width_reference(uint64_t n)
{
	unsigned bits = 2;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	return bits + (bits & 1);
}

TEST(permutation_keeps_its_width)
{
	int bad = 0;

	for (uint64_t n = 0; n < 5000; n++)
		bad += permute_width(n) != permute_width_reference(n);
	for (unsigned b = 3; b < 64; b++)
		for (int d = -1; d <= 1; d++) {
			uint64_t n = (1ull << b) + (uint64_t)(int64_t)d;

			bad += permute_width(n) != permute_width_reference(n);
		}
	bad += permute_width(UINT64_MAX) != permute_width_reference(UINT64_MAX);
	CHECK_EQ(bad, 0);
}

TEST(permutation_is_bijective)
{
	for (uint64_t n = 1; n < 3000; n = n * 3 + 1) {
		uint8_t *seen = calloc(n, 1);
		bool ok = true;

		for (uint64_t i = 0; i < n; i++) {
			uint64_t x = permute_index(42, i, n);

			if (x >= n || seen[x])
				ok = false;
			else
				seen[x] = 1;
		}
		CHECK(ok);
		free(seen);
	}
	CHECK(permute_index(1, 0, 1000) != permute_index(2, 0, 1000) ||
	      permute_index(1, 1, 1000) != permute_index(2, 1, 1000));
}

static uint64_t fnv(const struct mmsim_event *e, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const uint8_t *b = (const uint8_t *)e;

	for (size_t i = 0; i < n * sizeof(*e); i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static void build_mixed(struct prog *p)
{
	prog_init(p, 64 * MiB);
	p->h.io_latency = 9;
	prog_file(p, 1 * MiB, 0);
	prog_file(p, 512 * KiB, 1);
	prog_proc(p, 2, 0);
	prog_mmap(p, 0, 0, 0, 0, 0, 0, 0);
	prog_mmap(p, 0, 1, 1, 0, 0, 0, 1);
	prog_access(p, MMSIM_TASK_ALL | 0, 0, 0, MMSIM_PAT_RANDOM, 0, 0);
	prog_access(p, 1, 1, 1, MMSIM_PAT_UNIFORM, 0, 0)->count = 300;
	prog_access(p, 0, 1, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
}

/* an untraced run of p, in calls of `budget` operations (0: one call); its final state and work */
static void *run_untraced(struct prog *p, uint64_t budget, uint64_t *len, uint64_t *work)
{
	struct mmsim_config cfg;
	struct mmsim *sim;
	void *snap;
	int st;

	mmsim_config_default(&cfg);
	sim = mmsim_create(&cfg);
	prog_build(p);
	CHECK_EQ(mmsim_load(sim, p->bytes, p->len), 0);
	do {
		uint64_t before = mmsim_work_done(sim);
		int preloading = sim->s.preload_file < sim->s.hdr.nr_files;

		st = mmsim_run(sim, budget ? budget : MMSIM_UNLIMITED, MMSIM_UNLIMITED);
		/* a call does its budget's work, no more (but a cached file's preload chunk: one operation of many pages) */
		if (budget && !preloading)
			CHECK(mmsim_work_done(sim) - before <= budget);
	} while (st == MMSIM_RUN_WORK);
	CHECK_EQ(st, MMSIM_RUN_DONE);
	*work = mmsim_work_done(sim);
	*len = mmsim_snapshot_size(sim);
	snap = malloc(*len);
	CHECK_EQ(mmsim_snapshot_save(sim, snap, *len), 0);
	mmsim_destroy(sim);
	return snap;
}

/*
 * Untraced, an access step's touches run back to back in one call (run.c:
 * access_batch); each is still an operation. One operation per call, seven,
 * or all in one call: the same machine at the end, the same work.
 */
TEST(untraced_batches_are_operations)
{
	struct prog p;

	for (int kind = 0; kind < 3; kind++) {
		uint64_t len[3], work[3];
		void *snap[3];
		const uint64_t budgets[3] = { 0, 1, 7 };
		/* one thread in order; then in a random order, whose addresses run ahead in batches (run.c:
		   touch_ahead) and start again wherever a budget stops them */
		const uint32_t pat = kind == 1 ? MMSIM_PAT_SEQUENTIAL : MMSIM_PAT_RANDOM;

		if (kind == 0) {
			build_mixed(&p);
		} else {
			/* a file read with fault-around, anonymous memory written */
			prog_init(&p, 64 * MiB);
			prog_file(&p, 4 * MiB, 1);
			prog_proc(&p, 1, 0);
			prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
			prog_mmap(&p, 0, 1, -1, 0, 2 * MiB, 0, 1);
			prog_access(&p, 0, 0, 0, pat, 0, 0);
			prog_access(&p, 0, 1, 1, pat, 0, 0);
		}
		for (int b = 0; b < 3; b++)
			snap[b] = run_untraced(&p, budgets[b], &len[b], &work[b]);
		for (int b = 1; b < 3; b++) {
			CHECK_EQ(len[b], len[0]);
			CHECK_EQ(work[b], work[0]);
			CHECK(len[b] == len[0] && !memcmp(snap[b], snap[0], len[0]));
		}
		for (int b = 0; b < 3; b++)
			free(snap[b]);
	}
}

TEST(pause_and_snapshot_do_not_change_the_stream)
{
	struct prog p;
	struct mmsim *sim;
	uint64_t whole, paused;
	size_t total;
	void *snap;
	uint64_t snap_len, snap_at;

	build_mixed(&p);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	whole = fnv(evs, nevs);
	total = nevs;
	mmsim_destroy(sim);

	/* pausing after every operation gives the same events */
	sim = start(&p);
	while (mmsim_run(sim, 1, MMSIM_UNLIMITED) != MMSIM_RUN_DONE)
		collect(sim);
	collect(sim);
	paused = fnv(evs, nevs);
	CHECK_EQ(paused, whole);
	CHECK_EQ(nevs, total);
	mmsim_destroy(sim);

	/* stop at an event boundary, snapshot, finish; restore and finish again */
	sim = start(&p);
	CHECK_EQ(mmsim_run(sim, MMSIM_UNLIMITED, total / 2), MMSIM_RUN_STOP_EVENT);
	collect(sim);
	snap_at = nevs;
	CHECK(snap_at >= total / 2);
	snap_len = mmsim_snapshot_size(sim);
	snap = malloc(snap_len);
	CHECK_EQ(mmsim_snapshot_save(sim, snap, snap_len), 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(fnv(evs, nevs), whole);
	nevs = snap_at;
	CHECK_EQ(mmsim_snapshot_restore(sim, snap, snap_len), 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(fnv(evs, nevs), whole);
	CHECK(evs[snap_at].type & MMSIM_EVF_OP_START);
	free(snap);
	mmsim_destroy(sim);
}

TEST(capture_between_events_of_a_fault)
{
	/*
	 * The first fault (page 21) allocates the PUD, PMD and PTE tables and
	 * maps the 16 pages of its window; a capture stops inside it:
	 *
	 *     page_fault_user pgtable_alloc x2 map_pages pgtable_alloc(PTE) set_pte x16 fault_done
	 *                                                                 ^A          ^B after 5
	 *
	 * A: the PTE table is hooked in, empty; B: pages 16..20 mapped. Neither
	 * counts the fault yet (mm_account_fault runs at its end).
	 */
	struct prog p;
	uint64_t t[] = { 21, 0 };
	struct mmsim *sim;
	struct mmsim_event *ref;
	struct mmsim_walk w;
	size_t pf = 0, alloc_pte = 0, set5 = 0, done = 0, nset = 0, total;
	uint64_t whole, start_addr, snap_len;
	uint8_t st[64];
	void *snap, *frozen_snap;
	uint32_t present = 0;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_touch(&p, 0, 0, 0, t, 2);

	/* the whole stream, for reference */
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	whole = fnv(evs, nevs);
	total = nevs;
	ref = malloc(total * sizeof(*ref));
	memcpy(ref, evs, total * sizeof(*ref));
	for (size_t i = 0; i < total && !done; i++) {
		uint32_t type = ref[i].type & MMSIM_EV_TYPE_MASK;

		if (type == MMSIM_EV_PAGE_FAULT && !pf)
			pf = i;
		else if (type == MMSIM_EV_PGTABLE_ALLOC && ref[i].a == MMSIM_PGT_PTE)
			alloc_pte = i;
		else if (type == MMSIM_EV_SET_PTE && ++nset == 5)
			set5 = i;
		else if (type == MMSIM_EV_FAULT_DONE)
			done = i;
	}
	CHECK(ref[pf].type & MMSIM_EVF_OP_START);
	CHECK(pf < alloc_pte && alloc_pte < set5 && set5 < done);
	mmsim_destroy(sim);

	/* to the boundary before the fault; keep a snapshot there */
	sim = start(&p);
	CHECK_EQ(mmsim_run(sim, MMSIM_UNLIMITED, pf), MMSIM_RUN_STOP_EVENT);
	collect(sim);
	CHECK_EQ(mmsim_events_total(sim), pf);
	start_addr = map0(sim, 0, 0)->start;
	snap_len = mmsim_snapshot_size(sim);
	snap = malloc(snap_len);
	CHECK_EQ(mmsim_snapshot_save(sim, snap, snap_len), 0);
	CHECK_EQ(mmsim_capture_restore(sim), MMSIM_EINVAL); /* nothing captured */
	CHECK_EQ(mmsim_capture_at(sim, pf), MMSIM_EINVAL); /* recorded already */

	/* A: arm, run the fault's operation to its end, put the capture in place */
	CHECK_EQ(mmsim_capture_at(sim, alloc_pte + 1), 0);
	CHECK_EQ(mmsim_run(sim, 1, MMSIM_UNLIMITED), MMSIM_RUN_WORK);
	collect(sim);
	/* the capture changed no event */
	CHECK(nevs > done && memcmp(evs, ref, nevs * sizeof(*evs)) == 0);
	CHECK_EQ(mmsim_capture_restore(sim), 0);
	CHECK_EQ(mmsim_events_total(sim), alloc_pte + 1);
	CHECK_EQ(mmsim_walk(sim, 0, start_addr + 21 * PAGE_SIZE, &w), 0);
	CHECK(w.entry[MMSIM_PGT_PUD] & MMSIM_PTE_PRESENT);
	CHECK(w.entry[MMSIM_PGT_PMD] & MMSIM_PTE_PRESENT); /* hooked in before its event */
	CHECK_EQ(w.entry[MMSIM_PGT_PTE], 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_PAGE_TABLE_PAGES), 4);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 0);

	/* frozen: half a fault cannot be resumed, nor snapshotted as if it could */
	CHECK_EQ(mmsim_run(sim, MMSIM_UNLIMITED, MMSIM_UNLIMITED), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, 0);
	CHECK(strstr(mmsim_load_message(sim), "inside an operation") != NULL);
	frozen_snap = malloc(mmsim_snapshot_size(sim));
	CHECK_EQ(mmsim_snapshot_save(sim, frozen_snap, mmsim_snapshot_size(sim)), MMSIM_ESTATE);
	free(frozen_snap);

	/* B: from the snapshot again, five PTEs into the window */
	CHECK_EQ(mmsim_snapshot_restore(sim, snap, snap_len), 0);
	CHECK_EQ(mmsim_capture_at(sim, set5 + 1), 0);
	CHECK_EQ(mmsim_run(sim, 1, MMSIM_UNLIMITED), MMSIM_RUN_WORK);
	CHECK_EQ(mmsim_capture_restore(sim), 0);
	CHECK_EQ(mmsim_capture_restore(sim), 0); /* as often as asked */
	CHECK_EQ(mmsim_pte_states(sim, 0, start_addr, 64, st), 64);
	for (int i = 0; i < 64; i++) {
		present += st[i] != 0;
		CHECK_EQ(st[i] != 0, i >= 16 && i < 21);
	}
	CHECK_EQ(present, 5);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 5);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 0);

	/* a snapshot thaws it, and the run goes on as if nothing had happened */
	nevs = pf;
	CHECK_EQ(mmsim_snapshot_restore(sim, snap, snap_len), 0);
	CHECK_EQ(mmsim_load_message(sim)[0], 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(nevs, total);
	CHECK_EQ(fnv(evs, nevs), whole);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2);
	free(snap);
	free(ref);
	mmsim_destroy(sim);
}

TEST(checker_catches_corruption)
{
	struct prog p;
	struct mmsim *sim = skip_setup(&p, 0);
	char msg[256];

	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_check(sim, msg, sizeof(msg)), 0);
	pfn_to_page(sim, filemap_get_folio(sim, 0, 3))->_mapcount++;
	CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
	CHECK(strstr(msg, "_mapcount") != NULL);
	pfn_to_page(sim, filemap_get_folio(sim, 0, 3))->_mapcount--;
	mm_ptr(sim, 0)->rss[MMSIM_MM_FILEPAGES]++;
	CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
	CHECK(strstr(msg, "rss") != NULL);
	mm_ptr(sim, 0)->rss[MMSIM_MM_FILEPAGES]--;
	sim->s.counters[MMSIM_NR_FREE_PAGES]--;
	CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
	CHECK(strstr(msg, "nr_free_pages") != NULL);
	mmsim_destroy(sim);
}

/* a clean page tagged dirty in its page cache: the checker reads the tags leaf by leaf, so one in the first
   leaf (index 3) and one in the second (index 70, its slot 6) */
TEST(checker_reads_each_leafs_tags)
{
	static const uint64_t tagged[] = { 3, 70 };
	struct prog p;
	struct mmsim *sim;
	char msg[256], want[96];

	prog_init(&p, 64 * MiB);
	prog_file(&p, 512 * KiB, 1);
	prog_proc(&p, 1, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (unsigned i = 0; i < sizeof(tagged) / sizeof(tagged[0]); i++) {
		CHECK_EQ(mmsim_check(sim, msg, sizeof(msg)), 0);
		xa_set_tag(sim, &file_ptr(sim, 0)->i_pages, tagged[i]);
		CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
		snprintf(want, sizeof(want),
			 "index %llu: PG_dirty and the page cache's dirty tag disagree",
			 (unsigned long long)tagged[i]);
		CHECK(strstr(msg, want) != NULL);
		xa_clear_tag(sim, &file_ptr(sim, 0)->i_pages, tagged[i]);
	}
	mmsim_destroy(sim);
}

/*
 * A page cache with a hole: pages 0-3 and 200 read, readahead off, so the
 * leaves for indices 64-191 were never made. The checker goes from the hole
 * to the next folio: a page past it that its cache does not hold at its
 * index, or whose dirty tag is wrong, is still found.
 */
TEST(checker_reads_past_a_hole_in_the_page_cache)
{
	struct prog p;
	struct mmsim *sim;
	char msg[256];
	uint32_t pfn;

	prog_init(&p, 64 * MiB);
	p.h.readahead_kb = 0;
	prog_file(&p, 1 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_file_op(&p, MMSIM_OP_READ, 0, 0, 0, 4 * PAGE_SIZE);
	prog_file_op(&p, MMSIM_OP_READ, 0, 0, 200 * PAGE_SIZE, PAGE_SIZE);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(file_ptr(sim, 0)->nrpages, 5);
	CHECK_EQ(filemap_get_folio(sim, 0, 100), 0);
	CHECK_EQ(mmsim_check(sim, msg, sizeof(msg)), 0);
	/* the folio at 200 says it is at 201 */
	pfn = filemap_get_folio(sim, 0, 200);
	CHECK(pfn != 0);
	pfn_to_page(sim, pfn)->index = 201;
	CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
	CHECK(strstr(msg, "index 201) is not in its page cache") != NULL);
	pfn_to_page(sim, pfn)->index = 200;
	CHECK_EQ(mmsim_check(sim, msg, sizeof(msg)), 0);
	/* a clean page tagged dirty past the hole */
	xa_set_tag(sim, &file_ptr(sim, 0)->i_pages, 200);
	CHECK(mmsim_check(sim, msg, sizeof(msg)) < 0);
	CHECK(strstr(msg, "index 200: PG_dirty and the page cache's dirty tag disagree") != NULL);
	mmsim_destroy(sim);
}

TEST(errors)
{
	struct prog p;
	struct mmsim *sim;
	uint64_t t[] = { 300 };

	/* SIGSEGV: touching the part of a mapping that was unmapped */
	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 2 * MiB, 0, 1);
	{
		struct mmsim_step *s = prog_step(&p, MMSIM_OP_MUNMAP);

		s->map = 0;
		s->offset = 1 * MiB;
		s->length = 1 * MiB;
		s->flags = MMSIM_STEPF_LENGTH;
	}
	prog_touch(&p, 0, 0, 0, t, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_ESEGV);
	CHECK_EQ(mmsim_last_error(sim)->addr, 0x7f0000000000ull + 300 * PAGE_SIZE);
	mmsim_destroy(sim);

	/* a cached file larger than the machine */
	prog_init(&p, 4 * MiB);
	prog_file(&p, 8 * MiB, 1);
	prog_proc(&p, 1, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_EOOM);
	mmsim_destroy(sim);

	/* write to a read-only mapping */
	prog_init(&p, 64 * MiB);
	prog_file(&p, 64 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_ESEGV);
	mmsim_destroy(sim);

	/* a file step naming a file the program does not have is refused at load */
	{
		struct mmsim_config cfg;
		struct mmsim_step *st;

		prog_init(&p, 64 * MiB);
		prog_file(&p, 64 * KiB, 1);
		prog_proc(&p, 1, 0);
		st = prog_step(&p, MMSIM_OP_FSYNC);
		st->file = 1;
		prog_build(&p);
		mmsim_config_default(&cfg);
		sim = mmsim_create(&cfg);
		CHECK_EQ(mmsim_load(sim, p.bytes, p.len), MMSIM_EINVAL);
		CHECK_EQ(mmsim_last_error(sim)->step, 0);
		mmsim_destroy(sim);
	}
	/* a truncated program */
	{
		struct mmsim_config cfg;

		prog_init(&p, 64 * MiB);
		prog_proc(&p, 1, 0);
		prog_build(&p);
		mmsim_config_default(&cfg);
		sim = mmsim_create(&cfg);
		CHECK_EQ(mmsim_load(sim, p.bytes, p.len - 1), MMSIM_EINVAL);
		mmsim_destroy(sim);
	}
}

/* an allocator that refuses one size of request once armed: the event buffer's growth to 2048 records */
struct refuse_ctx {
	int armed;
	size_t size;
	uint32_t refused;
};

static void *refusing_alloc(size_t size, void *ctx)
{
	struct refuse_ctx *c = ctx;

	if (c->armed && size == c->size) {
		c->refused++;
		return NULL;
	}
	return malloc(size);
}

static void plain_free(void *ptr, void *ctx)
{
	(void)ctx;
	free(ptr);
}

TEST(dropped_events_stop_the_run)
{
	/*
	 * 2048 write faults emit some 10000 events in one go (the soft cap is
	 * higher). The buffer holds 1024 records after load and may not grow:
	 * what does not fit counts in events_dropped, and the run stops with
	 * MMSIM_ENOMEM at the end of the operation that lost them.
	 */
	struct refuse_ctx rc = { 0, 2048 * sizeof(struct mmsim_event), 0 };
	struct mmsim_config cfg;
	struct mmsim *sim;
	struct prog p;

	for (int armed = 0; armed <= 1; armed++) {
		prog_init(&p, 64 * MiB);
		prog_proc(&p, 1, 0);
		prog_mmap(&p, 0, 0, -1, 0, 8 * MiB, 0, 1);
		prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
		prog_build(&p);
		mmsim_config_default(&cfg);
		cfg.trace = 1;
		cfg.debug_vm = 1;
		cfg.event_capacity = 65536;
		cfg.alloc = refusing_alloc;
		cfg.free = plain_free;
		cfg.alloc_ctx = &rc;
		rc.armed = 0;
		rc.refused = 0;
		sim = mmsim_create(&cfg);
		CHECK_EQ(mmsim_load(sim, p.bytes, p.len), 0);
		rc.armed = armed;
		nevs = 0;
		if (!armed) {
			/* the same run with the buffer free to grow: whole, nothing dropped */
			CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
			CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_EVENTS_DROPPED), 0);
			CHECK(nevs > 2048);
			mmsim_destroy(sim);
			continue;
		}
		CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
		CHECK(rc.refused > 0);
		CHECK_EQ(nevs, 1024);
		CHECK(mmsim_counter(sim, MMSIM_MODEL_EVENTS_DROPPED) > 0);
		CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_ENOMEM);
		CHECK_EQ(mmsim_last_error(sim)->detail,
			 mmsim_counter(sim, MMSIM_MODEL_EVENTS_DROPPED));
		CHECK_EQ(mmsim_last_error(sim)->step, 1);
		CHECK(strstr(mmsim_load_message(sim), "event buffer") != NULL);
		/* it stopped at the end of the touch that lost events, not at the end of the step */
		CHECK(mmsim_work_done(sim) < mmsim_work_total(sim));
		/* and it stays stopped */
		CHECK_EQ(mmsim_run(sim, MMSIM_UNLIMITED, MMSIM_UNLIMITED), MMSIM_RUN_ERROR);
		mmsim_destroy(sim);
	}
}

TEST(expect_failure_is_recorded)
{
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_file(&p, 256 * KiB, 1);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 0, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_expect(&p, MMSIM_PGFAULT, 4);
	prog_expect(&p, MMSIM_PGFAULT, 5);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_nr_expect_failures(sim), 1);
	CHECK_EQ(mmsim_expect_failure(sim, 0)->step, 3);
	CHECK_EQ(mmsim_expect_failure(sim, 0)->expected, 5);
	CHECK_EQ(mmsim_expect_failure(sim, 0)->actual, 4);
	mmsim_destroy(sim);
}

int main(int argc, char **argv)
{
	for (int i = 0; i < ntests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		current = tests[i].name;
		tests[i].fn();
	}
	free(evs);
	free(prog_last_bytes);
	printf("%d tests, %d checks, %d failures\n", ntests, checks, failures);
	return failures ? 1 : 0;
}

/* every other file of test/native/ (the mechanisms' own tests, the page walker's): the build lists them */
#include "test_suites.h"

/*
 * lru.c - the LRU issue's rules (docs/kernel.md, "LRU", Linux 2.6.39),
 * each test with the lists drawn beside its assertions. Included by
 * test_core.c (one translation unit: the harness's counters are static);
 * every test runs with the invariant checker after every step.
 *
 * Lists are drawn head first:   inactive file [ p13 p12 ... p0 ]   (p0 at the tail)
 * and pagevecs as trays:        lru_add{inactive file} < p0 p1 ... >
 * p<n> is the page cache page at index n of file 0.
 */

#define LRU_IF MMSIM_LRU_INACTIVE_FILE
#define LRU_AF MMSIM_LRU_ACTIVE_FILE
#define PV_ADD_IF MMSIM_PVEC_LRU_ADD_INACTIVE_FILE

/* the 2.6.39 rules these tests were written for (the default, 6.18, differs: try-invalidate, the drain after munmap's zap, refault detection) */
static void lru_2639(struct prog *p)
{
	p->h.fadvise_dontneed = MMSIM_FADVISE_DEACTIVATE;
	p->h.unmap_drain = MMSIM_UNMAP_DRAIN_BEFORE;
	p->h.workingset = 0;
}

static uint32_t pg(struct mmsim *sim, uint32_t file, uint64_t index)
{
	return filemap_get_folio(sim, file, index);
}

/* position of pfn in list lru from the head (0), or -1 */
static int lru_pos(struct mmsim *sim, int lru, uint32_t pfn)
{
	uint32_t head = sim->s.lruvec.head[lru], p = head;
	int i = 0;

	if (!head)
		return -1;
	do {
		if (p == pfn)
			return i;
		i++;
		p = pfn_to_page(sim, p)->lru_next;
	} while (p != head);
	return -1;
}

static bool lru_is_tail(struct mmsim *sim, int lru, uint32_t pfn)
{
	return pfn && lru_tail(sim, lru) == pfn;
}

static bool lru_is_head(struct mmsim *sim, int lru, uint32_t pfn)
{
	return pfn && sim->s.lruvec.head[lru] == pfn;
}

static bool in_pvec(struct mmsim *sim, int pv, uint32_t pfn)
{
	for (uint32_t i = 0; i < sim->s.pvecs[pv].nr; i++)
		if (sim->s.pvecs[pv].pages[i] == pfn)
			return true;
	return false;
}

static bool flag(struct mmsim *sim, uint32_t pfn, unsigned bit)
{
	return pfn_to_page(sim, pfn)->flags & (1u << bit);
}

/* a machine of `memory` with file 0 of `pages` pages (cached or not), one process, no readahead */
static void lru_prog(struct prog *p, uint64_t memory, uint64_t pages, int cached)
{
	prog_init(p, memory);
	lru_2639(p);
	p->h.readahead_kb = 0; /* one page per read: the tests place every page themselves */
	prog_file(p, pages * 4096, cached);
	prog_proc(p, 1, 0);
}

static void prog_read(struct prog *p, uint64_t index, uint64_t off, uint64_t len)
{
	prog_file_op(p, MMSIM_OP_READ, 0, 0, index * 4096 + off, len);
}

TEST(lru_pagevec_holds_13_then_drains)
{
	/*
	 * read p0 .. p12:  lru_add{inactive file} < p0 ... p12 >   (13: each holds a reference)
	 *                  inactive file [ ]
	 * read p13:        the 14th page fills the pagevec, which drains in order:
	 *                  inactive file [ p13 p12 ... p1 p0 ]      (p0 at the tail)
	 */
	struct prog p;
	struct mmsim *sim;

	lru_prog(&p, 64 * MiB, 64, 0);
	for (int i = 0; i < 14; i++)
		prog_read(&p, (uint64_t)i, 0, 4096);
	sim = start(&p);
	run_to_step(sim, 13);
	CHECK_EQ(sim->s.pvecs[PV_ADD_IF].nr, 13);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_INACTIVE_FILE), 0);
	CHECK(!flag(sim, pg(sim, 0, 0), MMSIM_PG_lru));
	CHECK_EQ(pfn_to_page(sim, pg(sim, 0, 0))->_refcount,
		 2); /* the page cache and the pagevec */
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(sim->s.pvecs[PV_ADD_IF].nr, 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_INACTIVE_FILE), 14);
	CHECK(lru_is_tail(sim, LRU_IF, pg(sim, 0, 0)));
	CHECK(lru_is_head(sim, LRU_IF, pg(sim, 0, 13)));
	CHECK_EQ(pfn_to_page(sim, pg(sim, 0, 0))->_refcount, 1);
	CHECK_EQ(count_ev(MMSIM_EV_PAGEVEC_DRAIN), 1);
	CHECK_EQ(count_ev(MMSIM_EV_LRU_ADD), 14);
	mmsim_destroy(sim);
}

TEST(lru_two_touch_promotion)
{
	/*
	 * step 0  read p0            lru_add < p0 >              p0 referenced
	 * step 1  read p0 at 2 KiB   still in the pagevec: 2.6.39 cannot activate it, it stays referenced
	 * 2 .. 14 read p1 .. p13     drained: inactive [ p13 ... p1 p0(ref) ]
	 * step 15 read p0            referenced, on the list: activated
	 *                            active [ p0 ]   inactive [ p13 ... p1 ]   pgactivate 1
	 * step 16 read p0 again      where the last read ended (ra->prev_pos: p0, offset 0): not marked
	 * step 17 read p0 at 2 KiB   active, unreferenced -> active, referenced
	 * step 18 read p2 [0, 100)   p2 (referenced, on the list): activated, pgactivate 2
	 * step 19 read p2 [100, 200) starts where the last read ended: not marked, stays unreferenced
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t p0, p1;

	lru_prog(&p, 64 * MiB, 64, 0);
	prog_read(&p, 0, 0, 4096);
	prog_read(&p, 0, 2048, 2048);
	for (int i = 1; i < 14; i++)
		prog_read(&p, (uint64_t)i, 0, 4096);
	prog_read(&p, 0, 0, 4096);
	prog_read(&p, 0, 0, 4096);
	prog_read(&p, 0, 2048, 100);
	prog_read(&p, 2, 0, 100);
	prog_read(&p, 2, 100, 100);
	sim = start(&p);
	run_to_step(sim, 2);
	p0 = pg(sim, 0, 0);
	CHECK(in_pvec(sim, PV_ADD_IF, p0));
	CHECK(flag(sim, p0, MMSIM_PG_referenced));
	CHECK(!flag(sim, p0, MMSIM_PG_active));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGACTIVATE), 0);
	run_to_step(sim, 15);
	CHECK(lru_is_tail(sim, LRU_IF, p0));
	CHECK(flag(sim, p0, MMSIM_PG_referenced));
	run_to_step(sim, 16);
	CHECK(lru_is_head(sim, LRU_AF, p0));
	CHECK(!flag(sim, p0, MMSIM_PG_referenced));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGACTIVATE), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ACTIVE_FILE), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_INACTIVE_FILE), 13);
	run_to_step(sim, 17);
	CHECK(flag(sim, p0, MMSIM_PG_active) && !flag(sim, p0, MMSIM_PG_referenced));
	run_to_step(sim, 18);
	CHECK(flag(sim, p0, MMSIM_PG_active) && flag(sim, p0, MMSIM_PG_referenced));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGACTIVATE), 1);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	p1 = pg(sim, 0, 2);
	CHECK(flag(sim, p1, MMSIM_PG_active) && !flag(sim, p1, MMSIM_PG_referenced));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGACTIVATE), 2);
	mmsim_destroy(sim);
}

/*
 * The pages of the deactivation table, on the lists before deactivate_page():
 * file 0 cached (the preload puts p0 .. p15 on the inactive list, p15 at
 * the head); p1 .. p4 activated (two marks each); p1 mapped by process 0;
 * p2, p5 dirtied; p3, p6 under writeback; p4, p7 clean.
 */
TEST(lru_deactivate_fn_table)
{
	/*
	 *   page  state before                 after lru_add_drain()              counters
	 *   p1    active, mapped               active, where it was               -
	 *   p2    active, dirty                inactive head, PG_reclaim          pgdeactivate, pgreclaim
	 *   p3    active, writeback            inactive head, PG_reclaim          pgdeactivate, pgreclaim
	 *   p4    active, clean                inactive tail                      pgdeactivate, pgrotated
	 *   p5    inactive, dirty              inactive head, PG_reclaim          pgreclaim
	 *   p6    inactive, writeback          inactive head, PG_reclaim          pgreclaim
	 *   p7    inactive, clean              inactive tail                      pgrotated
	 *   p8    unevictable                  unevictable                        -
	 *   pginvalidate counts the six that reached the decision (p2 .. p7)
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t pf[9];

	prog_init(&p, 64 * MiB);
	lru_2639(&p);
	prog_file(&p, 16 * 4096, 1);
	prog_proc(&p, 1, 0);
	p.h.writeback_latency = 1000;
	prog_mmap(&p, 0, 0, 0, 4096, 4096, 0, 0); /* p1, by itself */
	prog_touch(&p, 0, 0, 0, (uint64_t[]){ 0 }, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (int i = 0; i < 9; i++)
		pf[i] = pg(sim, 0, (uint64_t)i);
	CHECK_EQ(folio_mapcount(sim, pf[1]), 1);
	for (int i = 1; i <= 4; i++) {
		folio_mark_accessed(sim, pf[i]);
		folio_mark_accessed(sim, pf[i]);
		CHECK(flag(sim, pf[i], MMSIM_PG_active));
	}
	folio_mark_dirty_buffers(sim, pf[2]);
	folio_mark_dirty_buffers(sim, pf[5]);
	for (int i = 3; i <= 6; i += 3) {
		folio_mark_dirty_buffers(sim, pf[i]);
		CHECK(clear_page_dirty_for_io(sim, pf[i]));
		writeback_submit(sim, 0, (uint64_t)i, 1, MMSIM_WB_FLUSH);
	}
	lruvec_del_folio(sim, pf[8]);
	folio_set(pfn_to_page(sim, pf[8]), unevictable);
	lruvec_add_folio(sim, pf[8], MMSIM_LRU_UNEVICTABLE);
	for (int i = 1; i <= 8; i++)
		deactivate_page(sim, pf[i]);
	CHECK_EQ(sim->s.pvecs[MMSIM_PVEC_DEACTIVATE].nr, 8);
	lru_add_drain(sim);
	CHECK_EQ(sim->s.pvecs[MMSIM_PVEC_DEACTIVATE].nr, 0);
	CHECK(flag(sim, pf[1], MMSIM_PG_active) && lru_pos(sim, LRU_AF, pf[1]) >= 0);
	for (int i = 2; i <= 7; i++) {
		CHECK(!flag(sim, pf[i], MMSIM_PG_active) && !flag(sim, pf[i], MMSIM_PG_referenced));
		CHECK(lru_pos(sim, LRU_IF, pf[i]) >= 0);
	}
	for (int i = 2; i <= 6; i++) {
		if (i == 4)
			continue;
		CHECK(flag(sim, pf[i], MMSIM_PG_reclaim));
		CHECK(lru_pos(sim, LRU_IF, pf[i]) < 4); /* among the four put at the head */
	}
	CHECK(!flag(sim, pf[4], MMSIM_PG_reclaim) && !flag(sim, pf[7], MMSIM_PG_reclaim));
	CHECK(lru_is_tail(sim, LRU_IF, pf[7])); /* the last one put at the tail */
	CHECK_EQ(pfn_to_page(sim, lru_tail(sim, LRU_IF))->lru_prev,
		 pf[4]); /* and p4 just before it */
	CHECK(lru_pos(sim, MMSIM_LRU_UNEVICTABLE, pf[8]) == 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGDEACTIVATE), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGROTATED), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGRECLAIM), 4);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGINVALIDATE), 6);
	CHECK_EQ(mmsim_check(sim, sim->check_msg, sizeof(sim->check_msg)), 0);
	mmsim_destroy(sim);
}

TEST(lru_writeback_end_rotates_reclaim_pages)
{
	/*
	 * FD-WB: write p0 (dirty), fadvise(DONTNEED) flushes it (under writeback)
	 * and, failing to drop it, deactivates it: inactive head, PG_reclaim.
	 *     inactive [ p0(R,W) p15 ... p1 ]
	 * writeback_latency 3 operations later the write ends: PG_reclaim ->
	 * rotate_reclaimable_page(): rotate pagevec < p0 >, and at the next
	 * lru_add_drain() (a second fadvise's batch):
	 *     inactive [ p15 ... p1 p0 ]        pgrotated
	 * With fadvise_dontneed: invalidate-only (2.6.38) p0 is left where it
	 * was, and no rotation follows.
	 */
	for (int mode = 0; mode < 2; mode++) {
		struct prog p;
		struct mmsim *sim;
		uint32_t p0;
		int pos;

		current = mode ? "lru_writeback_end_rotates_reclaim_pages (2.6.38)" :
				 "lru_writeback_end_rotates_reclaim_pages";
		prog_init(&p, 64 * MiB);
		lru_2639(&p);
		prog_file(&p, 16 * 4096, 1);
		prog_proc(&p, 1, 0);
		p.h.writeback_latency = 3;
		p.h.fadvise_dontneed = mode ? MMSIM_FADVISE_INVALIDATE_ONLY :
					      MMSIM_FADVISE_DEACTIVATE;
		prog_file_op(&p, MMSIM_OP_WRITE, 0, 0, 0, 4096);
		prog_file_op(&p, MMSIM_OP_FADVISE, 0, 0, 0, 4096);
		prog_tick(&p);
		prog_tick(&p);
		prog_tick(&p);
		prog_file_op(&p, MMSIM_OP_FADVISE, 0, 0, 8 * 4096, 4096);
		sim = start(&p);
		run_to_step(sim, 1);
		p0 = pg(sim, 0, 0);
		pos = lru_pos(sim, LRU_IF, p0);
		run_to_step(sim, 2);
		CHECK(flag(sim, p0, MMSIM_PG_writeback));
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_WRITEBACK), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 0);
		CHECK_EQ(flag(sim, p0, MMSIM_PG_reclaim), !mode);
		CHECK_EQ(lru_is_head(sim, LRU_IF, p0), !mode);
		run_to_step(sim, 4);
		CHECK(flag(sim, p0, MMSIM_PG_writeback)); /* 2 of its 3 operations so far */
		run_to_step(sim, 5);
		CHECK(!flag(sim, p0, MMSIM_PG_writeback) && !flag(sim, p0, MMSIM_PG_reclaim));
		CHECK_EQ(in_pvec(sim, MMSIM_PVEC_ROTATE, p0), !mode);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		/* at the tail either way (the oldest page of the preload): 2.6.39 moved it twice to get there */
		CHECK(lru_is_tail(sim, LRU_IF, p0));
		CHECK_EQ(pos, 15);
		{
			size_t moves = 0;

			for (size_t i = 0; i < nevs; i++)
				if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_LRU_MOVE &&
				    evs[i].a == p0)
					moves++;
			CHECK_EQ(moves,
				 mode ? 0 :
					2); /* to the head (PG_reclaim), then rotated to the tail */
		}
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGROTATED), mode ? 0 : 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGRECLAIM), mode ? 0 : 1);
		CHECK_EQ(pg(sim, 0, 8), 0); /* the clean page the second fadvise dropped */
		mmsim_destroy(sim);
	}
	current = "lru_writeback_end_rotates_reclaim_pages";
}

TEST(lru_watermarks_and_inactive_ratio)
{
	/*
	 *   machine.memory   min_free_kbytes = int_sqrt(16 x KiB)   min / low / high (pages)   inactive_ratio
	 *   1 MiB            128                                     32 / 40 / 48              1
	 *   64 MiB           1024                                    256 / 320 / 384           1
	 *   1 GiB            4096                                    1024 / 1280 / 1536        3 (int_sqrt(10))
	 *   4 GiB            8192                                    2048 / 2560 / 3072        6 (int_sqrt(40))
	 *   10 GiB           12952                                   3238 / 4047 / 4857        10
	 *   1 TiB            131072 -> 65536 (the clamp)             16384 / 20480 / 24576     101
	 *   min_free_kbytes: 4000 at 64 MiB                          1000 / 1250 / 1500
	 */
	static const struct {
		uint64_t mem;
		uint32_t kb, min, low, high, ratio;
	} rows[] = {
		{ 1 * MiB, 0, 32, 40, 48, 1 },
		{ 64 * MiB, 0, 256, 320, 384, 1 },
		{ 1 * GiB, 0, 1024, 1280, 1536, 3 },
		{ 4 * GiB, 0, 2048, 2560, 3072, 6 },
		{ 10 * GiB, 0, 3238, 4047, 4857, 10 },
		{ 1024 * GiB, 0, 16384, 20480, 24576, 101 },
		{ 64 * MiB, 4000, 1000, 1250, 1500, 1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct prog p;
		struct mmsim *sim;

		prog_init(&p, rows[i].mem);
		lru_2639(&p);
		p.h.min_free_kbytes = rows[i].kb;
		prog_proc(&p, 1, 0);
		sim = start(&p);
		CHECK_EQ(sim->s.wmark[0], rows[i].min);
		CHECK_EQ(sim->s.wmark[1], rows[i].low);
		CHECK_EQ(sim->s.wmark[2], rows[i].high);
		CHECK_EQ(sim->s.inactive_ratio, rows[i].ratio);
		mmsim_destroy(sim);
	}
}

TEST(lru_page_check_references)
{
	/*
	 * The inactive list's tail, scanned page by page (shrink_inactive_list):
	 *
	 *   p0  mapped, PTE young, PG_referenced clear   KEEP: PG_referenced, young cleared, back at the head
	 *       scanned again, touched meanwhile          ACTIVATE (young + referenced)        pgactivate
	 *   p1  mapped, PTE old                           RECLAIM: unmapped (try_to_unmap), freed, a shadow
	 *   p2  unmapped, PG_referenced, clean            RECLAIM_CLEAN: freed
	 *   p3  unmapped, PG_referenced, dirty            RECLAIM_CLEAN: kept dirty (KEEP_DIRTY)
	 *   p4  unmapped, dirty                           pageout: PG_reclaim, written, kept   nr_vmscan_write
	 *   p5  in the lru_add pagevec (an extra ref)     shrink_inactive_list drains first: on the list, reclaimed
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t pf[6];
	uint64_t *pte0, *pte1;
	const struct maprec *m;

	prog_init(&p, 64 * MiB);
	lru_2639(&p);
	prog_file(&p, 16 * 4096, 1);
	prog_proc(&p, 1, 0);
	p.h.fault_around_bytes = 4096;
	prog_mmap(&p, 0, 0, 0, 0, 2 * 4096, 0, 0);
	prog_touch(&p, 0, 0, 0, (uint64_t[]){ 0, 1 }, 2);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (int i = 0; i < 6; i++)
		pf[i] = pg(sim, 0, (uint64_t)i);
	m = map0(sim, 0, 0);
	pte0 = walk_pte(sim, mm_ptr(sim, 0), m->start);
	pte1 = walk_pte(sim, mm_ptr(sim, 0), m->start + 4096);
	*pte1 &= ~MMSIM_PTE_ACCESSED; /* p1 not used since it was mapped */
	folio_set(pfn_to_page(sim, pf[2]), referenced);
	folio_set(pfn_to_page(sim, pf[3]), referenced);
	folio_mark_dirty_buffers(sim, pf[3]);
	folio_mark_dirty_buffers(sim, pf[4]);
	/* p5 back into the lru_add pagevec: off its list, as a page just added */
	lruvec_del_folio(sim, pf[5]);
	lru_cache_add_lru(sim, pf[5], MMSIM_LRU_INACTIVE_FILE);
	/*
	 * p0 .. p4 moved to the tail one after the other:
	 *     inactive [ p15 ... p6 p0 p1 p2 p3 p4 ]    lru_add < p5 >
	 * a scan of 5 takes p4, p3, p2, p1, p0 (its drain first puts p5 at the head)
	 */
	for (int i = 0; i < 5; i++) {
		lruvec_del_folio(sim, pf[i]);
		lruvec_add_folio_tail(sim, pf[i], LRU_IF);
	}
	CHECK(lru_is_tail(sim, LRU_IF, pf[4]));
	CHECK_EQ(vmscan_shrink_file_inactive(sim, 5), 2); /* p2 and p1 */
	CHECK(lru_is_head(sim, LRU_IF, pf[0])); /* the last survivor put back, at the head */
	CHECK(flag(sim, pf[0], MMSIM_PG_referenced));
	CHECK(!(*pte0 & MMSIM_PTE_ACCESSED)); /* the young bit it was kept for, cleared */
	CHECK_EQ(pg(sim, 0, 1), 0); /* p1: unmapped and freed */
	CHECK(!pte_present(*pte1));
	CHECK(xa_is_value(xa_load(sim, &file_ptr(sim, 0)->i_pages, 1))); /* a shadow in its slot */
	CHECK_EQ(pg(sim, 0, 2), 0); /* p2: clean, referenced: reclaimed */
	CHECK(pg(sim, 0, 3) && flag(sim, pf[3], MMSIM_PG_dirty) &&
	      !flag(sim, pf[3], MMSIM_PG_writeback));
	CHECK(flag(sim, pf[4], MMSIM_PG_writeback) && flag(sim, pf[4], MMSIM_PG_reclaim));
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_VMSCAN_WRITE), 1);
	CHECK(lru_pos(sim, LRU_IF, pf[5]) >= 0 && !in_pvec(sim, PV_ADD_IF, pf[5]));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGSTEAL), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGSCAN_KSWAPD), 5);
	/* p0 touched again, then scanned again: young and referenced -> activated */
	*pte0 |= MMSIM_PTE_ACCESSED;
	lruvec_del_folio(sim, pf[0]);
	lruvec_add_folio_tail(sim, pf[0], LRU_IF);
	CHECK_EQ(vmscan_shrink_file_inactive(sim, 1), 0);
	CHECK(flag(sim, pf[0], MMSIM_PG_active) && lru_is_head(sim, LRU_AF, pf[0]));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGACTIVATE), 1);
	CHECK_EQ(mmsim_check(sim, sim->check_msg, sizeof(sim->check_msg)), 0);
	mmsim_destroy(sim);
}

TEST(lru_shrink_active_list)
{
	/*
	 * shrink_active_list(2): the two oldest active pages go to the inactive
	 * head, the young PTE of a mapped one sampled and cleared on the way
	 * (pgrefill 2, pgdeactivate 2; no executable mapping keeps a page active).
	 *     active [ p3 p2 p1 p0 ]  ->  active [ p3 p2 ]   inactive [ p0 p1 ... ]
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t pf[4];
	const struct maprec *m;

	prog_init(&p, 64 * MiB);
	lru_2639(&p);
	prog_file(&p, 16 * 4096, 1);
	prog_proc(&p, 1, 0);
	p.h.fault_around_bytes = 4096;
	prog_mmap(&p, 0, 0, 0, 0, 4096, 0, 0);
	prog_touch(&p, 0, 0, 0, (uint64_t[]){ 0 }, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (int i = 0; i < 4; i++) {
		pf[i] = pg(sim, 0, (uint64_t)i);
		folio_mark_accessed(sim, pf[i]);
		folio_mark_accessed(sim, pf[i]);
	}
	CHECK(lru_is_tail(sim, LRU_AF, pf[0]));
	vmscan_shrink_file_active(sim, 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ACTIVE_FILE), 2);
	CHECK(lru_is_head(sim, LRU_IF, pf[1]));
	CHECK_EQ(pfn_to_page(sim, pf[1])->lru_next, pf[0]);
	m = map0(sim, 0, 0);
	CHECK(!(*walk_pte(sim, mm_ptr(sim, 0), m->start) & MMSIM_PTE_ACCESSED));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGREFILL), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGDEACTIVATE), 2);
	mmsim_destroy(sim);
}

TEST(lru_refault_detection)
{
	/*
	 * Reclaim evicts p0 (clean, inactive): its slot gets a shadow with
	 * the eviction's inactive_age. Read again, p0 is a refault
	 * (workingset_refault). 2.6.39 (workingset false): a new inactive
	 * page. 3.15 (true): its refault distance, 0 here, fits in the active
	 * list (one page), so it goes to the active list (workingset_activate).
	 */
	for (int ws = 0; ws < 2; ws++) {
		struct prog p;
		struct mmsim *sim;
		uint32_t p0;

		current = ws ? "lru_refault_detection (workingset)" : "lru_refault_detection";
		lru_prog(&p, 64 * MiB, 16, 1);
		p.h.workingset = (uint32_t)ws;
		prog_read(&p, 0, 0, 4096);
		sim = start(&p);
		run_to_step(sim, 0);
		/* one active page, so that the distance has room; p0 to the tail */
		folio_mark_accessed(sim, pg(sim, 0, 5));
		folio_mark_accessed(sim, pg(sim, 0, 5));
		p0 = pg(sim, 0, 0);
		lruvec_del_folio(sim, p0);
		lruvec_add_folio_tail(sim, p0, LRU_IF);
		CHECK_EQ(vmscan_shrink_file_inactive(sim, 1), 1);
		CHECK(xa_is_value(xa_load(sim, &file_ptr(sim, 0)->i_pages, 0)));
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		p0 = pg(sim, 0, 0);
		CHECK(p0 != 0);
		CHECK_EQ(mmsim_counter(sim, MMSIM_WORKINGSET_REFAULT), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_WORKINGSET_ACTIVATE), (uint64_t)ws);
		CHECK(in_pvec(sim, ws ? MMSIM_PVEC_LRU_ADD_ACTIVE_FILE : PV_ADD_IF, p0));
		lru_add_drain(sim);
		CHECK_EQ(flag(sim, p0, MMSIM_PG_active), ws);
		mmsim_destroy(sim);
	}
	current = "lru_refault_detection";
}

TEST(lru_kswapd_and_direct_reclaim)
{
	/*
	 * 4 MiB of memory (1024 frames; min 64, low 80, high 96 pages) and a
	 * 16 MiB file read one page per step: free pages fall to low, kswapd
	 * wakes, reclaims one priority pass per tick until free is above high,
	 * and sleeps. A 2 MiB read in one step (512 allocations in one
	 * operation, kswapd cannot keep up) reaches min: direct reclaim.
	 */
	struct prog p;
	struct mmsim *sim;

	uint32_t r;

	lru_prog(&p, 4 * MiB, 4096, 0);
	r = prog_repeat(&p, 1200, 4096);
	prog_read(&p, 0, 0, 4096);
	prog_repeat_end(&p, r);
	prog_file_op(&p, MMSIM_OP_READ, 0, 0, 2000 * 4096, 2 * MiB);
	sim = start(&p);
	CHECK_EQ(sim->s.wmark[0], 64);
	CHECK_EQ(sim->s.wmark[2], 96);
	run_to_step(sim, 2);
	CHECK(mmsim_counter(sim, MMSIM_MODEL_KSWAPD_WAKEUPS) > 0);
	CHECK(mmsim_counter(sim, MMSIM_PGSCAN_KSWAPD) > 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGSCAN_DIRECT), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_ALLOCSTALL), 0);
	CHECK(mmsim_counter(sim, MMSIM_NR_FREE_PAGES) > sim->s.wmark[0]); /* kswapd kept up */
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK(mmsim_counter(sim, MMSIM_ALLOCSTALL) > 0);
	CHECK(mmsim_counter(sim, MMSIM_PGSCAN_DIRECT) > 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGSCAN),
		 mmsim_counter(sim, MMSIM_PGSCAN_KSWAPD) + mmsim_counter(sim, MMSIM_PGSCAN_DIRECT));
	mmsim_destroy(sim);
}

TEST(lru_anon_without_swap_is_eoom)
{
	/*
	 * Anonymous memory cannot be reclaimed without swap: writing more of it
	 * than the machine holds ends the step with EOOM once reclaim has
	 * scanned the zone six times over without freeing a page.
	 */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 4 * MiB);
	lru_2639(&p);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 8 * MiB, 0, 1);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_EOOM);
	CHECK(sim->s.all_unreclaimable);
	CHECK(mmsim_counter(sim, MMSIM_NR_FREE_PAGES) <= sim->s.wmark[0] + 2);
	mmsim_destroy(sim);
}

TEST(lru_fadvise_range_and_busy_pages)
{
	/*
	 * fadvise(offset 2 KiB, len 16 KiB): start = ceil(2 KiB / 4 KiB) = 1,
	 * end = the page of byte 18 KiB - 1 = 4: p1 .. p4 (p0 partly covered:
	 * kept; p4 partly covered: dropped, as 2.6.39 does).
	 * File 1: 3 pages just read, still in the lru_add pagevec: each holds a
	 * reference too many, so fadvise cannot drop them (busy), deactivates
	 * them, and the batch's drain puts them on the list then at the tail.
	 */
	struct prog p;
	struct mmsim *sim;

	lru_prog(&p, 64 * MiB, 16, 1);
	prog_file(&p, 3 * 4096, 0);
	prog_file_op(&p, MMSIM_OP_FADVISE, 0, 0, 2048, 16384);
	prog_file_op(&p, MMSIM_OP_READ, 0, 1, 0, 3 * 4096);
	prog_file_op(&p, MMSIM_OP_FADVISE, 0, 1, 0, 0);
	sim = start(&p);
	run_to_step(sim, 1);
	CHECK(pg(sim, 0, 0) != 0);
	for (int i = 1; i <= 4; i++)
		CHECK_EQ(pg(sim, 0, (uint64_t)i), 0);
	CHECK(pg(sim, 0, 5) != 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	for (int i = 0; i < 3; i++) {
		uint32_t pfn = pg(sim, 1, (uint64_t)i);

		CHECK(pfn != 0);
		CHECK(flag(sim, pfn, MMSIM_PG_lru) && !flag(sim, pfn, MMSIM_PG_active));
	}
	CHECK(lru_is_tail(sim, LRU_IF, pg(sim, 1, 2)));
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGROTATED), 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGINVALIDATE), 3);
	mmsim_destroy(sim);
}

TEST(lru_writeback_thresholds_and_fsync)
{
	/*
	 * 64 MiB, no reclaim: dirtyable memory ~ 16,000 free pages, so the
	 * background threshold is ~1,600 pages and dirty_ratio's ~3,200.
	 * balance_dirty_pages() looks every ratelimit_pages (512) pages and acts
	 * only past (background + dirty) / 2 (~2,450): at 2,560 pages it wakes
	 * the flusher, which writes back until under the background threshold.
	 * (Below that, only the kernel's 30-second kupdate would write: not
	 * modelled.) fsync then writes the rest and waits: nothing dirty or
	 * under writeback is left.
	 */
	struct prog p;
	struct mmsim *sim;
	uint64_t bg, dirty;
	uint32_t r;

	prog_init(&p, 64 * MiB);
	lru_2639(&p);
	prog_file(&p, 4096 * 4096, 0);
	p.files[0].flags |= MMSIM_FILE_SPARSE;
	prog_proc(&p, 1, 0);
	p.h.writeback_latency = 1000;
	r = prog_repeat(&p, 3000, 4096);
	prog_file_op(&p, MMSIM_OP_WRITE, 0, 0, 0, 4096);
	prog_repeat_end(&p, r);
	prog_step(&p, MMSIM_OP_FSYNC)->file = 0;
	sim = start(&p);
	run_to_step(sim, 2);
	global_dirty_limits(sim, &bg, &dirty);
	CHECK(mmsim_counter(sim, MMSIM_NR_DIRTY) <= bg + sim->s.ratelimit_pages);
	CHECK(mmsim_counter(sim, MMSIM_NR_WRITEBACK) > 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTIED), 3000);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DIRTY), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_WRITEBACK), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_WRITTEN), 3000);
	CHECK(mmsim_counter(sim, MMSIM_MODEL_WB_WAITS) >= 1);
	mmsim_destroy(sim);
}

TEST(lru_rmap_finds_both_processes)
{
	/*
	 * A file page mapped by a process and by its child (fork copies the
	 * VMA, the child faults the page in again): rmap finds two PTEs, and
	 * reclaim of the page (old PTEs) takes it out of both.
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t p0;
	struct mmsim_step *st;

	prog_init(&p, 64 * MiB);
	lru_2639(&p);
	prog_file(&p, 16 * 4096, 1);
	prog_proc(&p, 1, 0);
	prog_proc(&p, 1, 1);
	p.h.fault_around_bytes = 4096;
	prog_mmap(&p, 0, 0, 0, 0, 16 * 4096, 1, 0);
	prog_touch(&p, 0, 0, 0, (uint64_t[]){ 0 }, 1);
	st = prog_step(&p, MMSIM_OP_FORK);
	st->task = 0;
	st->file = 1;
	prog_touch(&p, 1, 0, 0, (uint64_t[]){ 0 }, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	p0 = pg(sim, 0, 0);
	CHECK_EQ(folio_mapcount(sim, p0), 2);
	CHECK_EQ(page_referenced(sim, p0, NULL), 2); /* both young; now both old */
	CHECK_EQ(page_referenced(sim, p0, NULL), 0);
	lruvec_del_folio(sim, p0);
	lruvec_add_folio_tail(sim, p0, LRU_IF);
	CHECK_EQ(vmscan_shrink_file_inactive(sim, 1), 1);
	CHECK_EQ(pg(sim, 0, 0), 0);
	CHECK(!mapped(sim, 0, map0(sim, 0, 0)->start));
	CHECK(!mapped(sim, 1, map0(sim, 1, 0)->start));
	CHECK_EQ(mmsim_check(sim, sim->check_msg, sizeof(sim->check_msg)), 0);
	mmsim_destroy(sim);
}

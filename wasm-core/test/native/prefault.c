/*
 * prefault.c - the 2004 anticipatory prefault (V1, docs/kernel.md,
 * "Anticipatory prefault"): the batch sequence and its clamps on cases worked by hand, the
 * trap count of a 1 GiB sequential write, a failed prediction, a batch
 * meeting present PTEs, an allocation failing part way, and fork.
 * Included by test_core.c.
 */

/* the i-th mmsim_anon_prefault event, or NULL */
static const struct mmsim_event *prefault_ev(size_t k)
{
	for (size_t i = 0; i < nevs; i++)
		if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_ANON_PREFAULT && k-- == 0)
			return &evs[i];
	return NULL;
}

/* one anonymous mapping of `pages` pages, prefault on with `cap`, then the steps the caller adds */
static void prefault_prog(struct prog *p, uint64_t mem, uint64_t pages, uint32_t cap)
{
	prog_anon_pair(p, mem, pages * PAGE_SIZE); /* 2 MiB aligned */
	p->h.anon_prefault = MMSIM_PREFAULT_ANTICIPATORY;
	p->h.anon_prefault_cap = cap;
}

#define CHECK_BATCH(k, addr_page, hit, order, pages, why)                        \
	do {                                                                     \
		const struct mmsim_event *e_ = prefault_ev(k);                   \
		CHECK(e_ != NULL);                                               \
		if (e_) {                                                        \
			CHECK_EQ((e_->addr - MMAP_BASE) / PAGE_SIZE, addr_page); \
			CHECK_EQ(e_->a, hit);                                    \
			CHECK_EQ(e_->b, order);                                  \
			CHECK_EQ(e_->c, pages);                                  \
			CHECK_EQ(e_->d & 0xff, why);                             \
		}                                                                \
	} while (0)

TEST(prefault_ramp_cap_and_vma_end)
{
	/*
	 * 64 pages written in order, cap 14:
	 *
	 *   page  0 | 1 2 | 3 . . 6 | 7 . . . . . . 14 | 15 .. 28 | 29 .. 42 | 43 .. 56 | 57 .. 63 |
	 *   trap  miss  o1      o2          o3           o4 (cap)   o5 (cap)   o6 (cap)   o7: VMA end
	 *   pages  1     2       4           8             14         14         14         7
	 *
	 * 8 traps for 64 pages; every trap after the first a hit.
	 */
	struct prog p;
	struct mmsim *sim;

	prefault_prog(&p, 64 * MiB, 64, 14);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 8);
	CHECK_EQ(count_ev(MMSIM_EV_ANON_PREFAULT), 8);
	CHECK_BATCH(0, 0, 0, 0, 1, MMSIM_PFEND_MISS);
	CHECK_BATCH(1, 1, 1, 1, 2, MMSIM_PFEND_ORDER);
	CHECK_BATCH(2, 3, 1, 2, 4, MMSIM_PFEND_ORDER);
	CHECK_BATCH(3, 7, 1, 3, 8, MMSIM_PFEND_ORDER);
	CHECK_BATCH(4, 15, 1, 4, 14, MMSIM_PFEND_CAP);
	CHECK_BATCH(5, 29, 1, 5, 14, MMSIM_PFEND_CAP);
	CHECK_BATCH(6, 43, 1, 6, 14, MMSIM_PFEND_CAP);
	CHECK_BATCH(7, 57, 1, 7, 7, MMSIM_PFEND_VMA);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_PREFAULT_HITS), 7);
	CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_PREFAULT_PAGES), 64 - 8);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 64);
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_ANONPAGES], 64);
	CHECK_EQ(task_ptr(sim, 0)->counters[MMSIM_T_PREFAULT_HITS], 7);
	/* the prediction after the last batch: its end, the order 7 */
	CHECK_EQ(task_ptr(sim, 0)->anon_fault_next_addr, MMAP_BASE + 64 * PAGE_SIZE);
	CHECK_EQ(task_ptr(sim, 0)->anon_fault_order, 7);
	mmsim_destroy(sim);
}

TEST(prefault_page_table_end)
{
	/*
	 * Pages 500 .. 529 of a 4 MiB mapping (a page table ends after page 511):
	 *
	 *   page  500 | 501 502 | 503 .. 506 | 507 .. 511 | 512 .. 525 | 526 ..
	 *   trap  miss   o1 (2)    o2 (4)      o3: PMD end  o4 (cap 14)  o5
	 *                                      5 of 8       (predicted: the PMD's end)
	 */
	struct prog p;
	struct mmsim *sim;

	prefault_prog(&p, 64 * MiB, 1024, 14);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 500 * PAGE_SIZE, 30 * PAGE_SIZE);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 6);
	CHECK_BATCH(3, 507, 1, 3, 5, MMSIM_PFEND_PMD);
	CHECK_BATCH(4, 512, 1, 4, 14, MMSIM_PFEND_CAP);
	CHECK_BATCH(5, 526, 1, 5, 14, MMSIM_PFEND_CAP);
	mmsim_destroy(sim);
}

/* the V1 rule, counted apart: traps for `pages` pages written in order from a PMD boundary */
static uint64_t v1_traps(uint64_t pages, uint32_t cap)
{
	uint64_t traps = 0, next = ~0ull, page = 0;
	uint32_t order = 0;

	while (page < pages) {
		uint64_t n = 1;

		traps++;
		if (page == next) {
			order = order < 30 ? order + 1 : 30;
			n = (1ull << order) < cap ? 1ull << order : cap;
			if ((page % 512) + n > 512)
				n = 512 - page % 512;
			if (page + n > pages)
				n = pages - page;
		} else {
			order = 0;
		}
		page += n;
		next = page;
	}
	return traps;
}

TEST(prefault_1gib_trap_counts)
{
	/* 1 GiB, 2 MiB-aligned, cap 14 -> 18,947 traps (per page table 36 x 14 + a short 8) */
	static const uint32_t caps[] = { 14, 1, 2, 8, 16, 64, 512 };

	CHECK_EQ(v1_traps(262144, 14), 18947);
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct prog p;
		struct mmsim *sim;

		prefault_prog(&p, 1280 * MiB, 262144, caps[i]);
		prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
		sim = start(&p);
		sim->s.hdr.anon_prefault_cap = caps[i];
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), v1_traps(262144, caps[i]));
		CHECK_EQ(mmsim_counter(sim, MMSIM_MODEL_PREFAULT_PAGES),
			 262144 - v1_traps(262144, caps[i]));
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 262144);
		mmsim_destroy(sim);
	}
}

TEST(prefault_misses_reads_and_present_ptes)
{
	struct prog p;
	struct mmsim *sim;
	uint64_t scattered[] = { 10, 5, 20, 21 }, six[] = { 6 };

	/* a failed prediction: pages out of order are misses, one page each; 21 after 20 is a hit (2 pages) */
	prefault_prog(&p, 64 * MiB, 64, 14);
	prog_touch(&p, 0, 0, 1, scattered, 4);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 4);
	CHECK_BATCH(0, 10, 0, 0, 1, MMSIM_PFEND_MISS);
	CHECK_BATCH(1, 5, 0, 0, 1, MMSIM_PFEND_MISS);
	CHECK_BATCH(2, 20, 0, 0, 1, MMSIM_PFEND_MISS);
	CHECK_BATCH(3, 21, 1, 1, 2, MMSIM_PFEND_ORDER);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 5);
	mmsim_destroy(sim);

	/*
	 * A batch meeting a present PTE: page 6 written first (a miss), then 0 .. 15 in order:
	 *   0 miss | 1 2 o1 | 3 4 5 o2, stops at 6 (present) | 7 .. 14 o3 (predicted 7: the planned end)
	 */
	for (int write = 0; write <= 1; write++) {
		prefault_prog(&p, 64 * MiB, 64, 14);
		prog_touch(&p, 0, 0, 1, six, 1);
		prog_access(&p, 0, 0, write, MMSIM_PAT_SEQUENTIAL, 0, 16 * PAGE_SIZE);
		sim = start(&p);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		CHECK_BATCH(3, 3, 1, 2, 3, MMSIM_PFEND_PRESENT);
		CHECK_EQ(prefault_ev(3)->d >> 8, 4); /* planned 4: the prediction is page 7 */
		CHECK_BATCH(4, 7, 1, 3, 8, MMSIM_PFEND_ORDER);
		/* page 6 keeps its own page: a read batch did not overwrite it with the zero page */
		CHECK(!(*walk_pte(sim, mm_ptr(sim, 0), MMAP_BASE + 6 * PAGE_SIZE) &
			MMSIM_PTE_SPECIAL));
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES),
			 write ? 1 + 1 + 2 + 3 + 8 + 14 : 1); /* page 15 takes a batch of 14 */
		mmsim_destroy(sim);
	}
}

TEST(prefault_allocation_failure_and_fork)
{
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;
	uint64_t first3[] = { 0, 1, 2 }, three[] = { 3 };
	size_t shrunk = SIZE_MAX;

	/* memory runs out part way through a batch: it shrinks, the prediction (stored first) then misses */
	prefault_prog(&p, 3 * MiB, 1024, 14);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_ERROR);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_EOOM);
	for (size_t k = 0; prefault_ev(k); k++)
		if ((prefault_ev(k)->d & 0xff) == MMSIM_PFEND_ALLOC)
			shrunk = k;
	if (shrunk == SIZE_MAX) {
		/* the failure fell on a batch's first page (1 in 14): then there is nothing to shrink */
		CHECK(prefault_ev(count_ev(MMSIM_EV_ANON_PREFAULT) - 1) != NULL);
	} else {
		const struct mmsim_event *b = prefault_ev(shrunk), *next = prefault_ev(shrunk + 1);

		CHECK(b->c < 14);
		CHECK_EQ(b->d >> 8, 14); /* planned 14, the prediction stored at its end */
		CHECK(next != NULL);
		if (next) {
			CHECK_EQ(
				next->a,
				0); /* the next fault is at the shrunk end, not the prediction: a miss */
			CHECK_EQ(next->addr, b->addr + b->c * PAGE_SIZE);
		}
	}
	mmsim_destroy(sim);

	/* fork copies the prediction with the task_struct: the child's first fault at the parent's next address hits */
	prefault_prog(&p, 64 * MiB, 64, 14);
	prog_touch(&p, 0, 0, 1, first3, 3); /* 0 miss, 1-2 a hit: next 3, order 1 */
	s = prog_step(&p, MMSIM_OP_FORK);
	s->task = 0;
	s->file = 1;
	prog_touch(&p, 1, 0, 1, three, 1); /* the child at 3: a hit, order 2, 4 pages */
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(task_ptr(sim, 1)->anon_fault_order, 2);
	CHECK_BATCH(2, 3, 1, 2, 4, MMSIM_PFEND_ORDER);
	CHECK_EQ(prefault_ev(2)->task, 1);
	CHECK_EQ(task_ptr(sim, 0)->anon_fault_next_addr, MMAP_BASE + 3 * PAGE_SIZE);
	CHECK_EQ(task_ptr(sim, 1)->anon_fault_next_addr, MMAP_BASE + 7 * PAGE_SIZE);
	mmsim_destroy(sim);
}

/*
 * folios.c - anonymous mTHP folios mapped by PTEs and their mapcounts
 * (docs/kernel.md, "Large folios", the 6.10 _large_mapcount against 6.9),
 * each row of the mapcount table that needs no PMD mapping, under both settings.
 * Included by test_core.c.
 *
 * One order-k anon folio, n = 2^k pages, is the whole mapping:
 *
 *   page            0   1   ...  n-1
 *   _mapcount+1    [1] [1] ... [1]     after the write fault (plain stores)
 *                  [2] [2] ... [2]     after fork (one batch: n page incs + 1 large add)
 *                  [1] [1] ... [1]     after the child's exit (one batch: 1 large sub + n page decs)
 *                  [0] [1] ... [1]     after the parent's COW of page 0 (partly mapped: deferred split)
 */

struct folio_state {
	int mapcount[16]; /* _mapcount + 1 per page */
	int large; /* _large_mapcount + 1 */
	int nr_pages_mapped;
	int entire; /* _entire_mapcount + 1 */
	int refcount;
	bool queued;
};

static void folio_read(struct mmsim *sim, uint32_t head, uint32_t n, struct folio_state *f)
{
	const struct page *p1 = pfn_to_page(sim, head + 1);

	for (uint32_t i = 0; i < n; i++)
		f->mapcount[i] = pfn_to_page(sim, head + i)->_mapcount + 1;
	f->large = p1->_large_mapcount + 1;
	f->nr_pages_mapped = p1->_nr_pages_mapped;
	f->entire = p1->_entire_mapcount + 1;
	f->refcount = pfn_to_page(sim, head)->_refcount;
	f->queued = n >= 4 && pfn_to_page(sim, head + 2)->index;
}

/* the atomics counted so far: page, large, nr_pages_mapped, entire */
struct atomics {
	uint64_t page, large, nr_mapped, entire;
};

static struct atomics atomics_now(struct mmsim *sim)
{
	return (struct atomics){
		mmsim_counter(sim, MMSIM_MODEL_RMAP_ATOMIC_PAGE_MAPCOUNT),
		mmsim_counter(sim, MMSIM_MODEL_RMAP_ATOMIC_LARGE_MAPCOUNT),
		mmsim_counter(sim, MMSIM_MODEL_RMAP_ATOMIC_NR_PAGES_MAPPED),
		mmsim_counter(sim, MMSIM_MODEL_RMAP_ATOMIC_ENTIRE_MAPCOUNT),
	};
}

#define CHECK_ATOMICS(before, after, p, l, m, e)                     \
	do {                                                         \
		CHECK_EQ((after).page - (before).page, p);           \
		CHECK_EQ((after).large - (before).large, l);         \
		CHECK_EQ((after).nr_mapped - (before).nr_mapped, m); \
		CHECK_EQ((after).entire - (before).entire, e);       \
	} while (0)

/*
 * parent: mmap n pages, write page 0 (the fault maps the whole folio),
 * fork; then either the child exits and the parent writes page 0 (rows
 * 3-4), or the parent writes page 0 while the child maps it (row 5).
 */
/* the 6.9 / 6.10 rules these tests were written for: no large-folio reuse (6.15), one deferred-split counter */
static struct mmsim *folio_prog_reuse(int order, bool large_mapcount, bool child_exits_first,
				      bool reuse)
{
	struct prog p;
	uint64_t p0[] = { 0 };
	struct mmsim_step *f;

	prog_anon_pair(&p, 64 * MiB, PAGE_SIZE << order); /* step 0: the mmap */
	p.h.mthp_orders = 1u << order;
	p.h.large_mapcount = large_mapcount;
	p.h.large_folio_reuse = reuse;
	p.h.deferred_split_stats = MMSIM_DSSTATS_GLOBAL;
	p.h.nr_pages_mapped_batching = false;
	prog_touch(&p, 0, 0, 1, p0, 1); /* step 1 */
	f = prog_step(&p, MMSIM_OP_FORK); /* step 2 */
	f->task = 0;
	f->file = 1;
	if (child_exits_first)
		prog_step(&p, MMSIM_OP_EXIT)->task = 1; /* step 3 */
	prog_touch(&p, 0, 0, 1, p0, 1); /* step 3 or 4 */
	return start(&p);
}

static struct mmsim *folio_prog(int order, bool large_mapcount, bool child_exits_first)
{
	return folio_prog_reuse(order, large_mapcount, child_exits_first, false);
}

static uint32_t parent_pfn(struct mmsim *sim, uint32_t page)
{
	uint64_t *pte = walk_pte(sim, mm_ptr(sim, 0), MMAP_BASE + page * PAGE_SIZE);

	return pte && pte_present(*pte) ? pte_pfn(*pte) : 0;
}

TEST(mthp_fault_fork_exit_cow)
{
	for (int lm = 0; lm <= 1; lm++)
		for (int order = 2; order <= 4; order += 2) {
			uint32_t n = 1u << order, head;
			struct mmsim *sim = folio_prog(order, lm, true);
			struct folio_state f;
			struct atomics a0, a1;

			/* row 1: one write fault maps the whole order-k folio; plain stores, no atomics */
			run_to_step(sim, 1);
			/* anonymous mappings go 2 MiB aligned: the folio's block is the mapping */
			CHECK_EQ(vma_ptr(sim, find_vma_noacct(sim, mm_ptr(sim, 0), MMAP_BASE))
					 ->vm_start,
				 MMAP_BASE);
			a0 = atomics_now(sim);
			run_to_step(sim, 2);
			a1 = atomics_now(sim);
			head = parent_pfn(sim, 0);
			CHECK(head != 0);
			CHECK_EQ(folio_order(sim, head), order);
			for (uint32_t i = 0; i < n; i++)
				CHECK_EQ(parent_pfn(sim, i), head + i);
			CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1);
			CHECK_EQ(mmsim_counter(sim, MMSIM_ANON_FAULT_ALLOC), 1);
			CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), n);
			folio_read(sim, head, n, &f);
			for (uint32_t i = 0; i < n; i++)
				CHECK_EQ(f.mapcount[i], 1);
			CHECK_EQ(f.large, n);
			CHECK_EQ(f.nr_pages_mapped, n);
			CHECK_EQ(f.entire, 0);
			CHECK_EQ(
				f.refcount,
				n); /* a reference per PTE (a large folio drains the lru_add pagevec at once) */
			CHECK_ATOMICS(a0, a1, 0, 0, 0, 0);
			/* row 2: fork copies the n PTEs as one batch: n page incs + 1 large add (6.10 only) */
			a0 = a1;
			run_to_step(sim, 3);
			a1 = atomics_now(sim);
			folio_read(sim, head, n, &f);
			for (uint32_t i = 0; i < n; i++)
				CHECK_EQ(f.mapcount[i], 2);
			CHECK_EQ(f.large, 2 * n);
			CHECK_EQ(f.nr_pages_mapped, n);
			CHECK_ATOMICS(a0, a1, n, lm ? 1 : 0, 0, 0);
			/* row 3: the child's exit zaps the n PTEs as one batch: 1 large sub (6.10) + n page decs */
			a0 = a1;
			run_to_step(sim, 4);
			a1 = atomics_now(sim);
			folio_read(sim, head, n, &f);
			for (uint32_t i = 0; i < n; i++)
				CHECK_EQ(f.mapcount[i], 1);
			CHECK_EQ(f.large, n);
			CHECK_EQ(f.nr_pages_mapped, n);
			CHECK(!f.queued);
			CHECK_ATOMICS(a0, a1, n, lm ? 1 : 0, 0, 0);
			/* row 4: the parent's write to page 0: 6.10-6.14 never reuse a large folio, a 4 KiB copy;
			 * the folio loses page 0: 1 large dec + 1 page dec + 1 nr_pages_mapped dec, queued for a split */
			a0 = a1;
			CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
			a1 = atomics_now(sim);
			folio_read(sim, head, n, &f);
			CHECK_EQ(f.mapcount[0], 0);
			for (uint32_t i = 1; i < n; i++)
				CHECK_EQ(f.mapcount[i], 1);
			CHECK_EQ(f.large, n - 1);
			CHECK_EQ(f.nr_pages_mapped, n - 1);
			CHECK(f.queued);
			CHECK_EQ(mmsim_counter(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE), 1);
			CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DEFERRED_SPLIT), 1);
			CHECK(parent_pfn(sim, 0) != head);
			/* (the new 4 KiB page is a fresh folio: folio_add_new_anon_rmap, plain stores) */
			CHECK_ATOMICS(a0, a1, 1, lm ? 1 : 0, 1, 0);
			mmsim_destroy(sim);
		}
}

/*
 * 6.15+: after fork and the child's exit every reference to the folio is a
 * mapping in the parent: its write reuses the page in place, the folio
 * stays whole and off the deferred split queue, and nothing is copied.
 */
TEST(mthp_fault_fork_exit_reuse)
{
	for (int order = 2; order <= 4; order += 2) {
		uint32_t n = 1u << order, head;
		struct mmsim *sim = folio_prog_reuse(order, true, true, true);
		struct folio_state f;

		run_to_step(sim, 2); /* the write fault has mapped the folio */
		head = parent_pfn(sim, 0);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		folio_read(sim, head, n, &f);
		CHECK_EQ(parent_pfn(sim, 0), head);
		for (uint32_t i = 0; i < n; i++)
			CHECK_EQ(f.mapcount[i], 1);
		CHECK_EQ(f.large, n);
		CHECK(!f.queued);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGREUSE), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE), 0);
		CHECK(walk_pte(sim, mm_ptr(sim, 0), MMAP_BASE) &&
		      pte_write(*walk_pte(sim, mm_ptr(sim, 0), MMAP_BASE)));
		mmsim_destroy(sim);
	}
}

/* while the child still maps the folio, 6.15 copies as 6.10 does: the folio is not exclusive */
TEST(mthp_cow_while_child_maps_reuse_on)
{
	struct mmsim *sim = folio_prog_reuse(2, true, false, true);
	uint32_t head;

	run_to_step(sim, 2);
	head = parent_pfn(sim, 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK(parent_pfn(sim, 0) != head);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGREUSE), 0);
	mmsim_destroy(sim);
}

TEST(mthp_cow_while_child_maps)
{
	for (int lm = 0; lm <= 1; lm++) {
		const int order = 2;
		uint32_t n = 1u << order, head;
		struct mmsim *sim = folio_prog(order, lm, false);
		struct folio_state f;
		struct atomics a0, a1;

		run_to_step(sim, 3);
		head = parent_pfn(sim, 0);
		a0 = atomics_now(sim);
		/* row 5: page 0 is still the child's: _mapcount 1 there, 2 elsewhere, large 2n-1, nothing queued */
		run_to_step(sim, 4);
		a1 = atomics_now(sim);
		folio_read(sim, head, n, &f);
		CHECK_EQ(f.mapcount[0], 1);
		for (uint32_t i = 1; i < n; i++)
			CHECK_EQ(f.mapcount[i], 2);
		CHECK_EQ(f.large, 2 * n - 1);
		CHECK_EQ(f.nr_pages_mapped, n);
		CHECK(!f.queued);
		CHECK_ATOMICS(a0, a1, 1, lm ? 1 : 0, 0, 0);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		mmsim_destroy(sim);
	}
}

TEST(mthp_order_choice_and_fallback)
{
	/*
	 * mthp 16K and 64K (orders 2 and 4) on a 40 KiB mapping (10 pages):
	 *   page 0: the 64 KiB block is not inside the VMA, the 16 KiB one is  -> order 2, pages 0-3
	 *   page 9: blocks [8, 12) and [0, 16) stick out                        -> order 0
	 *   page 5: [4, 8) is inside and none                                   -> order 2, pages 4-7
	 */
	struct prog p;
	uint64_t pages[] = { 0, 9, 5 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	p.h.mthp_orders = (1u << 2) | (1u << 4);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 10 * PAGE_SIZE, 0, 1);
	prog_touch(&p, 0, 0, 1, pages, 3);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 3);
	CHECK_EQ(folio_order(sim, parent_pfn(sim, 0)), 2);
	CHECK_EQ(folio_order(sim, parent_pfn(sim, 9)), 0);
	CHECK_EQ(folio_order(sim, compound_head(sim, parent_pfn(sim, 5))), 2);
	CHECK_EQ(compound_head(sim, parent_pfn(sim, 5)), parent_pfn(sim, 4));
	CHECK_EQ(parent_pfn(sim, 4) + 1, parent_pfn(sim, 5));
	CHECK_EQ(parent_pfn(sim, 8), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_ANON_FAULT_ALLOC), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 9);
	mmsim_destroy(sim);
	/*
	 * A machine whose free memory has no order-4 block: every frame taken,
	 * then all given back but the last of each aligned 16 (the buddies
	 * coalesce up to order 3 only). 64 KiB falls back to 16 KiB, counted.
	 * (Held frames belong to nothing the invariant checker knows: it is off
	 * for this part.)
	 */
	prog_init(&p, 4 * MiB);
	p.h.mthp_orders = (1u << 2) | (1u << 4);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 16 * PAGE_SIZE, 0, 1);
	prog_touch(&p, 0, 0, 1, pages, 1);
	sim = start(&p);
	run_to_step(sim, 1);
	sim->debug_vm = 0;
	{
		static uint32_t held[1024];
		uint32_t n = 0, pfn;

		while (n < 1024 && !alloc_pages_nowmark(sim, 0, &pfn, MMSIM_USE_OTHER))
			held[n++] = pfn;
		for (uint32_t i = 0; i < n; i++)
			if ((held[i] & 15) != 15)
				folio_put(sim, held[i]);
		CHECK_EQ(sim->s.free_area[4].head, 0);
		CHECK(sim->s.free_area[3].head != 0);
	}
	run_to_step(sim, 2);
	CHECK_EQ(mmsim_last_error(sim)->code, 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_ANON_FAULT_FALLBACK), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_ANON_FAULT_ALLOC), 1);
	CHECK_EQ(folio_order(sim, parent_pfn(sim, 0)), 2);
	mmsim_destroy(sim);
}

TEST(mthp_likely_mapped_shared_false_negative)
{
	/*
	 * folio_likely_mapped_shared: after fork the child unmaps the first page of an order-2 folio:
	 *
	 *   page            0   1   2   3
	 *   _mapcount+1    [1] [2] [2] [2]     folio_mapcount 7, 4 pages
	 *
	 *   6.9  (first page's mapcount > 1)        1 > 1        -> not shared (wrong)
	 *   6.10 (mapcount > nr_pages: shared)      7 > 4        -> shared
	 */
	for (int lm = 0; lm <= 1; lm++) {
		struct prog p;
		uint64_t p0[] = { 0 };
		struct mmsim_step *s;
		struct mmsim *sim;
		uint32_t head;

		prog_anon_pair(&p, 64 * MiB, 4 * PAGE_SIZE);
		p.h.mthp_orders = 1u << 2;
		p.h.large_mapcount = lm;
		prog_touch(&p, 0, 0, 1, p0, 1);
		s = prog_step(&p, MMSIM_OP_FORK);
		s->task = 0;
		s->file = 1;
		s = prog_step(&p, MMSIM_OP_MUNMAP);
		s->task = 1;
		s->map = 0;
		s->offset = 0;
		s->length = PAGE_SIZE;
		s->flags = MMSIM_STEPF_LENGTH;
		sim = start(&p);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		head = parent_pfn(sim, 0);
		CHECK_EQ(folio_order(sim, head), 2);
		CHECK_EQ(folio_mapcount(sim, head), 7);
		CHECK_EQ(pfn_to_page(sim, head)->_mapcount + 1, 1);
		CHECK_EQ(folio_likely_mapped_shared(sim, head), lm ? true : false);
		/* nothing was unmapped for good: no deferred split */
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE), 0);
		mmsim_destroy(sim);
	}
}

/* ------------------------------------------------------------- PMD-mapped THP (kernel.thp) */

/*
 * A THP's life, one 4 MiB private anon mapping, thp: always:
 *
 *   step 0  mmap 4 MiB                    (2 MiB aligned: two PMD blocks)
 *   step 1  parent writes page 0          one fault, one PMD leaf   [entire 1, large 1, ENTIRELY_MAPPED]
 *   step 2  parent writes pages 1..511    no fault: the MMU walks through the leaf
 *   step 3  fork                          child's PMD leaf too      [entire 2, large 2]
 *   step 4  child writes page 5           COW of a shared PMD: the child's PMD is split (remap),
 *                                         the PTE path copies page 5
 *                                           [entire 1, large 1 + 511, ENTIRELY_MAPPED + 511, page 5: 0]
 *   step 5  parent munmaps the first 2 MiB  zap_huge_pmd: the last PMD goes, page 5 unmapped:
 *                                         partly mapped -> deferred split queued
 *   step 6  child madvise(DONTNEED) pages 0..255   PTEs zapped in batches
 *   then    deferred_split_scan()          split: the 255 pages still mapped stay, 257 are freed
 */
static struct mmsim *thp_prog(bool large_mapcount)
{
	struct prog p;
	uint64_t p0[] = { 0 }, p5[] = { 5 };
	struct mmsim_step *s;

	prog_anon_pair(&p, 64 * MiB, 4 * MiB); /* step 0: the mmap */
	p.h.thp = MMSIM_THP_ALWAYS;
	p.h.large_mapcount = large_mapcount;
	/* 6.9 / 6.10 rules */
	p.h.nr_pages_mapped_batching = false;
	p.h.large_folio_reuse = false;
	p.h.deferred_split_stats = MMSIM_DSSTATS_GLOBAL;
	prog_touch(&p, 0, 0, 1, p0, 1); /* step 1 */
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, PAGE_SIZE,
		    PMD_SIZE - PAGE_SIZE); /* step 2 */
	s = prog_step(&p, MMSIM_OP_FORK); /* step 3 */
	s->task = 0;
	s->file = 1;
	prog_touch(&p, 1, 0, 1, p5, 1); /* step 4 */
	s = prog_step(&p, MMSIM_OP_MUNMAP); /* step 5 */
	s->task = 0;
	s->map = 0;
	s->length = PMD_SIZE;
	s->flags = MMSIM_STEPF_LENGTH;
	s = prog_step(&p, MMSIM_OP_MADVISE); /* step 6 */
	s->task = 1;
	s->map = 0;
	s->kind = MMSIM_ADV_DONTNEED;
	s->length = 256 * PAGE_SIZE;
	s->flags = MMSIM_STEPF_LENGTH;
	return start(&p);
}

static uint32_t mapped_pfn(struct mmsim *sim, uint32_t mm, uint32_t page, uint64_t *entry)
{
	uint32_t pfn = follow_page_pfn(sim, mm_ptr(sim, mm), MMAP_BASE + (uint64_t)page * PAGE_SIZE,
				       entry);

	return pfn == MMSIM_NONE ? 0 : pfn;
}

TEST(thp_fault_fork_cow_munmap_split)
{
	for (int lm = 0; lm <= 1; lm++) {
		struct mmsim *sim = thp_prog(lm);
		struct folio_state f;
		struct atomics a0, a1;
		uint64_t e;
		uint32_t head, index;
		int freed;

		/* the mapcount table, "PMD THP: fault maps PMD": plain stores, no atomics */
		run_to_step(sim, 1);
		a0 = atomics_now(sim);
		run_to_step(sim, 2);
		a1 = atomics_now(sim);
		head = mapped_pfn(sim, 0, 0, &e);
		CHECK(head != 0);
		CHECK(e & MMSIM_PTE_PSE);
		CHECK_EQ(folio_order(sim, head), 9);
		index = pfn_to_page(sim, head)->index;
		CHECK_EQ(mapped_pfn(sim, 0, 511, NULL), head + 511);
		CHECK(walk_pte(sim, mm_ptr(sim, 0), MMAP_BASE) ==
		      NULL); /* no PTE table under the leaf */
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_ALLOC), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_THPS), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 512);
		CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_ANONPAGES], 512);
		folio_read(sim, head, 16, &f);
		CHECK_EQ(f.mapcount[0], 0);
		CHECK_EQ(f.large, 1);
		CHECK_EQ(f.entire, 1);
		CHECK_EQ(f.nr_pages_mapped, ENTIRELY_MAPPED);
		CHECK_ATOMICS(a0, a1, 0, 0, 0, 0);
		/* the rest of the 2 MiB costs no fault */
		run_to_step(sim, 3);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1);
		/* fork: copy_huge_pmd, one entire and (6.10) one large atomic; both leaves read-only */
		a0 = atomics_now(sim);
		run_to_step(sim, 4);
		a1 = atomics_now(sim);
		folio_read(sim, head, 16, &f);
		CHECK_EQ(f.entire, 2);
		CHECK_EQ(f.large, 2);
		CHECK_EQ(f.refcount, 2);
		CHECK_ATOMICS(a0, a1, 0, lm ? 1 : 0, 0, 1);
		CHECK_EQ(mapped_pfn(sim, 1, 7, &e), head + 7);
		CHECK(!(e & MMSIM_PTE_RW));
		mapped_pfn(sim, 0, 7, &e);
		CHECK(!(e & MMSIM_PTE_RW));
		CHECK(!(pfn_to_page(sim, head)->flags & PF(anon_exclusive)));
		/*
		 * the child's write to page 5: the remap (512 page incs; 512 nr_pages_mapped
		 * incs, one per page whose _mapcount went -1 -> 0, as 6.9 and 6.10 make them
		 * (6.12 batches them: one); one large add; then the PMD's removal: one large, one entire - not the
		 * last PMD mapping, the parent's stays, so ENTIRELY_MAPPED stays too) and
		 * the COW's removal of page 5's PTE (one large, one page, one
		 * nr_pages_mapped: page 5 lost its last PTE, but the parent's PMD still
		 * maps it, so nothing is un-accounted and nothing queued)
		 */
		a0 = atomics_now(sim);
		run_to_step(sim, 5);
		a1 = atomics_now(sim);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PMD), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2);
		CHECK_ATOMICS(a0, a1, 513, lm ? 3 : 0, 513, 1);
		folio_read(sim, head, 16, &f);
		CHECK_EQ(f.entire, 1);
		CHECK_EQ(f.large, 1 + 511);
		CHECK_EQ(f.nr_pages_mapped, ENTIRELY_MAPPED + 511);
		CHECK_EQ(f.mapcount[4], 1);
		CHECK_EQ(f.mapcount[5], 0);
		CHECK(!f.queued);
		CHECK(mapped_pfn(sim, 1, 5, NULL) != head + 5);
		CHECK_EQ(mapped_pfn(sim, 1, 6, NULL), head + 6);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 513); /* 512 + the child's copy */
		CHECK_EQ(folio_mapcount(sim, head), 512);
		CHECK_EQ(folio_likely_mapped_shared(sim, head), true);
		/* the parent's munmap: the last PMD mapping goes, page 5 is mapped by no one: queued */
		run_to_step(sim, 6);
		folio_read(sim, head, 16, &f);
		CHECK_EQ(f.entire, 0);
		CHECK_EQ(f.nr_pages_mapped, 511);
		CHECK(f.queued);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_THPS), 0);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 512);
		CHECK_EQ(mm_ptr(sim, 0)->pmd_huge_pte,
			 0); /* the parent's deposit went with its leaf */
		/* the child's DONTNEED of pages 0..255 */
		run_to_step(sim, 7);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		folio_read(sim, head, 16, &f);
		CHECK_EQ(f.nr_pages_mapped, 511 - 255);
		CHECK_EQ(f.refcount, 256);
		/* the shrinker: order-0 folios; 256 still mapped (255 of the THP's), 256 freed */
		freed = (int)deferred_split_scan(sim);
		CHECK_EQ(freed, 256);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PAGE), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_DEFERRED_SPLIT), 0);
		CHECK_EQ(mapped_pfn(sim, 1, 300, NULL), head + 300);
		CHECK_EQ(folio_order(sim, head + 300), 0);
		CHECK_EQ(pfn_to_page(sim, head + 300)->_refcount, 1);
		CHECK_EQ(pfn_to_page(sim, head + 300)->index, index + 300);
		CHECK_EQ(pfn_to_page(sim, head)->flags & PGTY(buddy),
			 PGTY(buddy)); /* the head page was unmapped: freed */
		CHECK(pfn_to_page(sim, head + 300)->flags & PF(lru));
		CHECK_EQ(mmsim_check(sim, NULL, 0), 0);
		mmsim_destroy(sim);
	}
}

/* one 4 MiB anon mapping under thp mode, memory mem; the steps follow */
static void thp_prog_init(struct prog *p, uint32_t mode, uint64_t mem, bool large_mapcount)
{
	prog_anon_pair(p, mem, 4 * MiB);
	p->h.thp = mode;
	p->h.large_mapcount = large_mapcount;
	p->h.nr_pages_mapped_batching = false; /* 6.9 / 6.10 rules */
}

static struct mmsim_step *prog_madvise(struct prog *p, uint32_t task, uint32_t advice, uint64_t off,
				       uint64_t len)
{
	struct mmsim_step *s = prog_step(p, MMSIM_OP_MADVISE);

	s->task = task;
	s->map = 0;
	s->kind = (uint8_t)advice;
	s->offset = off;
	s->length = len;
	s->flags = len ? MMSIM_STEPF_LENGTH : 0;
	return s;
}

TEST(thp_exclusive_remap_row)
{
	/*
	 * the mapcount table's last row: an exclusive THP's PMD remapped by PTEs because a VMA
	 * edge moves inside it (madvise(NOHUGEPAGE) of [1 MiB, 2 MiB) splits the
	 * VMA at 1 MiB: vma_adjust_trans_huge):
	 *   512 page incs + 512 nr_pages_mapped incs (6.9, 6.10: one per page; 6.12:
	 *   one) + (6.10) 1 large add, then the last
	 *   PMD's removal: (6.10) 1 large dec + 1 entire dec + 1 nr_pages_mapped
	 */
	for (int lm = 0; lm <= 1; lm++) {
		struct prog p;
		uint64_t p0[] = { 0 };
		struct mmsim *sim;
		struct folio_state f;
		struct atomics a0, a1;
		uint32_t head;
		uint64_t e;

		thp_prog_init(&p, MMSIM_THP_ALWAYS, 64 * MiB, lm);
		prog_touch(&p, 0, 0, 1, p0, 1); /* step 1 */
		prog_madvise(&p, 0, MMSIM_ADV_NOHUGEPAGE, 1 * MiB, 1 * MiB); /* step 2 */
		sim = start(&p);
		run_to_step(sim, 2);
		head = mapped_pfn(sim, 0, 0, &e);
		CHECK(e & MMSIM_PTE_PSE);
		a0 = atomics_now(sim);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		a1 = atomics_now(sim);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PMD), 1);
		CHECK_ATOMICS(a0, a1, 512, lm ? 2 : 0, 513, 1);
		folio_read(sim, head, 16, &f);
		for (int i = 0; i < 16; i++)
			CHECK_EQ(f.mapcount[i], 1);
		CHECK_EQ(f.large, 512);
		CHECK_EQ(f.nr_pages_mapped, 512);
		CHECK_EQ(f.entire, 0);
		CHECK_EQ(f.refcount, 512);
		CHECK(!f.queued);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_THPS), 0);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 512);
		/* the PTEs keep the leaf's bits and the pages its exclusivity */
		CHECK_EQ(mapped_pfn(sim, 0, 300, &e), head + 300);
		CHECK(!(e & MMSIM_PTE_PSE) && (e & MMSIM_PTE_RW) && (e & MMSIM_PTE_DIRTY));
		CHECK(pfn_to_page(sim, head + 300)->flags & PF(anon_exclusive));
		/* the deposited table became the PTE table: no table allocated, none left deposited */
		CHECK_EQ(mm_ptr(sim, 0)->pmd_huge_pte, 0);
		mmsim_destroy(sim);
	}
}

TEST(thp_reuse_zero_fallback_madvise)
{
	struct prog p;
	uint64_t p0[] = { 0 }, p3[] = { 3 }, p7[] = { 7 };
	struct mmsim *sim;
	struct mmsim_step *s;
	uint64_t e;

	/* the child exits: the parent's write to its read-only leaf reuses it in place (refcount 1) */
	thp_prog_init(&p, MMSIM_THP_ALWAYS, 64 * MiB, true);
	prog_touch(&p, 0, 0, 1, p0, 1);
	s = prog_step(&p, MMSIM_OP_FORK);
	s->task = 0;
	s->file = 1;
	prog_step(&p, MMSIM_OP_EXIT)->task = 1;
	prog_touch(&p, 0, 0, 1, p3, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PMD), 0);
	mapped_pfn(sim, 0, 3, &e);
	CHECK((e & MMSIM_PTE_PSE) && (e & MMSIM_PTE_RW));
	CHECK_EQ(count_ev(MMSIM_EV_SET_PMD), 3); /* the fault, the child's copy, the reuse */
	mmsim_destroy(sim);

	/* a read maps the huge zero page; a write puts a THP in its place (6.13+ do_huge_zero_wp_pmd; this machine's 6.18 agrees) */
	thp_prog_init(&p, MMSIM_THP_ALWAYS, 64 * MiB, true);
	prog_touch(&p, 0, 0, 0, p0, 1); /* step 1 */
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, PMD_SIZE); /* step 2 */
	prog_touch(&p, 0, 0, 1, p7, 1); /* step 3 */
	sim = start(&p);
	run_to_step(sim, 3);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_ZERO_PAGE_ALLOC), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_ALLOC), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 0);
	CHECK_EQ(mapped_pfn(sim, 0, 9, &e), 0);
	CHECK((e & MMSIM_PTE_PSE) && (e & MMSIM_PTE_SPECIAL) && !(e & MMSIM_PTE_RW));
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PMD), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_ALLOC), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 512);
	CHECK(mapped_pfn(sim, 0, 7, &e) != 0 && (e & MMSIM_PTE_PSE) && (e & MMSIM_PTE_RW) &&
	      !(e & MMSIM_PTE_SPECIAL));
	CHECK_EQ(mm_ptr(sim, 0)->rss[MMSIM_MM_PGTABLES],
		 4); /* PGD, PUD, PMD and the one deposited table */
	mmsim_destroy(sim);

	/* no THP to be had for the write (3 MiB of memory): the zero PMD is split, one 4 KiB page copied */
	thp_prog_init(&p, MMSIM_THP_ALWAYS, 3 * MiB, true);
	prog_touch(&p, 0, 0, 0, p0, 1);
	prog_touch(&p, 0, 0, 1, p7, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	if (mmsim_counter(sim, MMSIM_THP_ZERO_PAGE_ALLOC)) {
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_SPLIT_PMD), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_FALLBACK), 1);
		CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 1);
		CHECK(mapped_pfn(sim, 0, 7, &e) != 0 && !(e & MMSIM_PTE_PSE));
		CHECK_EQ(mapped_pfn(sim, 0, 8, &e), 0);
		CHECK((e & MMSIM_PTE_SPECIAL) && !(e & MMSIM_PTE_PSE));
	} else {
		CHECK(!"the read did not map the huge zero page");
	}
	mmsim_destroy(sim);

	/* madvise mode: only a MADV_HUGEPAGE range; the rest of the mapping takes 4 KiB faults */
	thp_prog_init(&p, MMSIM_THP_MADVISE, 64 * MiB, true);
	prog_madvise(&p, 0, MMSIM_ADV_HUGEPAGE, 2 * MiB, 2 * MiB);
	prog_touch(&p, 0, 0, 1, p0, 1);
	prog_access(&p, 0, 0, 1, MMSIM_PAT_SEQUENTIAL, 2 * MiB, 4 * PAGE_SIZE);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 2);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_ALLOC), 1);
	mapped_pfn(sim, 0, 0, &e);
	CHECK(!(e & MMSIM_PTE_PSE));
	mapped_pfn(sim, 0, 512, &e);
	CHECK(e & MMSIM_PTE_PSE);
	mmsim_destroy(sim);

	/* no free order-9 block (3 MiB of memory, nothing above the low watermark): thp_fault_fallback, one 4 KiB page */
	thp_prog_init(&p, MMSIM_THP_ALWAYS, 3 * MiB, true);
	prog_touch(&p, 0, 0, 1, p0, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_FALLBACK), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_THP_FAULT_ALLOC), 0);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_ANON_PAGES), 1);
	mmsim_destroy(sim);
}

/*
 * _nr_pages_mapped as each kernel updates it (nr_pages_mapped_batching): one
 * process writes 64 pages as 16 order-2 folios, then unmaps them all. Each
 * folio's batch of 4 PTEs takes 4 pages' _mapcount to -1: 6.9 and 6.10 make
 * one _nr_pages_mapped atomic per page (64), 6.12 one per batch (16). The
 * fault's plain stores make none either way.
 */
TEST(mthp_nr_pages_mapped_per_page_or_batch)
{
	for (int batching = 0; batching <= 1; batching++) {
		struct prog p;
		uint64_t pages[16];
		struct mmsim_step *s;
		struct mmsim *sim;
		struct atomics a0, a1;

		for (int i = 0; i < 16; i++)
			pages[i] = 4 * (uint64_t)i;
		prog_anon_pair(&p, 64 * MiB, 64 * PAGE_SIZE); /* step 0: the mmap */
		p.h.mthp_orders = 1u << 2;
		p.h.nr_pages_mapped_batching = batching;
		prog_touch(&p, 0, 0, 1, pages, 16); /* step 1: 16 write faults, one per folio */
		s = prog_step(&p, MMSIM_OP_MUNMAP); /* step 2 */
		s->task = 0;
		s->map = 0;
		sim = start(&p);
		run_to_step(sim, 2);
		CHECK_EQ(mmsim_counter(sim, MMSIM_ANON_FAULT_ALLOC), 16);
		a0 = atomics_now(sim);
		CHECK_EQ(a0.nr_mapped, 0);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		a1 = atomics_now(sim);
		CHECK_ATOMICS(a0, a1, 64, 16, batching ? 16 : 64, 0);
		mmsim_destroy(sim);
	}
}

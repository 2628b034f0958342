/*
 * vmacache.c - the VMA cache's rules (docs/kernel.md, "The VMA cache"), each test
 * with the slots drawn beside its assertions. Included by test_core.c (one
 * translation unit: the harness's counters are static).
 *
 * Layout used throughout: anonymous 2 MiB mappings placed bottom-up and
 * 2 MiB aligned, alternately writable and read-only so that neighbours do
 * not merge: A, B, C, D, E. Every VMA starts at a page number that is a
 * multiple of 512, so its page k hashes to slot k & 3.
 */

/* the mappings: n of them, alternately read-write and read-only */
static void vc_maps(struct prog *p, uint32_t task, int n)
{
	for (int i = 0; i < n; i++)
		prog_mmap(p, task, (uint32_t)i, -1, 0, 2 * MiB, 0, !(i & 1));
}

/* one touch of page `page` of map `map` (a write where the map is writable) */
static void vc_touch(struct prog *p, uint32_t task, uint32_t map, uint64_t page)
{
	prog_touch(p, task, map, !(map & 1), &page, 1);
}

static uint32_t vc_vma(struct mmsim *sim, uint32_t task, uint32_t map)
{
	const struct maprec *r = map0(sim, task, map);

	return r ? find_vma_noacct(sim, mm_ptr(sim, task_ptr(sim, task)->mm), r->start) : 0;
}

static uint64_t vc_calls(struct mmsim *sim, uint32_t task)
{
	return task_ptr(sim, task)->counters[MMSIM_T_VMACACHE_FIND_CALLS];
}

static uint64_t vc_hits(struct mmsim *sim, uint32_t task)
{
	return task_ptr(sim, task)->counters[MMSIM_T_VMACACHE_FIND_HITS];
}

TEST(vmacache_slots_hash_and_scan)
{
	/*
	 *                 fault at   lookup         slots 0 1 2 3 after
	 *   step 5        A page 0   miss (tree)          A . . .   slot 0 = hash(page 0)
	 *   step 6        B page 1   miss                 A B . .
	 *   step 7        C page 2   miss                 A B C .
	 *   step 8        D page 3   miss                 A B C D
	 *   step 9        A page 4   hit, slot 0          A B C D
	 *   step 10       C page 8   hit, slot 2          A B C D   hash(8) = 0, but the scan finds C in slot 2
	 *   step 11       E page 0   miss                 E B C D   E evicts A (both hash to slot 0)
	 *   step 12       A page 12  miss                 A B C D   and A evicts E
	 */
	struct prog p;
	struct mmsim *sim;
	uint32_t A, B, C, D, E;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 1, 0);
	vc_maps(&p, 0, 5);
	vc_touch(&p, 0, 0, 0);
	vc_touch(&p, 0, 1, 1);
	vc_touch(&p, 0, 2, 2);
	vc_touch(&p, 0, 3, 3);
	vc_touch(&p, 0, 0, 4);
	vc_touch(&p, 0, 2, 8);
	vc_touch(&p, 0, 4, 0);
	vc_touch(&p, 0, 0, 12);
	sim = start(&p);
	run_to_step(sim, 5);
	A = vc_vma(sim, 0, 0), B = vc_vma(sim, 0, 1), C = vc_vma(sim, 0, 2), D = vc_vma(sim, 0, 3),
	E = vc_vma(sim, 0, 4);
	CHECK(A && B && C && D && E && A != E);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 5); /* nothing merged */
	run_to_step(sim, 9);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[0], A);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[1], B);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[2], C);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[3], D);
	CHECK_EQ(vc_calls(sim, 0), 4);
	CHECK_EQ(vc_hits(sim, 0), 0);
	run_to_step(sim, 11);
	CHECK_EQ(vc_hits(sim, 0), 2);
	run_to_step(sim, 12);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[0], E);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[0], A);
	CHECK_EQ(vc_calls(sim, 0), 8);
	CHECK_EQ(vc_hits(sim, 0), 2);
	CHECK_EQ(sim->s.counters[MMSIM_VMACACHE_FIND_CALLS], 8);
	CHECK_EQ(sim->s.counters[MMSIM_VMACACHE_FIND_HITS], 2);
	/* the events: one find per lookup, one update per miss, tree nodes only on misses */
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_FIND), 8);
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_UPDATE), 6);
	CHECK(count_ev(MMSIM_EV_FIND_VMA_WALK) >= 6);
	mmsim_destroy(sim);
}

TEST(vmacache_mm_wide_single_slot)
{
	/*
	 * The same touches with 3.14's mm->mmap_cache: one slot, so only a
	 * lookup in the VMA of the previous one hits.
	 *
	 *   fault at     A0 B1 C2 D3 A4 C8 E0 A12 A13
	 *   mmap_cache   A  B  C  D  A  C  E  A   A
	 *   lookup       -  -  -  -  -  -  -  -   hit   (only a repeat of the previous VMA hits)
	 *
	 *   munmap 8 KiB at B: find_vma(start) misses (cache = B), find_vma(end)
	 *   hits B; the split, then detach "kills the cache": mmap_cache = 0.
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	p.h.vmacache = MMSIM_VMACACHE_MM_WIDE;
	prog_proc(&p, 1, 0);
	vc_maps(&p, 0, 5);
	vc_touch(&p, 0, 0, 0);
	vc_touch(&p, 0, 1, 1);
	vc_touch(&p, 0, 2, 2);
	vc_touch(&p, 0, 3, 3);
	vc_touch(&p, 0, 0, 4);
	vc_touch(&p, 0, 2, 8);
	vc_touch(&p, 0, 4, 0);
	vc_touch(&p, 0, 0, 12);
	vc_touch(&p, 0, 0, 13);
	/* munmap 8 KiB of map 1 (B) from its page 0: the cache is killed */
	s = prog_step(&p, MMSIM_OP_MUNMAP);
	s->map = 1;
	s->length = 8 * KiB;
	s->flags = MMSIM_STEPF_LENGTH;
	sim = start(&p);
	run_to_step(sim, 14);
	CHECK_EQ(vc_calls(sim, 0), 9);
	CHECK_EQ(vc_hits(sim, 0), 1);
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, vc_vma(sim, 0, 0));
	/* the per-thread slots are untouched in this mode */
	CHECK_EQ(task_ptr(sim, 0)->vmacache[0], 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	/* do_munmap: find_vma(start) and find_vma(end), then "Kill the cache" */
	CHECK_EQ(vc_calls(sim, 0), 11);
	CHECK_EQ(vc_hits(sim, 0), 2);
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, 0);
	mmsim_destroy(sim);
}

TEST(vmacache_munmap_invalidates_every_thread)
{
	/*
	 * Two threads of one process, each working in its own VMA.
	 *
	 *                                 T0 slots     T1 slots     mm seq  T0 seq  T1 seq
	 *   T0 A page 0, T1 B page 0      A . . .      B . . .      0       0       0
	 *   T0 A page 1, T1 B page 1      A . . .      B . . .      hits: one each
	 *   T0 munmap C: find_vma(start)  C . . .      B . . .      1       0       0   (C evicts A; find_vma(end)
	 *     misses, stores C in slot 0;                                                 finds nothing above C)
	 *     then the seqnum bump
	 *   T1 B page 2                   C . . .      . . B .      1       0       1   seqnum behind: flushed, miss
	 *   T0 A page 2                   . . A .      . . B .      1       1       1   flushed, miss
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 2, 0);
	vc_maps(&p, 0, 3);
	vc_touch(&p, 0, 0, 0);
	vc_touch(&p, 1, 1, 0);
	vc_touch(&p, 0, 0, 1);
	vc_touch(&p, 1, 1, 1);
	s = prog_step(&p, MMSIM_OP_MUNMAP);
	s->task = 0;
	s->map = 2;
	vc_touch(&p, 1, 1, 2);
	vc_touch(&p, 0, 0, 2);
	sim = start(&p);
	run_to_step(sim, 7);
	CHECK_EQ(vc_hits(sim, 0), 1);
	CHECK_EQ(vc_hits(sim, 1), 1);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 0);
	run_to_step(sim, 8);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 1);
	CHECK_EQ(task_ptr(sim, 1)->vmacache_seqnum, 0);
	CHECK(task_ptr(sim, 1)->vmacache[0] != 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(task_ptr(sim, 0)->vmacache_seqnum, 1);
	CHECK_EQ(task_ptr(sim, 1)->vmacache_seqnum, 1);
	/* after the flush each thread holds only what its miss stored */
	CHECK_EQ(task_ptr(sim, 1)->vmacache[2], vc_vma(sim, 1, 1));
	CHECK_EQ(task_ptr(sim, 1)->vmacache[0], 0);
	CHECK_EQ(task_ptr(sim, 0)->vmacache[2], vc_vma(sim, 0, 0));
	CHECK_EQ(task_ptr(sim, 0)->vmacache[0], 0);
	CHECK_EQ(vc_hits(sim, 0), 1);
	CHECK_EQ(vc_hits(sim, 1), 1);
	/* two of the misses were the seqnum mismatch (reason 2) */
	{
		size_t n = 0;

		for (size_t i = 0; i < nevs; i++)
			if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_VMACACHE_FIND &&
			    evs[i].c == 2)
				n++;
		CHECK_EQ(n, 2);
	}
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_INVALIDATE), 1); /* once per munmap, not per VMA */
	mmsim_destroy(sim);
}

TEST(vmacache_split_keeps_merge_invalidates)
{
	/*
	 *                                      slots      seq  calls hits
	 *   A page 0                           A . . .    0    1     0     miss
	 *   madvise random, A's upper 1 MiB    A . . .    0    2     1     find_vma(start) hits A, then the
	 *                                                                   split [A][A hi]: no invalidation (VC-6)
	 *   A page 1                           A . . .    0    3     2     A (now the lower half) still answers
	 *   madvise random, all of A           A . . .    1    4     3     A absorbs A hi: the merge unlinks it
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 1, 0);
	vc_maps(&p, 0, 1);
	vc_touch(&p, 0, 0, 0);
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->map = 0;
	s->kind = MMSIM_ADV_RANDOM;
	s->offset = 1 * MiB;
	s->length = 1 * MiB;
	s->flags = MMSIM_STEPF_LENGTH;
	vc_touch(&p, 0, 0, 1);
	s = prog_step(&p, MMSIM_OP_MADVISE);
	s->map = 0;
	s->kind = MMSIM_ADV_RANDOM;
	sim = start(&p);
	run_to_step(sim, 3);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 2);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 0);
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_INVALIDATE), 0);
	run_to_step(sim, 4);
	CHECK_EQ(vc_calls(sim, 0), 3);
	CHECK_EQ(vc_hits(sim, 0), 2);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 1);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 1);
	CHECK_EQ(vc_calls(sim, 0), 4);
	CHECK_EQ(vc_hits(sim, 0), 3);
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_INVALIDATE), 1);
	mmsim_destroy(sim);
}

TEST(vmacache_seqnum_wrap_flushes_all)
{
	/*
	 * The mm starts at vmacache_seqnum 0xffffffff (the format's
	 * extension). Both threads' first lookups find their seqnum (0)
	 * behind and flush; then a munmap wraps the mm's count to 0:
	 * vmacache_flush_all() clears both threads' slots, and the next
	 * lookups are seqnum mismatches again (0xffffffff vs 0).
	 *
	 *                              T0 slots   T1 slots   mm seq       full flushes
	 *   T0 A0, T1 B0               A . . .    B . . .    0xffffffff   0
	 *   T0 munmap C                . . . .    . . . .    0            1
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 2, 0);
	p.procs[0].vmacache_seqnum = 0xffffffffu;
	vc_maps(&p, 0, 3);
	vc_touch(&p, 0, 0, 0);
	vc_touch(&p, 1, 1, 0);
	s = prog_step(&p, MMSIM_OP_MUNMAP);
	s->task = 0;
	s->map = 2;
	vc_touch(&p, 1, 1, 1);
	sim = start(&p);
	run_to_step(sim, 5);
	CHECK_EQ(task_ptr(sim, 0)->vmacache_seqnum, 0xffffffffu);
	CHECK_EQ(task_ptr(sim, 1)->vmacache[0], vc_vma(sim, 1, 1));
	run_to_step(sim, 6);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 0);
	CHECK_EQ(sim->s.counters[MMSIM_VMACACHE_FULL_FLUSHES], 1);
	for (int i = 0; i < VMACACHE_SIZE; i++) {
		CHECK_EQ(task_ptr(sim, 0)->vmacache[i], 0);
		CHECK_EQ(task_ptr(sim, 1)->vmacache[i], 0);
	}
	CHECK_EQ(count_ev(MMSIM_EV_VMACACHE_FLUSH_ALL), 1);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(vc_hits(sim, 1), 0);
	CHECK_EQ(task_ptr(sim, 1)->vmacache_seqnum, 0);
	mmsim_destroy(sim);
}

TEST(vmacache_fork_resets)
{
	/*
	 * VC-7: the child mm's seqnum is 0, the child task's slots empty and
	 * its seqnum the parent task's (dup_task_struct copies it).
	 *   parent: A0, munmap B (seq 1), A1 (flush, miss: parent task seq 1)
	 *   fork: child mm seq 0, child task seq 1, slots empty
	 *   child: A2: seqnum mismatch, flush, miss
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;
	uint32_t child;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 1, 0);
	child = prog_proc(&p, 1, 1);
	vc_maps(&p, 0, 2);
	vc_touch(&p, 0, 0, 0);
	s = prog_step(&p, MMSIM_OP_MUNMAP);
	s->task = 0;
	s->map = 1;
	vc_touch(&p, 0, 0, 1);
	s = prog_step(&p, MMSIM_OP_FORK);
	s->task = 0;
	s->file = child;
	vc_touch(&p, 1, 0, 2);
	sim = start(&p);
	run_to_step(sim, 6);
	CHECK_EQ(task_ptr(sim, 0)->vmacache_seqnum, 1);
	CHECK_EQ(mm_ptr(sim, child)->vmacache_seqnum, 0);
	CHECK_EQ(task_ptr(sim, 1)->vmacache_seqnum, 1);
	CHECK_EQ(task_ptr(sim, 1)->vmacache[0], 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(task_ptr(sim, 1)->vmacache_seqnum, 0);
	CHECK_EQ(vc_calls(sim, 1), 1);
	CHECK_EQ(vc_hits(sim, 1), 0);
	mmsim_destroy(sim);
}

TEST(vmacache_mm_wide_caches_any_found_vma_and_unlink_hands_to_prev)
{
	/*
	 * 3.14's VC-0 rules that the per-thread cache does not have.
	 *
	 *   maps A B C (2 MiB each, writable: they merge into one VMA)   mmap_cache
	 *   munmap B: splits, detaches B                                  0   "Kill the cache"
	 *   munmap A: find_vma(A.start) miss                              A
	 *             find_vma(A.end) miss                                C   A.end lies in B's old hole: C
	 *                                                                     does not contain it, cached anyway
	 *             detach A                                            0   killed again
	 *   C page 0 (fault): miss                                        C
	 *   madvise random, C's lower 1 MiB: hit; split_vma(C, end, 0):   C   C keeps the lower half, U is
	 *     [C lo random][U]                                                the new upper one (no invalidation)
	 *   madvise random, C's upper 1 MiB: find_vma(U.start) miss       U
	 *     vma_merge: prev C expands over U, __vma_unlink(U, prev C)   C   the cache held U: handed to prev
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;
	uint32_t C;

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	p.h.vmacache = MMSIM_VMACACHE_MM_WIDE;
	prog_proc(&p, 1, 0);
	for (uint32_t i = 0; i < 3; i++)
		prog_mmap(&p, 0, i, -1, 0, 2 * MiB, 0, 1);
	s = prog_step(&p, MMSIM_OP_MUNMAP); /* step 3 */
	s->map = 1;
	s = prog_step(&p, MMSIM_OP_MUNMAP); /* step 4 */
	s->map = 0;
	vc_touch(&p, 0, 2, 0); /* step 5 */
	for (int half = 0; half < 2; half++) { /* steps 6, 7 */
		s = prog_step(&p, MMSIM_OP_MADVISE);
		s->map = 2;
		s->kind = MMSIM_ADV_RANDOM;
		s->offset = (uint64_t)half * MiB;
		s->length = 1 * MiB;
		s->flags = MMSIM_STEPF_LENGTH;
	}
	sim = start(&p);
	run_to_step(sim, 3);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 1);
	run_to_step(sim, 4);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 2);
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, 0);
	C = vc_vma(sim, 0, 2);
	nevs = 0;
	run_to_step(sim, 5);
	/* munmap A: two updates, the second to C for an address C does not contain */
	{
		uint32_t upd[2] = { 0, 0 }, n = 0;
		uint64_t at[2] = { 0, 0 };

		for (size_t i = 0; i < nevs; i++)
			if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_VMACACHE_UPDATE &&
			    n < 2) {
				at[n] = evs[i].addr;
				upd[n++] = evs[i].a;
			}
		CHECK_EQ(n, 2);
		CHECK_EQ(upd[1], C);
		CHECK(at[1] < vma_ptr(sim, C)->vm_start);
	}
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, 0);
	run_to_step(sim, 7);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 2);
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, C);
	CHECK_EQ(vma_ptr(sim, C)->vm_end - vma_ptr(sim, C)->vm_start, 1 * MiB);
	nevs = 0;
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 1);
	CHECK_EQ(vma_ptr(sim, C)->vm_end - vma_ptr(sim, C)->vm_start, 2 * MiB);
	CHECK_EQ(mm_ptr(sim, 0)->mmap_cache, C);
	/* and the unlink said so: mmsim_vmacache_invalidate with the mm-wide reason and prev */
	{
		size_t n = 0;

		for (size_t i = 0; i < nevs; i++)
			if ((evs[i].type & MMSIM_EV_TYPE_MASK) == MMSIM_EV_VMACACHE_INVALIDATE) {
				CHECK_EQ(evs[i].b, C);
				CHECK_EQ(evs[i].c, 2);
				n++;
			}
		CHECK_EQ(n, 1);
	}
	mmsim_destroy(sim);
}

TEST(vmacache_map_fixed_looks_up_only_over_a_mapping)
{
	/*
	 * mmap_region() asks find_vma_links() (not counted) whether a
	 * MAP_FIXED range overlaps anything, and only then runs do_munmap():
	 *   map A; MAP_FIXED B into the free space above A   calls 0, seq 0
	 *   MAP_FIXED C over A's first page                  calls 2 (do_munmap's start and end), seq 1
	 */
	struct prog p;
	struct mmsim *sim;
	struct mmsim_step *s;
	uint64_t a;

	/* where A lands (placement is deterministic): a first run with A alone */
	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 2 * MiB, 0, 1);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	a = map0(sim, 0, 0)->start;
	mmsim_destroy(sim);

	prog_init(&p, 64 * MiB);
	p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 2 * MiB, 0, 1);
	s = prog_mmap(&p, 0, 1, -1, 0, 2 * MiB, 0, 0); /* step 1 */
	s->flags |= MMSIM_STEPF_FIXED;
	s->addr = a + 8 * MiB;
	s = prog_mmap(&p, 0, 2, -1, 0, 4 * KiB, 0, 0); /* step 2 */
	s->flags |= MMSIM_STEPF_FIXED;
	s->addr = a;
	sim = start(&p);
	run_to_step(sim, 2);
	CHECK_EQ(map0(sim, 0, 0)->start, a);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 2);
	CHECK_EQ(vc_calls(sim, 0), 0);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 0);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mm_ptr(sim, 0)->map_count, 3);
	CHECK_EQ(vc_calls(sim, 0), 2);
	CHECK_EQ(mm_ptr(sim, 0)->vmacache_seqnum, 1);
	mmsim_destroy(sim);
}

/*
 * vmacache: off, the letter's baseline: no slot is ever filled, every lookup
 * walks the tree. Five VMAs, twenty faults cycling over them (A B C D E A ...):
 *
 *   per-thread   5 misses (one walk each), then 15 hits from the four slots... except E, which evicts A
 *   mm-wide      20 misses: the single slot never holds the next VMA of the cycle
 *   off          20 misses, 20 walks: find_vma_nodes the sum of 20 walks' lengths
 *
 * so find_vma_nodes is larger off than with the cache, and hits are 0.
 */
TEST(vmacache_off_walks_every_time)
{
	uint64_t nodes[3] = { 0 }, hits[3] = { 0 }, calls[3] = { 0 };

	for (int mode = 0; mode < 3; mode++) {
		struct prog p;
		struct mmsim *sim;

		prog_init(&p, 64 * MiB);
		p.h.vmacache = MMSIM_VMACACHE_PER_THREAD; /* 3.15 (the default, 6.18, has none) */
		prog_proc(&p, 1, 0);
		p.h.vmacache = (uint32_t)mode;
		vc_maps(&p, 0, 5);
		for (int i = 0; i < 20; i++)
			vc_touch(&p, 0, (uint32_t)(i % 5), (uint64_t)(i / 5));
		sim = start(&p);
		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		nodes[mode] = mmsim_counter(sim, MMSIM_MODEL_FIND_VMA_NODES);
		hits[mode] = mmsim_counter(sim, MMSIM_VMACACHE_FIND_HITS);
		calls[mode] = mmsim_counter(sim, MMSIM_VMACACHE_FIND_CALLS);
		mmsim_destroy(sim);
	}
	CHECK_EQ(MMSIM_VMACACHE_OFF, 2);
	CHECK_EQ(calls[0], calls[2]);
	CHECK_EQ(hits[2], 0);
	CHECK(hits[0] > 0);
	/* every one of the 20 faults walked: at least one node each, more than the cached modes' misses */
	CHECK(nodes[2] >= 20);
	CHECK(nodes[2] > nodes[0]);
	/* 3.14's single slot misses on every fault of this cycle: it walks as often as no cache at all */
	CHECK_EQ(nodes[2], nodes[1]);
	CHECK_EQ(hits[1], 0);
}

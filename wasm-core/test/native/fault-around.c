/*
 * fault-around.c - 6.18's large page-cache folios (docs/kernel.md,
 * "Large page-cache folios"): readahead grows each window's folio order by 2,
 * fault-around and finish_fault() map a large folio whole. The figures are
 * Linux 6.18.44's, measured on ext4 (a loop device, read_ahead_kb 2560 as a
 * loop device gets, and 128), one byte read per page through a shared
 * mapping; the folio layout was read from /proc/kpageflags.
 * Included by test_core.c.
 */

/*
 * a cold file of size bytes, read in order through a shared mapping; large: the kernel's large
 * page-cache folios (6.18), file_flags: the file's (MMSIM_FILE_ORDER0: large_folios: false)
 */
static struct mmsim *large_read_file(uint64_t size, uint32_t readahead_kb, bool large,
				     uint32_t file_flags)
{
	struct prog p;

	prog_init(&p, 512 * MiB);
	p.h.pagecache_large_folios = large;
	p.h.readahead_kb = readahead_kb;
	prog_file(&p, size, 0);
	p.files[0].flags |= file_flags;
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	return start(&p);
}

static struct mmsim *large_read(uint64_t size, uint32_t readahead_kb, bool large)
{
	return large_read_file(size, readahead_kb, large, 0);
}

/* how many page-cache folios of each order file 0 holds */
static void folio_orders(struct mmsim *sim, uint32_t *count)
{
	uint64_t end = DIV_ROUND_UP(file_ptr(sim, 0)->i_size, PAGE_SIZE);

	memset(count, 0, (MAX_PAGECACHE_ORDER + 1) * sizeof(*count));
	for (uint64_t index = 0; index < end;) {
		uint32_t pfn = filemap_get_folio(sim, 0, index), order;

		CHECK(pfn != 0);
		if (!pfn)
			return;
		order = folio_order(sim, pfn);
		CHECK_EQ(pfn_to_page(sim, pfn)->index, index);
		count[order]++;
		index += 1ull << order;
	}
}

TEST(large_pagecache_folios_16mib_152_faults)
{
	/* 6.18.44: 152 faults, 1 major; 640 o0, 160 o2, 40 o4, 10 o6, 2 o7, 5 o8 */
	struct mmsim *sim = large_read(16 * MiB, 2560, true);
	uint32_t count[MAX_PAGECACHE_ORDER + 1];

	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 152);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGMAJFAULT), 1);
	CHECK_EQ(mmsim_counter(sim, MMSIM_NR_MAPPED), 4096);
	folio_orders(sim, count);
	CHECK_EQ(count[0], 640);
	CHECK_EQ(count[2], 160);
	CHECK_EQ(count[4], 40);
	CHECK_EQ(count[6], 10);
	CHECK_EQ(count[7], 2);
	CHECK_EQ(count[8], 5);
	CHECK_EQ(count[9], 0);
	mmsim_destroy(sim);
}

TEST(large_pagecache_folios_measured_counts)
{
	/* size, read_ahead_kb, large folios: 6.18.44's faults (order-0: ext4 data=journal) */
	static const struct {
		uint64_t size;
		uint32_t ra_kb;
		bool large;
		uint64_t faults;
	} rows[] = {
		{ 16 * MiB, 128, true, 133 },	 { 64 * MiB, 128, true, 517 },
		{ 64 * MiB, 2560, true, 200 },	 { 16 * MiB, 2560, false, 256 },
		{ 64 * MiB, 2560, false, 1024 },
	};

	for (uint32_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mmsim *sim = large_read(rows[i].size, rows[i].ra_kb, rows[i].large);

		CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
		CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), rows[i].faults);
		mmsim_destroy(sim);
	}
}

TEST(large_pagecache_folios_split_where_the_model_has_no_rule)
{
	/*
	 * A write(2), fadvise(DONTNEED) and munmap over large folios, then reclaim on a
	 * small machine: the model splits them first; every invariant holds (debug_vm).
	 */
	struct prog p;
	struct mmsim *sim;

	prog_init(&p, 24 * MiB);
	p.h.pagecache_large_folios = 1;
	p.h.readahead_kb = 2560;
	prog_file(&p, 16 * MiB, 0);
	prog_file(&p, 32 * MiB, 0);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, 0, 0, 0, 1, 0);
	prog_access(&p, 0, 0, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	prog_file_op(&p, MMSIM_OP_WRITE, 0, 0, 8 * MiB, 4096);
	prog_step(&p, MMSIM_OP_MUNMAP)->map = 0;
	prog_file_op(&p, MMSIM_OP_FADVISE, 0, 0, 0, 16 * MiB);
	prog_mmap(&p, 0, 1, 1, 0, 0, 1, 0);
	prog_access(&p, 0, 1, 0, MMSIM_PAT_SEQUENTIAL, 0, 0);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK(mmsim_counter(sim, MMSIM_MODEL_PAGECACHE_SPLITS) > 0);
	CHECK(mmsim_counter(sim, MMSIM_PGSTEAL) > 0);
	mmsim_destroy(sim);
}

TEST(large_pagecache_folios_off_for_one_file)
{
	/* 6.18's rules, a file on ext4 mounted data=journal (large_folios: false): order 0, 256 faults */
	struct mmsim *sim = large_read_file(16 * MiB, 2560, true, MMSIM_FILE_ORDER0);

	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	CHECK_EQ(mmsim_counter(sim, MMSIM_PGFAULT), 256);
	CHECK_EQ(count_ev(MMSIM_EV_ADD_TO_PAGE_CACHE), 4096);
	mmsim_destroy(sim);
}

/*
 * readahead.c - mm/readahead.c (v6.19; the large-folio orders of 6.18).
 *
 * A major fault on a mapping without MADV_RANDOM/MADV_SEQUENTIAL does mmap
 * *read-around* (filemap.c do_sync_mmap_readahead): ra_pages (readahead_kb /
 * 4) pages centred on the fault, with PG_readahead on the first page of the
 * last quarter:
 *
 *     fault at 40, ra_pages 32:  start 24 ................................ 55
 *                                                          ^ PG_readahead at 48
 *
 * When a fault (or read) later finds that marked page, page_cache_async_ra()
 * reads the next window ahead of the reader, and marks its first page.
 * Fault-around skips marked pages precisely so that ->fault sees them.
 *
 * The async window's end is aligned (v6.19, and 6.18): the order is raised
 * by 2 and the window trimmed so that it ends on a
 * 1 << min(order, ffs(ra_pages) - 1) page boundary; with order-0 folios (the
 * order drops back to 0 after each read) that is 4 pages. A stream that
 * began off-centre is pulled onto that grid:
 *
 *     read-around 31..62, mark 55      async at 55: 63..94 would end at 95,
 *                                       trimmed to 63..91 (29 pages), mark 63
 *     async at 63: 92..123, mark 92    then 124, 156, ... (4-page aligned)
 *
 * A mark sitting on the first page of a 16-page fault-around window costs
 * nothing (the reader faults there anyway); a mark inside a window costs
 * one more fault, because fault-around skipped that page.
 *
 * page_cache_ra_unbounded() marks the page at nr_to_read - lookahead_size
 * only when the lookahead fits in what is read: a window cut short by EOF
 * to fewer pages than its lookahead gets no mark at all.
 *
 * Large folios (pagecache_large_folios, 6.18's ext4): page_cache_ra_order()
 * below. Each async window raises the order by 2, so a sequential reader's
 * folios grow 0, 2, 4, 6, 8 window by window (docs/kernel.md, "Large
 * page-cache folios"). Without them, or on tmpfs, every folio is order 0.
 *
 * Not modelled: cgroup congestion, VM_HUGEPAGE file readahead, and the bdi
 * io_pages limit (max_pages is ra_pages).
 */
#include "internal.h"
#include "filemap.h"
#include "xarray.h"

/*
 * page_cache_ra_unbounded(): allocate, mark and submit a run of new folios.
 * The mark goes on page nr_to_read - lookahead_size, if that page is read
 * here (not already cached) and the lookahead fits at all.
 */
static void page_cache_ra_unbounded(struct mmsim *sim, uint32_t file, uint64_t index,
				    uint64_t nr_to_read, uint64_t lookahead_size)
{
	uint64_t mark = lookahead_size <= nr_to_read ? nr_to_read - lookahead_size : UINT64_MAX;
	uint64_t batch_start = index;
	uint32_t batch = 0;

	for (uint64_t i = 0; i < nr_to_read; i++) {
		uint32_t e = xa_load(sim, &file_ptr(sim, file)->i_pages, index + i);
		uint32_t pfn;

		if (e && !xa_is_value(e)) {
			/* already cached: submit what we have, skip this one */
			if (batch)
				io_submit_read(sim, file, batch_start, batch);
			batch = 0;
			batch_start = index + i + 1;
			continue;
		}
		if (filemap_add_folio(sim, file, index + i, &pfn))
			break; /* out of memory: read what we have */
		if (i == mark) {
			folio_set(pfn_to_page(sim, pfn), readahead);
			trace_mmsim_readahead_mark(sim, file, (index + i), 1);
		}
		count_vm_event(sim, MMSIM_MODEL_READAHEAD_PAGES);
		batch++;
	}
	if (batch)
		io_submit_read(sim, file, batch_start, batch);
}

/* do_page_cache_ra(): clamp to EOF */
void do_page_cache_ra(struct mmsim *sim, uint32_t file, uint64_t index, uint64_t nr_to_read,
		      uint64_t lookahead_size)
{
	uint64_t isize = file_ptr(sim, file)->i_size;
	uint64_t end_index;

	if (!isize)
		return;
	end_index = (isize - 1) >> PAGE_SHIFT;
	if (index > end_index)
		return;
	if (nr_to_read > end_index - index)
		nr_to_read = end_index - index + 1;
	page_cache_ra_unbounded(sim, file, index, nr_to_read, lookahead_size);
}

static uint32_t ffs32(uint32_t x);

/* ilog2() of a nonzero 32-bit value */
static uint32_t ilog2_32(uint32_t x)
{
	uint32_t n = 0;

	while (x >>= 1)
		n++;
	return n;
}

/*
 * page_cache_ra_order() - 6.18 mm/readahead.c. Without large folio support
 * (pagecache_large_folios false, a file saying large_folios: false, or tmpfs):
 * order 0, the ra window read by
 * do_page_cache_ra(). With it (6.18's ext4): ra->order, clamped to
 * MAX_PAGECACHE_ORDER (9) and to ilog2(ra->size), is the order of the
 * window's folios and is kept for the next window; each folio is that order
 * where the index is aligned to it (else the index's own alignment, __ffs),
 * cut down so as not to pass the window's end or the file's; the folio
 * holding the mark (start + size - async_size, rounded down to the folio)
 * gets PG_readahead. A folio that cannot be added (a page already cached, or
 * no memory) stops the loop, and the rest of the window is read by the
 * order-0 path, which steps over cached pages.
 *
 *     async window 1920..2559, order 6:  10 folios of 64 pages, mark on 1920
 *     next window 2560..3199, order 8:   2560 o8, 2816 o8, 3072 o7 (ends at 3199)
 */
void page_cache_ra_order(struct mmsim *sim, uint32_t file)
{
	struct file *f = file_ptr(sim, file);
	struct file_ra_state *ra = &f->f_ra;
	uint64_t start = ra->start, index = start, limit, mark, batch_start = start;
	uint32_t new_order, batch = 0;
	int err = 0;

	if (!sim->s.hdr.pagecache_large_folios || shmem_file(f) || (f->flags & MMSIM_FILE_ORDER0) ||
	    !f->i_size || !ra->size) {
		ra->order = 0;
		do_page_cache_ra(sim, file, ra->start, ra->size, ra->async_size);
		return;
	}
	limit = (f->i_size - 1) >> PAGE_SHIFT;
	if (limit > start + ra->size - 1)
		limit = start + ra->size - 1;
	mark = start + ra->size - ra->async_size;
	new_order = MIN(ra->order, MAX_PAGECACHE_ORDER);
	new_order = MIN(new_order, ilog2_32(ra->size));
	ra->order = new_order;
	while (index <= limit) {
		uint32_t order = new_order, pfn;

		/* align with smaller folios where the index is not aligned */
		if (index & ((1ull << order) - 1))
			order = ffs32((uint32_t)index) - 1;
		/* no folio past the window's or the file's end */
		while (order && index + (1ull << order) - 1 > limit)
			order--;
		/* ra_alloc_folio() */
		err = filemap_add_folio_order(sim, file, index, order, &pfn);
		if (err)
			break;
		if (index == (mark & ~((1ull << order) - 1))) {
			folio_set(pfn_to_page(sim, pfn), readahead);
			trace_mmsim_readahead_mark(sim, file, index, 1);
		}
		count_vm_events(sim, MMSIM_MODEL_READAHEAD_PAGES, 1u << order);
		batch += 1u << order;
		index += 1ull << order;
	}
	/* read_pages(): the folios added, one request */
	if (batch)
		io_submit_read(sim, file, batch_start, batch);
	if (!err)
		return;
	/* pages already cached left gaps: the order-0 path fills the rest of the window */
	if (ra->size > index - start)
		do_page_cache_ra(sim, file, index, ra->size - (index - start), ra->async_size);
}

static uint32_t roundup_pow_of_two(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* get_init_ra_size(): the first window of a sequential stream */
static uint32_t get_init_ra_size(uint32_t size, uint32_t max)
{
	uint32_t newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/* get_next_ra_size(): ramp up */
static uint32_t get_next_ra_size(const struct file_ra_state *ra, uint32_t max)
{
	uint32_t cur = ra->size;

	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* page_cache_next_miss() / page_cache_prev_miss() */
static uint64_t page_cache_next_miss(struct mmsim *sim, uint32_t file, uint64_t index,
				     uint64_t max_scan)
{
	const struct xarray *xa = &file_ptr(sim, file)->i_pages;

	for (uint64_t n = 0; n < max_scan; n++) {
		uint32_t e = xa_load(sim, xa, index + n);

		if (!e || xa_is_value(e))
			return index + n;
	}
	return index + max_scan;
}

static uint64_t page_cache_prev_miss(struct mmsim *sim, uint32_t file, uint64_t index,
				     uint64_t max_scan)
{
	const struct xarray *xa = &file_ptr(sim, file)->i_pages;

	for (uint64_t n = 0; n < max_scan; n++) {
		uint32_t e = xa_load(sim, xa, index - n);

		if (!e || xa_is_value(e))
			return index - n;
		if (index - n == 0)
			return UINT64_MAX; /* cached from the start of the file */
	}
	return index - max_scan;
}

/* page_cache_sync_ra(): a cache miss in a stream (read(2), VM_SEQ_READ faults) */
void page_cache_sync_ra(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t req_count)
{
	struct file_ra_state *ra = &file_ptr(sim, file)->f_ra;
	uint32_t max_pages = ra->ra_pages;
	uint64_t prev_index, miss, contig_count;

	if (!ra->ra_pages) {
		/* force_page_cache_ra() of just the requested page */
		do_page_cache_ra(sim, file, index, 1, 0);
		return;
	}
	prev_index = ra->prev_pos >> PAGE_SHIFT;
	if (!index || req_count > max_pages || index - prev_index <= 1) {
		ra->start = index;
		ra->size = get_init_ra_size(req_count, max_pages);
		ra->async_size = ra->size > req_count ? ra->size - req_count : ra->size >> 1;
		goto readit;
	}
	miss = page_cache_prev_miss(sim, file, index - 1, max_pages);
	contig_count = index - miss - 1;
	if (miss == UINT64_MAX)
		contig_count = index; /* (index - ULONG_MAX - 1) wraps to index in the kernel */
	if (contig_count <= req_count) {
		/* a small random read: read it as is, keep the readahead state */
		trace_page_cache_sync_ra(sim, 0, file, index, req_count, 0);
		do_page_cache_ra(sim, file, index, req_count, 0);
		return;
	}
	if (miss == UINT64_MAX)
		contig_count *= 2;
	ra->start = index;
	ra->size = (uint32_t)MIN(contig_count + req_count, max_pages);
	ra->async_size = 1;
readit:
	ra->order = 0;
	trace_page_cache_sync_ra(sim, 0, file, ra->start, ra->size, ra->async_size);
	page_cache_ra_order(sim, file);
}

/* the lowest set bit, counted from 1 (ffs()); x != 0 */
static uint32_t ffs32(uint32_t x)
{
	uint32_t n = 1;

	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
}

/* page_cache_async_ra(): a PG_readahead folio was reached: read the next window */
void page_cache_async_ra(struct mmsim *sim, uint32_t file, uint32_t pfn, uint64_t index,
			 uint32_t req_count)
{
	struct file_ra_state *ra = &file_ptr(sim, file)->f_ra;
	struct page *folio = pfn_to_page(sim, pfn);
	uint32_t max_pages = ra->ra_pages;
	uint64_t expected, start, end, aligned_end, align;

	if (!ra->ra_pages)
		return;
	/* the same bit is PG_reclaim while under writeback */
	if (folio_test(folio, writeback))
		return;
	folio_clear(folio, readahead);
	trace_mmsim_readahead_mark(sim, file, index, 0);
	expected =
		(ra->start + ra->size - ra->async_size) &
		~((uint64_t)(1u << folio_order(sim, pfn)) - 1); /* round_down(, folio_nr_pages) */
	if (index == expected) {
		/* the expected marker: sequential, push the window forward */
		ra->start += ra->size;
		ra->size = MAX(ra->size, get_next_ra_size(ra, max_pages));
		goto readit;
	}
	/* a marker without matching state (e.g. interleaved readers) */
	start = page_cache_next_miss(sim, file, index + 1, max_pages);
	if (!start || start - index > max_pages)
		return;
	ra->start = start;
	ra->size = (uint32_t)(start - index);
	ra->size += req_count;
	ra->size = get_next_ra_size(ra, max_pages);
readit:
	/* end the window on a folio-order boundary (4 pages for order-0 folios) */
	ra->order += 2;
	align = 1ull << MIN(ra->order, ffs32(max_pages) - 1);
	end = ra->start + ra->size;
	aligned_end = end & ~(align - 1);
	if (aligned_end > ra->start)
		ra->size -= (uint32_t)(end - aligned_end);
	ra->async_size = ra->size;
	trace_page_cache_async_ra(sim, file, ra->start, ra->size, ra->async_size);
	page_cache_ra_order(sim, file);
}

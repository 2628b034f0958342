/*
 * truncate.c - fadvise(POSIX_FADV_DONTNEED) and invalidate_mapping_pages()
 * (mm/fadvise.c, mm/truncate.c, as in Linux 2.6.39, and 2.6.38 before the
 * seed's series with kernel.fadvise_dontneed: invalidate-only).
 *
 * A backup program reads a file once and writes its copy, and tells the
 * kernel so: fadvise(DONTNEED) behind itself, on both. 2.6.39 does:
 *
 *   1. filemap_flush(): start writeback of every dirty page of the whole
 *      file (not just the range), unless the disk queue is congested;
 *   2. the range: first to last page, start = ceil(offset / 4 KiB),
 *      end = the page of the last byte (len 0: to the end of the file);
 *   3. invalidate_mapping_pages(start, end): each cached page that can go
 *      (unlocked, clean, not under writeback, not mapped, no reference but
 *      the page cache's) leaves the page cache;
 *   4. 2.6.39: a page that could not go is handed to deactivate_page()
 *      (swap.c lru_deactivate_fn): a dirty page or one under writeback to
 *      the inactive head with PG_reclaim, so that its writeback end puts
 *      it at the tail; a clean one straight to the tail. Either way the
 *      backup's pages are reclaimed before the working set.
 *      2.6.38 left such a page where it was - on the active list, if the
 *      backup had touched it twice (a copy written in small pieces does).
 *
 * invalidate_mapping_pages() works through the page cache in batches of up
 * to 14 pages (pagevec_lookup, each page referenced while in the batch),
 * and ends each batch with pagevec_release(), which drains this CPU's
 * pagevecs: so a page still in its lru_add pagevec holds one reference too
 * many when its batch is looked at (remove_mapping() wants exactly the
 * page cache's and the batch's), is "busy", and is deactivated instead of
 * dropped. As in 2.6.38 - 3.0, the batch is not bounded by end: the first
 * page found at or beyond end is processed too, even when it lies past end
 * (3.1 added the "index > end" check).
 *
 * Pages dropped here leave no shadow entry (3.15's remove_mapping() too).
 */
#include "internal.h"
#include "filemap.h"
#include "page_alloc.h"
#include "rmap.h"
#include "swap.h"
#include "vmscan.h"
#include "writeback.h"
#include "xarray.h"

#define PAGEVEC_SIZE MMSIM_PAGEVEC_SIZE

/*
 * pagevec_lookup(): up to 14 cached pages from index on (a 6.10+ folio_batch:
 * 31, under today's rules), each referenced; returns how many
 */
static uint32_t pagevec_lookup(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t *pages)
{
	struct file *f = file_ptr(sim, file);
	uint64_t end = DIV_ROUND_UP(f->i_size, PAGE_SIZE);
	uint32_t n = 0, run = 0, *slot = NULL;
	uint32_t max = fadvise_batch_size(sim);

	/*
	 * the next present folio (empty leaves and subtrees skipped: a walk of
	 * every index up to the end of a large sparse file made fadvise grow
	 * faster than its work), then the rest of its leaf slot by slot
	 */
	while (n < max && index < end && xa_find_present(sim, &f->i_pages, index, &index) &&
	       index < end) {
		for (slot = xa_slot(sim, &f->i_pages, index, &run); run && n < max && index < end;
		     run--, index++, slot++) {
			uint32_t e = *slot;

			if (e && !xa_is_value(e)) {
				uint32_t head = compound_head(sim, xa_to_pfn(e));

				/* a large folio: the model invalidates order-0 folios (filemap_split_folio) */
				if (folio_test_large(pfn_to_page(sim, head)))
					filemap_split_folio(sim, head);
				pages[n++] = xa_to_pfn(e);
				folio_get(sim, xa_to_pfn(e));
			}
		}
	}
	return n;
}

/*
 * invalidate_inode_page() + invalidate_complete_page() + remove_mapping():
 * the verdict for one page of the batch (locked by the caller).
 */
static uint32_t invalidate_inode_page(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio_test(folio, dirty))
		return MMSIM_INVAL_DIRTY;
	if (folio_test(folio, writeback))
		return MMSIM_INVAL_WRITEBACK;
	if (folio_mapcount(sim, pfn))
		return MMSIM_INVAL_MAPPED;
	/* page_freeze_refs(page, 2): the page cache's reference and the batch's, nothing else */
	if (folio->_refcount != 2)
		return MMSIM_INVAL_BUSY;
	filemap_remove_folio(sim, folio->mapping - 1, pfn, 0);
	return MMSIM_INVAL_REMOVED;
}

/* invalidate_mapping_pages(): returns the pages removed */
static uint64_t invalidate_mapping_pages(struct mmsim *sim, uint32_t file, uint64_t start,
					 uint64_t end)
{
	uint32_t pages[PAGEVEC_SIZE], n;
	uint64_t next = start, count = 0;
	bool deactivate = sim->s.hdr.fadvise_dontneed == MMSIM_FADVISE_DEACTIVATE;

	while (next <= end && (n = pagevec_lookup(sim, file, next, pages))) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t pfn = pages[i], ret;
			struct page *folio = pfn_to_page(sim, pfn);
			uint64_t index = folio->index, tag = page_tag(sim, pfn);
			bool queued;

			if (index > next)
				next = index;
			next++;
			if (folio_test(folio, locked)) {
				/* trylock_page() failed (read I/O in flight): skipped, not deactivated */
				trace_mmsim_invalidate_page(sim, tag, pfn, index,
							    MMSIM_INVAL_LOCKED, 0);
				continue;
			}
			ret = invalidate_inode_page(sim, pfn);
			queued = ret != MMSIM_INVAL_REMOVED && deactivate;
			/* the verdict before deactivate_page(), whose pagevec may drain at once */
			trace_mmsim_invalidate_page(sim, tag, pfn, index, ret, queued);
			if (ret == MMSIM_INVAL_REMOVED)
				count++;
			else if (queued)
				deactivate_page(sim, pfn);
			if (next > end)
				break;
		}
		/* pagevec_release(): lru_add_drain(), then the batch's references go */
		lru_add_drain(sim);
		for (uint32_t i = 0; i < n; i++)
			folio_put(sim, pages[i]);
	}
	return count;
}

/*
 * Today's rules (fadvise_dontneed: try-invalidate; 6.10 to 6.18's
 * mm/fadvise.c and mm/truncate.c): mapping_try_invalidate() gets its folios
 * from find_lock_entries(), which skips a folio it cannot lock and one under
 * writeback: such a folio is neither dropped nor deactivated. One that
 * cannot be dropped (dirty, mapped, or held by someone else: mapping_evict_
 * folio()) goes to deactivate_file_folio(), a per-CPU batch of 31 that
 * drains when full, or at this pass's first folio_batch_release() (its
 * lru_add_drain()), or at any later drain: lru_deactivate_file() leaves a
 * folio that is still mapped where it is. Batches of lookups are bounded by
 * end. Returns how many could not be dropped.
 */
static uint64_t mapping_try_invalidate(struct mmsim *sim, uint32_t file, uint64_t start,
				       uint64_t end)
{
	uint32_t pages[MMSIM_FOLIO_BATCH_SIZE], n;
	uint64_t next = start, failed = 0;
	bool drained = false;

	while (next <= end && (n = pagevec_lookup(sim, file, next, pages))) {
		uint32_t kept = 0;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t pfn = pages[i], ret;
			struct page *folio = pfn_to_page(sim, pfn);
			uint64_t index = folio->index, tag = page_tag(sim, pfn);

			if (index > end)
				break;
			kept = i + 1;
			next = index + 1;
			if (folio_test(folio, locked) || folio_test(folio, writeback)) {
				/* find_lock_entries(): not locked, or under writeback: skipped */
				trace_mmsim_invalidate_page(sim, tag, pfn, index,
							    folio_test(folio, locked) ?
								    MMSIM_INVAL_LOCKED :
								    MMSIM_INVAL_WRITEBACK,
							    0);
				continue;
			}
			ret = invalidate_inode_page(sim, pfn);
			trace_mmsim_invalidate_page(sim, tag, pfn, index, ret,
						    ret != MMSIM_INVAL_REMOVED);
			if (ret != MMSIM_INVAL_REMOVED) {
				deactivate_page(sim, pfn);
				failed++;
			}
		}
		/* folio_batch_release(): its first call drains this CPU's batches (percpu_pvec_drained) */
		if (!drained) {
			lru_add_drain(sim);
			drained = true;
		}
		for (uint32_t i = 0; i < n; i++)
			folio_put(sim, pages[i]);
		if (kept < n)
			break;
	}
	return failed;
}

/* generic_fadvise(POSIX_FADV_DONTNEED), 6.10 to 6.18 */
static void fadvise_dontneed_today(struct mmsim *sim, uint32_t file, uint64_t offset,
				   uint64_t endbyte)
{
	uint64_t start = (offset + PAGE_SIZE - 1) >> PAGE_SHIFT, end = endbyte >> PAGE_SHIFT;
	bool flush = !sim->s.wb_congested;

	/* tmpfs has no backing device (noop_backing_dev_info): the advice is ignored */
	if (shmem_file(file_ptr(sim, file))) {
		trace_mmsim_fadvise_dontneed(sim, file, start, MMSIM_NONE, false);
		return;
	}
	/* __filemap_fdatawrite_range(WB_SYNC_NONE) of the advised range only */
	if (flush)
		write_cache_range(sim, file, offset >> PAGE_SHIFT, endbyte >> PAGE_SHIFT,
				  UINT64_MAX, false, MMSIM_WB_FLUSH);
	trace_mmsim_fadvise_dontneed(sim, file, start,
				     end > UINT32_MAX ? MMSIM_NONE : (uint32_t)end, flush);
	if (end < start)
		return;
	/* "It's common to FADV_DONTNEED right after the read or write that instantiates the pages" */
	lru_add_drain(sim);
	/* failures may be folios in another CPU's LRU cache: drain them all and go again */
	if (mapping_try_invalidate(sim, file, start, end)) {
		lru_add_drain(sim); /* lru_add_drain_all(): one CPU here */
		mapping_try_invalidate(sim, file, start, end);
	}
}

/* fadvise64(fd, offset, len, POSIX_FADV_DONTNEED) */
int do_fadvise_dontneed(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len)
{
	uint64_t endbyte = offset + len, start, end;
	bool flush = !sim->s.wb_congested;

	if (!len || endbyte < len)
		endbyte = UINT64_MAX;
	else
		endbyte--; /* inclusive */
	if (sim->s.hdr.fadvise_dontneed == MMSIM_FADVISE_TRY_INVALIDATE) {
		fadvise_dontneed_today(sim, file, offset, endbyte);
		return 0;
	}
	if (flush && !shmem_file(file_ptr(sim, file)))
		write_cache_pages(sim, file, UINT64_MAX, false, MMSIM_WB_FLUSH);
	start = (offset + PAGE_SIZE - 1) >> PAGE_SHIFT;
	end = endbyte >> PAGE_SHIFT;
	trace_mmsim_fadvise_dontneed(sim, file, start,
				     end > UINT32_MAX ? MMSIM_NONE : (uint32_t)end, flush);
	if (end >= start)
		invalidate_mapping_pages(sim, file, start, end);
	return 0;
}

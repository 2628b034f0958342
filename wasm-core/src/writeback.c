/*
 * writeback.c - dirty pages and their way to the disk (mm/page-writeback.c,
 * fs/fs-writeback.c, mm/filemap.c end_page_writeback(), as in Linux 2.6.39).
 *
 * A page-cache page becomes dirty through write(2) (mark_buffer_dirty on a
 * block filesystem) or through a write to a shared mapping
 * (->page_mkwrite, set_page_dirty), and reclaim's try_to_unmap() carries a
 * dirty PTE's bit to the page. nr_dirty counts such pages.
 *
 * Writing one out (write_cache_pages): clear_page_dirty_for_io()
 * write-protects the page's shared PTEs (page_mkclean) and clears PG_dirty,
 * then set_page_writeback() sets PG_writeback (nr_writeback, nr_written)
 * and the I/O is submitted. Contiguous pages of one file go in one request
 * of up to 128 pages (512 KiB, a disk's usual max_sectors_kb). A request
 * completes machine.writeback_latency operations later; end_page_writeback()
 * then runs on each page: if it carries PG_reclaim (set by reclaim's
 * pageout(), or by fadvise's deactivation), rotate_reclaimable_page() moves
 * it to the inactive tail, first in line for reclaim (rule FD-WB); then
 * PG_writeback goes.
 *
 *     dirty --flush--> writeback ------latency------> clean
 *                      (PG_reclaim?)                  (to the inactive tail if it was)
 *
 * Who writes:
 *  - fadvise(DONTNEED): filemap_flush() of the whole file, unless the disk
 *    queue is congested (bdi_write_congested: more than 7/8 of its 128
 *    requests in flight, clear again below 103);
 *  - the flusher (bdi_writeback_thread), woken when dirty pages exceed
 *    dirty_background_ratio of the dirtyable memory (free + file LRU):
 *    it writes the oldest dirtied file first, range-cyclic, in chunks of
 *    1024 pages (MAX_WRITEBACK_PAGES) until they no longer do;
 *  - a task dirtying pages (balance_dirty_pages, every ratelimit_pages
 *    pages): above dirty_ratio it writes back a chunk itself (2.6.39 is
 *    not yet IO-less), and above the background threshold it wakes the
 *    flusher;
 *  - reclaim: pageout() of a dirty page it meets on the inactive list, and
 *    direct reclaim wakes the flusher for as many pages as it scanned;
 *  - fsync: writes every dirty page of the file and waits for all of it.
 *
 * Not modelled: time. The kernel's flusher also writes, every 5 s, data
 * dirtied more than 30 s ago (kupdate); the model has no seconds, so only
 * the thresholds, fadvise, reclaim and fsync write. A task that waits
 * (fsync, a write into a page under writeback, balance_dirty_pages' pause,
 * reclaim with nothing left but pages under writeback) completes the
 * requests it waits for at once (writeback_waits counts it).
 */
#include "internal.h"
#include "filemap.h"
#include "rmap.h"
#include "swap.h"
#include "writeback.h"
#include "xarray.h"

#define MAX_WRITEBACK_PAGES 1024u
#define WB_REQ_MAX_PAGES 128u
#define NR_REQUESTS 128u
#define CONGESTION_ON (NR_REQUESTS - NR_REQUESTS / 8 + 1) /* 113 */
#define CONGESTION_OFF (NR_REQUESTS - NR_REQUESTS / 8 - NR_REQUESTS / 16 - 1) /* 103 */

void writeback_init(struct mmsim *sim)
{
	/* ratelimit_pages = vm_total_pages / (cpus * 32), clamped to 16 .. 4 MiB of pages */
	uint32_t r = sim->s.nr_frames / 32;

	sim->s.ratelimit_pages = MAX(16u, MIN(r, (uint32_t)((4u << 20) / PAGE_SIZE)));
}

/* ------------------------------------------------------------- dirty accounting */

static void file_dirtied(struct mmsim *sim, uint32_t file)
{
	struct file *f = file_ptr(sim, file);

	if (!f->nrdirty++)
		f->dirtied_when =
			sim->s.clock; /* __mark_inode_dirty(I_DIRTY_PAGES): clean -> dirty */
}

/* account_page_dirtied(): PG_dirty, nr_dirty, nr_dirtied */
static void account_page_dirtied(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	folio_set(folio, dirty);
	mod_node_page_state(sim, MMSIM_NR_DIRTY, 1);
	count_vm_event(sim, MMSIM_NR_DIRTIED);
	file_dirtied(sim, folio->mapping - 1);
	xa_set_tag(sim, &file_ptr(sim, folio->mapping - 1)->i_pages, folio->index);
}

/* a dirty page-cache page became clean (written, or dropped): nr_dirty and the file's count */
void account_page_cleaned(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	folio_clear(folio, dirty);
	mod_node_page_state(sim, MMSIM_NR_DIRTY, -1);
	file_ptr(sim, folio->mapping - 1)->nrdirty--;
	xa_clear_tag(sim, &file_ptr(sim, folio->mapping - 1)->i_pages, folio->index);
}

/*
 * set_page_dirty() (2.6.39): PG_reclaim cleared first (the 2.6.39 series
 * moved that here from clear_page_dirty_for_io(), which 2.6.38 did, see
 * there), then the accounting on the clean -> dirty transition. Anonymous
 * pages and tmpfs (noop dirty accounting) only get PG_dirty.
 */
void folio_mark_dirty(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio_test_anon(folio) || folio_test(folio, swapbacked)) {
		folio_set(folio, dirty);
		return;
	}
	if (sim->s.hdr.fadvise_dontneed == MMSIM_FADVISE_DEACTIVATE)
		folio_clear(folio, reclaim);
	if (!folio_test(folio, dirty))
		account_page_dirtied(sim, pfn);
}

/* mark_buffer_dirty() -> __set_page_dirty() (write(2) on a disk file): the accounting, PG_reclaim left alone */
void folio_mark_dirty_buffers(struct mmsim *sim, uint32_t pfn)
{
	if (!folio_test(pfn_to_page(sim, pfn), dirty))
		account_page_dirtied(sim, pfn);
}

/*
 * clear_page_dirty_for_io(): write-protect the shared PTEs (a later write
 * faults and dirties the page again) and clear PG_dirty; false if the page
 * was not dirty. 2.6.38 cleared PG_reclaim here.
 */
bool clear_page_dirty_for_io(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (sim->s.hdr.fadvise_dontneed == MMSIM_FADVISE_INVALIDATE_ONLY)
		folio_clear(folio, reclaim);
	if (page_mkclean(sim, pfn))
		folio_mark_dirty(sim, pfn);
	if (!folio_test(folio, dirty))
		return false;
	account_page_cleaned(sim, pfn);
	return true;
}

/* ------------------------------------------------------------- the request queue */

static void update_congestion(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;

	if (s->wb_count >= CONGESTION_ON)
		s->wb_congested = 1;
	else if (s->wb_count < CONGESTION_OFF)
		s->wb_congested = 0;
}

/* end_page_writeback() on each page of the request, then the request is gone */
static void wb_complete(struct mmsim *sim, uint32_t slot)
{
	struct mmsim_state *s = &sim->s;
	struct wb_req r = s->wb[slot];
	struct file *f = file_ptr(sim, r.file);

	memmove(&s->wb[slot], &s->wb[slot + 1], (s->wb_count - slot - 1) * sizeof(s->wb[0]));
	s->wb_count--;
	for (uint32_t i = 0; i < r.nr; i++) {
		uint32_t pfn = filemap_get_folio(sim, r.file, r.first + i);
		struct page *folio;

		VM_BUG_ON(!pfn);
		folio = pfn_to_page(sim, pfn);
		/* TestClearPageReclaim() -> rotate_reclaimable_page(), before PG_writeback goes */
		if (folio_test(folio, reclaim)) {
			folio_clear(folio, reclaim);
			rotate_reclaimable_page(sim, pfn);
		}
		folio_clear(folio, writeback);
		f->nrwriteback--;
	}
	mod_node_page_state(sim, MMSIM_NR_WRITEBACK, -(int64_t)r.nr);
	update_congestion(sim);
	trace_mmsim_writeback_done(sim, r.file, r.first, r.nr, r.id);
}

/*
 * One request: pages [first, first + nr) of file, already cleaned by
 * clear_page_dirty_for_io(); set_page_writeback() on each and submit. A
 * full queue completes its oldest request first.
 */
void writeback_submit(struct mmsim *sim, uint32_t file, uint64_t first, uint32_t nr,
		      uint32_t reason)
{
	struct mmsim_state *s = &sim->s;
	uint32_t id = ++s->wb_next_id;

	for (uint32_t i = 0; i < nr; i++)
		folio_set(pfn_to_page(sim, filemap_get_folio(sim, file, first + i)), writeback);
	file_ptr(sim, file)->nrwriteback += nr;
	mod_node_page_state(sim, MMSIM_NR_WRITEBACK, nr);
	count_vm_events(sim, MMSIM_NR_WRITTEN, nr);
	count_vm_events(sim, MMSIM_PGPGOUT, (uint64_t)nr * (PAGE_SIZE / 1024));
	if (s->wb_count == MMSIM_WB_QUEUE)
		wb_complete(sim, 0);
	s->wb[s->wb_count++] = (struct wb_req){
		.submitted = s->clock,
		.complete_at = s->clock + s->hdr.writeback_latency,
		.file = file,
		.first = (uint32_t)first,
		.nr = nr,
		.id = id,
		.reason = reason,
	};
	update_congestion(sim);
	trace_mmsim_writeback_submit(sim, reason, file, first, nr, id);
}

/* at each tick: the requests whose time has come (the queue is in submission order) */
void writeback_advance(struct mmsim *sim)
{
	while (sim->s.wb_count && sim->s.wb[0].complete_at <= sim->s.clock)
		wb_complete(sim, 0);
}

/* wait_on_page_writeback(): the task sleeps until the request holding the page completes */
void writeback_wait_page(struct mmsim *sim, uint32_t pfn)
{
	const struct page *folio = pfn_to_page(sim, pfn);
	uint32_t file = folio->mapping - 1;

	for (uint32_t i = 0; i < sim->s.wb_count; i++) {
		const struct wb_req *r = &sim->s.wb[i];

		if (r->file == file && folio->index >= r->first &&
		    folio->index < r->first + r->nr) {
			count_vm_event(sim, MMSIM_MODEL_WB_WAITS);
			/* the requests before it complete first (the queue is FIFO) */
			while (i-- > 0)
				wb_complete(sim, 0);
			wb_complete(sim, 0);
			return;
		}
	}
}

/* congestion_wait() with nothing else to do: the oldest request completes; false if none is in flight */
bool writeback_wait_oldest(struct mmsim *sim)
{
	if (!sim->s.wb_count)
		return false;
	count_vm_event(sim, MMSIM_MODEL_WB_WAITS);
	wb_complete(sim, 0);
	return true;
}

/* ------------------------------------------------------------- write_cache_pages */

/*
 * write_cache_pages() (WB_SYNC_NONE): the file's dirty pages (found by the
 * dirty tag, as the kernel walks PAGECACHE_TAG_DIRTY) not already under
 * writeback, in index order from writeback_index when cyclic (and around
 * once), at most nr_to_write of them; contiguous ones share a request.
 * Returns the pages written.
 */
uint64_t write_cache_pages(struct mmsim *sim, uint32_t file, uint64_t nr_to_write, bool cyclic,
			   uint32_t reason)
{
	return write_cache_range(sim, file, 0, UINT64_MAX, nr_to_write, cyclic, reason);
}

/*
 * The same over pages first..last only (__filemap_fdatawrite_range(), as
 * 6.x generic_fadvise() starts writeback of the advised range); not cyclic
 * then.
 */
uint64_t write_cache_range(struct mmsim *sim, uint32_t file, uint64_t first, uint64_t last,
			   uint64_t nr_to_write, bool cyclic, uint32_t reason)
{
	struct file *f = file_ptr(sim, file);
	uint64_t end = DIV_ROUND_UP(f->i_size, PAGE_SIZE), written = 0;
	uint64_t start = cyclic && f->writeback_index < end ? f->writeback_index : first;
	uint64_t index = start, done_index = start, run_first = 0;
	uint32_t run = 0;
	bool wrapped = false;

	while (written < nr_to_write) {
		uint64_t next;
		uint32_t pfn;
		struct page *folio;

		if (!xa_find_tagged(sim, &f->i_pages, index, &next) || next >= end || next > last ||
		    (wrapped && next >= start)) {
			if (wrapped || !start)
				break;
			/* range_cyclic: around once, from the start of the file up to where it began */
			wrapped = true;
			index = 0;
			if (run)
				writeback_submit(sim, file, run_first, run, reason);
			run = 0;
			continue;
		}
		if (run && next != run_first + run) {
			writeback_submit(sim, file, run_first, run, reason);
			run = 0;
		}
		index = next + 1;
		pfn = filemap_get_folio(sim, file, next);
		folio = pfn_to_page(sim, pfn);
		/* under writeback or locked already: WB_SYNC_NONE skips it (it stays tagged, and dirty) */
		if (folio_test(folio, writeback) || folio_test(folio, locked) ||
		    !clear_page_dirty_for_io(sim, pfn)) {
			if (run)
				writeback_submit(sim, file, run_first, run, reason);
			run = 0;
			continue;
		}
		if (!run)
			run_first = next;
		run++;
		written++;
		done_index = next + 1;
		if (run == WB_REQ_MAX_PAGES) {
			writeback_submit(sim, file, run_first, run, reason);
			run = 0;
		}
	}
	if (run)
		writeback_submit(sim, file, run_first, run, reason);
	if (cyclic)
		f->writeback_index = (uint32_t)(done_index >= end ? 0 : done_index);
	return written;
}

/*
 * writeback_inodes_wb(): nr_pages from the files with dirty pages, the one
 * dirtied longest ago first (b_dirty's oldest inode), range-cyclic.
 */
uint64_t writeback_inodes(struct mmsim *sim, uint64_t nr_pages, uint32_t reason)
{
	uint64_t written = 0;

	while (written < nr_pages) {
		uint32_t oldest = MMSIM_NONE;
		uint64_t w;

		for (uint32_t i = 0; i < sim->s.hdr.nr_files; i++) {
			const struct file *f = file_ptr(sim, i);

			if (f->nrdirty && !shmem_file(f) &&
			    (oldest == MMSIM_NONE ||
			     f->dirtied_when < file_ptr(sim, oldest)->dirtied_when))
				oldest = i;
		}
		if (oldest == MMSIM_NONE)
			break;
		w = write_cache_pages(sim, oldest, nr_pages - written, true, reason);
		if (!w)
			break; /* its dirty pages are all locked or under writeback: come back later */
		written += w;
	}
	return written;
}

/* ------------------------------------------------------------- thresholds */

/*
 * global_dirty_limits(): dirtyable memory is free pages plus the file LRU
 * (anon too only with swap: none here); background and dirty thresholds
 * are their ratios of it, background at most half of dirty.
 */
void global_dirty_limits(const struct mmsim *sim, uint64_t *bg, uint64_t *dirty)
{
	const uint64_t *c = sim->s.counters;
	uint64_t avail =
		c[MMSIM_NR_FREE_PAGES] + c[MMSIM_NR_ACTIVE_FILE] + c[MMSIM_NR_INACTIVE_FILE] + 1;

	*dirty = sim->s.hdr.dirty_ratio * avail / 100;
	*bg = sim->s.hdr.dirty_background_ratio * avail / 100;
	if (*bg >= *dirty)
		*bg = *dirty / 2;
}

static bool over_bground_thresh(const struct mmsim *sim)
{
	uint64_t bg, dirty;

	global_dirty_limits(sim, &bg, &dirty);
	return sim->s.counters[MMSIM_NR_DIRTY] > bg;
}

/* the flusher, woken: write back until the dirty pages are under the background threshold */
void flusher_run(struct mmsim *sim)
{
	sim->s.flusher_woken = 0;
	while (over_bground_thresh(sim))
		if (!writeback_inodes(sim, MAX_WRITEBACK_PAGES, MMSIM_WB_BACKGROUND))
			break;
}

/*
 * balance_dirty_pages_ratelimited(): every ratelimit_pages pages dirtied,
 * balance_dirty_pages(): under (background + dirty) / 2 nothing happens;
 * over dirty_ratio the task writes back 1.5 x ratelimit_pages itself;
 * over the background threshold it wakes the flusher.
 */
void balance_dirty_pages_ratelimited(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint64_t bg, dirty, nr_dirty, nr_wb, written = 0;

	if (++s->dirty_ratelimit < s->ratelimit_pages)
		return;
	s->dirty_ratelimit = 0;
	global_dirty_limits(sim, &bg, &dirty);
	nr_dirty = s->counters[MMSIM_NR_DIRTY];
	nr_wb = s->counters[MMSIM_NR_WRITEBACK];
	if (nr_dirty + nr_wb <= (bg + dirty) / 2)
		return;
	if (nr_dirty + nr_wb > dirty)
		written = writeback_inodes(sim, (uint64_t)s->ratelimit_pages * 3 / 2,
					   MMSIM_WB_BALANCE);
	trace_mmsim_balance_dirty_pages(sim, nr_dirty, bg, dirty, written);
	if (s->counters[MMSIM_NR_DIRTY] > bg)
		s->flusher_woken = 1;
}

/* ------------------------------------------------------------- fsync */

/* wait until none of the file's pages is under writeback (the queue is FIFO: the requests before them end first) */
static bool wait_file_writeback(struct mmsim *sim, uint32_t file)
{
	bool waited = false;

	while (file_ptr(sim, file)->nrwriteback) {
		wb_complete(sim, 0);
		waited = true;
	}
	return waited;
}

/*
 * vfs_fsync() -> filemap_write_and_wait_range() (WB_SYNC_ALL): pages
 * already under writeback are waited for (they may be dirty again), every
 * dirty page is written, and the task waits for all of it.
 */
int do_fsync(struct mmsim *sim, uint32_t file)
{
	bool waited;

	if (shmem_file(file_ptr(sim, file)))
		return 0;
	waited = wait_file_writeback(sim, file);
	write_cache_pages(sim, file, UINT64_MAX, false, MMSIM_WB_FSYNC);
	waited |= wait_file_writeback(sim, file);
	if (waited)
		count_vm_event(sim, MMSIM_MODEL_WB_WAITS);
	return 0;
}

/* ------------------------------------------------------------- queries (the view's) */

uint32_t mmsim_writeback_queue(const struct mmsim *sim, struct mmsim_wb_request *out, uint32_t max)
{
	uint32_t n = MIN(max, sim->s.wb_count);

	for (uint32_t i = 0; i < n; i++) {
		const struct wb_req *r = &sim->s.wb[i];

		out[i] = (struct mmsim_wb_request){
			.submitted = r->submitted,
			.complete_at = r->complete_at,
			.file = r->file,
			.first = r->first,
			.nr = r->nr,
			.id = r->id,
			.reason = r->reason,
		};
	}
	return n;
}

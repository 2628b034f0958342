/*
 * filemap.c - the page cache, ->map_pages (fault-around) and ->fault.
 *
 * Fault-around (docs/kernel.md, "Fault-around"). A read fault on a file page whose
 * PTE is none first calls do_fault_around() (memory.c), which computes a
 * window of fault_around_pages around the faulting address, naturally
 * aligned in the *virtual* address and clamped to the VMA and to the page
 * table, and hands it to filemap_map_pages():
 *
 *     fault at pgoff 21, W = 16, VMA aligned:   [16 ................. 31]
 *                                                ^ start_pgoff        ^ end_pgoff
 *     each page:  in cache? uptodate? not locked? not PG_readahead?
 *                 inside i_size? PTE still none?  -> map it (read-only, young)
 *
 * map_pages never starts I/O and never sleeps: a page that is missing,
 * locked, not uptodate or carries PG_readahead is skipped, and an event
 * says why. If the faulting page itself was mapped the fault is done
 * (VM_FAULT_NOPAGE); otherwise ->fault (filemap_fault) finds or reads the
 * page and finish_fault() maps that one page.
 *
 * The model follows v6.19 (mm/filemap.c next_uptodate_folio,
 * filemap_map_order0_folio, filemap_map_pages, filemap_fault) with order-0
 * page-cache folios. Differences, on purpose:
 *  - there are no other CPUs, so "trylock failed" never happens on its own;
 *    a page is locked only while its read I/O is in flight;
 *  - I/O has no duration of its own: a read completes io_latency touches
 *    after submission (0: at once), or as soon as a task waits for one of its
 *    pages (the task sleeps until it is done);
 *  - the faulting task's retry after dropping mmap_lock (VM_FAULT_RETRY) is
 *    modelled, since it decides what the retry maps (see do_user_addr_fault).
 */
#include "internal.h"
#include "filemap.h"
#include "memory.h"
#include "page_alloc.h"
#include "swap.h"
#include "vmscan.h"
#include "writeback.h"
#include "xarray.h"

/* ------------------------------------------------------------- page cache */

uint32_t filemap_get_folio(const struct mmsim *sim, uint32_t file, uint64_t index)
{
	uint32_t e = xa_load_cached(sim, &file_ptr(sim, file)->i_pages, index);

	if (!e || xa_is_value(e))
		return 0;
	return xa_to_pfn(e);
}

/*
 * filemap_add_folio() / add_to_page_cache_lru(): a new order-0 folio at
 * index, locked and not uptodate (the caller starts the read), bound for
 * the inactive file list through the lru_add pagevec; for tmpfs
 * swap-backed (shmem_alloc_and_add_folio), for the inactive anon list.
 * Where reclaim left a shadow, the page is a refault (workingset.c): with
 * kernel.workingset it goes to the active list instead.
 */
int filemap_add_folio(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t *pfn)
{
	struct file *f = file_ptr(sim, file);
	struct page *folio;
	uint32_t old;
	int err = alloc_page(sim, pfn, MMSIM_USE_PAGECACHE);

	if (err)
		return err;
	folio = pfn_to_page(sim, *pfn);
	folio->flags |= PF(locked);
	folio->mapping = file + 1;
	folio->index = (uint32_t)index;
	/* the slot, after the allocation (which may have reclaimed, and left a shadow there) */
	old = xa_load(sim, &f->i_pages, index);
	err = xa_store(sim, &f->i_pages, index, xa_mk_folio(*pfn));
	if (err) {
		folio->_refcount = 0;
		free_pages(sim, *pfn, 0);
		return err;
	}
	f->nrpages++;
	mod_node_page_state(sim, MMSIM_NR_FILE_PAGES, 1);
	if (shmem_file(f)) {
		folio->flags |= PF(swapbacked);
		mod_node_page_state(sim, MMSIM_NR_SHMEM, 1);
	}
	trace_mm_filemap_add_to_page_cache(sim, file, index, *pfn, folio->flags);
	if (xa_is_value(old) && workingset_refault(sim, file, index, old >> 1)) {
		folio_set(folio, active);
		workingset_activation(sim);
	}
	folio_add_lru(sim, *pfn);
	return 0;
}

/*
 * __delete_from_page_cache(): out of the page cache, the slot emptied or
 * given a shadow (shadow != 0, an xa value entry: reclaim's eviction);
 * drops the cache's reference.
 */
void filemap_remove_folio(struct mmsim *sim, uint32_t file, uint32_t pfn, uint32_t shadow)
{
	struct file *f = file_ptr(sim, file);
	struct page *folio = pfn_to_page(sim, pfn);

	/* the dirty accounting (and tag) first, while the slot is there */
	if (folio_test(folio, swapbacked))
		mod_node_page_state(sim, MMSIM_NR_SHMEM, -1);
	else if (folio_test(folio, dirty))
		account_page_cleaned(sim, pfn);
	if (shadow)
		xa_store(sim, &f->i_pages, folio->index,
			 shadow); /* replaces the folio: no node to allocate */
	else
		xa_erase(sim, &f->i_pages, folio->index);
	f->nrpages--;
	mod_node_page_state(sim, MMSIM_NR_FILE_PAGES, -1);
	folio->mapping = 0;
	trace_mm_filemap_delete_from_page_cache(sim, file, folio->index, pfn, shadow != 0);
	folio_put(sim, pfn);
}

/*
 * cached: all - n pages from pgoff `from`, clean and uptodate, on the
 * inactive file LRU, before step 1. Written out rather than through
 * filemap_add_folio() because the 16 GiB scenarios put 4 M pages here.
 * A tmpfs file's pages are what write(2) leaves: uptodate, dirty (not
 * accounted: noop_dirty_folio) and swap-backed, on the inactive anon LRU.
 */
int file_preload(struct mmsim *sim, uint32_t file, uint64_t from, uint32_t n)
{
	struct file *f = file_ptr(sim, file);
	bool shmem = shmem_file(f);
	uint32_t flags = shmem ? PF(uptodate) | PF(swapbacked) | PF(dirty) : PF(uptodate);
	int err;

	for (uint64_t index = from; index < from + n; index++) {
		uint32_t pfn;
		struct page *folio;

		err = alloc_pages_nowmark(sim, 0, &pfn, MMSIM_USE_PAGECACHE);
		if (err)
			return err;
		folio = pfn_to_page(sim, pfn);
		folio->flags |= flags;
		folio->mapping = file + 1;
		folio->index = (uint32_t)index;
		err = xa_store(sim, &f->i_pages, index, xa_mk_folio(pfn));
		if (err)
			return err;
		f->nrpages++;
		lruvec_add_folio(sim, pfn,
				 shmem ? MMSIM_LRU_INACTIVE_ANON : MMSIM_LRU_INACTIVE_FILE);
	}
	mod_node_page_state(sim, MMSIM_NR_FILE_PAGES, n);
	if (shmem)
		mod_node_page_state(sim, MMSIM_NR_SHMEM, n);
	return 0;
}

/* ------------------------------------------------------------- read I/O */

static void io_complete(struct mmsim *sim, uint32_t slot)
{
	struct io_req r = sim->s.io[slot];

	for (uint32_t i = 0; i < r.nr; i++) {
		uint32_t pfn = filemap_get_folio(sim, r.file, r.start + i);
		struct page *folio;

		if (!pfn)
			continue;
		folio = pfn_to_page(sim, pfn);
		if (folio_test(folio, locked) && !folio_test(folio, uptodate)) {
			folio_set(folio, uptodate);
			folio_clear(folio, locked);
		}
	}
	memmove(&sim->s.io[slot], &sim->s.io[slot + 1],
		(sim->s.io_count - slot - 1) * sizeof(sim->s.io[0]));
	sim->s.io_count--;
	trace_mmsim_read_done(sim, r.file, r.start, r.nr, r.id);
}

/* read_pages(): submit one read of [start, start + nr) (locked, !uptodate) */
void io_submit_read(struct mmsim *sim, uint32_t file, uint64_t start, uint32_t nr)
{
	uint32_t id = ++sim->s.io_next_id;

	count_vm_events(sim, MMSIM_PGPGIN, (uint64_t)nr * (PAGE_SIZE / 1024));
	trace_mmsim_read_submit(sim, file, start, nr, id);
	if (sim->s.io_count == MMSIM_IO_QUEUE)
		io_complete(sim, 0);
	sim->s.io[sim->s.io_count++] = (struct io_req){
		.file = file,
		.start = (uint32_t)start,
		.nr = nr,
		.id = id,
		.complete_at = sim->s.clock + sim->s.hdr.io_latency,
	};
	if (!sim->s.hdr.io_latency)
		io_complete(sim, sim->s.io_count - 1);
}

/* called once per touch: complete the reads whose time has come */
void io_advance(struct mmsim *sim)
{
	uint32_t i = 0;

	while (i < sim->s.io_count) {
		if (sim->s.io[i].complete_at <= sim->s.clock)
			io_complete(sim, i);
		else
			i++;
	}
}

/* folio_lock() on a folio under read I/O: sleep until the read is done */
void io_wait_folio(struct mmsim *sim, uint32_t file, uint32_t pfn)
{
	uint32_t index = pfn_to_page(sim, pfn)->index;

	for (uint32_t i = 0; i < sim->s.io_count; i++) {
		struct io_req *r = &sim->s.io[i];

		if (r->file == file && index >= r->start && index < r->start + r->nr) {
			trace_mmsim_folio_wait(sim, file, index, r->id);
			io_complete(sim, i);
			return;
		}
	}
}

/* ------------------------------------------------------------- map_pages */

static void map_skip(struct mmsim *sim, uint64_t addr, uint64_t pgoff, uint32_t reason,
		     uint32_t pfn)
{
	count_vm_event(sim, MMSIM_MODEL_FAULT_AROUND_SKIPPED);
	trace_mm_filemap_map_skip(sim, addr, pgoff, reason, pfn);
}

/*
 * filemap_map_pages(vmf, start_pgoff, end_pgoff) - v6.19 mm/filemap.c.
 * Returns VM_FAULT_NOPAGE if the faulting address got mapped, else 0, or
 * VM_FAULT_OOM if a page table could not be allocated.
 */
uint32_t filemap_map_pages(struct mmsim *sim, struct vm_fault *vmf, uint64_t start_pgoff,
			   uint64_t end_pgoff)
{
	struct vm_area_struct *vma = vmf->vma;
	uint32_t file = vma->vm_file - 1;
	struct file *f = file_ptr(sim, file);
	uint64_t addr = vma->vm_start + ((start_pgoff - vma->vm_pgoff) << PAGE_SHIFT);
	uint64_t max_idx = DIV_ROUND_UP(f->i_size, PAGE_SIZE);
	uint64_t *ptes = NULL;
	uint32_t ret = 0, hits = 0, rss = 0, run = 0;
	uint32_t *slot = NULL;

	/*
	 * end_pgoff = min(end_pgoff, file_end): pages wholly beyond EOF are never
	 * visited (6.18+ clamps before mapping anything; the page cache holds no
	 * folio there anyway). A window that starts beyond EOF is empty, and the
	 * fault goes on to ->fault, which answers SIGBUS.
	 */
	if (end_pgoff >= max_idx)
		end_pgoff = start_pgoff > max_idx ? start_pgoff - 1 : max_idx - 1;
	count_vm_event(sim, MMSIM_MODEL_FAULT_AROUND_CALLS);
	trace_mm_filemap_map_pages(sim, addr, file, start_pgoff, end_pgoff, vmf->pgoff);

	for (uint64_t index = start_pgoff; index <= end_pgoff && index < max_idx;
	     index++, addr += PAGE_SIZE) {
		uint32_t e, pfn;
		struct page *folio;
		uint64_t *pte;

		if (!run)
			slot = xa_slot(sim, &f->i_pages, index, &run);
		e = slot ? *slot++ : 0;
		run--;

		/* next_uptodate_folio(): folio-level checks, in the kernel's order */
		if (!e) {
			map_skip(sim, addr, index, MMSIM_SKIP_HOLE, 0);
			continue;
		}
		if (xa_is_value(e)) {
			map_skip(sim, addr, index, MMSIM_SKIP_SHADOW, 0);
			continue;
		}
		pfn = xa_to_pfn(e);
		folio = pfn_to_page(sim, pfn);
		if (folio_test(folio, locked)) {
			map_skip(sim, addr, index, MMSIM_SKIP_LOCKED, pfn);
			continue;
		}
		if (!folio_test(folio, uptodate)) {
			map_skip(sim, addr, index, MMSIM_SKIP_NOT_UPTODATE, pfn);
			continue;
		}
		if (folio_test(folio, readahead)) {
			map_skip(sim, addr, index, MMSIM_SKIP_READAHEAD, pfn);
			continue;
		}
		/* filemap_map_order0_folio() */
		if (folio_test(folio, hwpoison)) {
			map_skip(sim, addr, index, MMSIM_SKIP_HWPOISON, pfn);
			continue;
		}
		if (!folio_test(folio, workingset))
			hits++;
		if (!ptes) {
			/*
			 * filemap_map_pmd(): install the page table on the first usable
			 * folio. Allocating it may reclaim: the folio is held (as
			 * next_uptodate_folio's folio_try_get holds it) and the slots
			 * are looked up again after.
			 */
			uint32_t tid;

			folio_get(sim, pfn);
			tid = pte_alloc(sim, vmf);
			folio_put(sim, pfn);
			run = 0;
			if (!tid) {
				ret = MMSIM_VM_FAULT_OOM;
				break;
			}
			ptes = pgt_table(sim, tid);
		}
		pte = &ptes[(addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
		if (!pte_none(*pte)) {
			map_skip(sim, addr, index, MMSIM_SKIP_PTE_PRESENT, pfn);
			continue;
		}
		if (addr == vmf->address) {
			ret = MMSIM_VM_FAULT_NOPAGE;
			set_pte_range(sim, vmf, pfn, addr, pte, MMSIM_SET_AROUND_SELF);
		} else {
			count_vm_event(sim, MMSIM_MODEL_FAULT_AROUND_MAPPED);
			set_pte_range(sim, vmf, pfn, addr, pte, MMSIM_SET_AROUND);
		}
		folio->_refcount++;
		rss++;
	}
	mm_ptr(sim, vmf->mm)->rss[shmem_file(f) ? MMSIM_MM_SHMEMPAGES : MMSIM_MM_FILEPAGES] += rss;
	/* mmap_miss: every usable page counts as a hit */
	f->f_ra.mmap_miss = hits >= f->f_ra.mmap_miss ? 0 : f->f_ra.mmap_miss - hits;
	return ret;
}

/* ------------------------------------------------------------- ->fault */

/*
 * maybe_unlock_mmap_for_io(): only the first attempt may drop mmap_lock (and
 * then must retry); a retried fault (FAULT_FLAG_TRIED) keeps it and waits.
 */
static bool may_drop_mmap_lock(const struct vm_fault *vmf)
{
	return (vmf->flags & MMSIM_FAULT_FLAG_ALLOW_RETRY) &&
	       !(vmf->flags & MMSIM_FAULT_FLAG_TRIED);
}

/* do_async_mmap_readahead(): returns true if mmap_lock was dropped */
static bool do_async_mmap_readahead(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn)
{
	uint32_t file = vmf->vma->vm_file - 1;
	struct file_ra_state *ra = &file_ptr(sim, file)->f_ra;
	bool fpin = false;

	if ((vmf->vma->vm_flags & MMSIM_VM_RAND_READ) || !ra->ra_pages)
		return false;
	/*
	 * v6.18+: a locked folio (read I/O in flight) means another fault is
	 * likely racing for it; leave mmap_miss alone so that one folio is not
	 * counted as a hit several times against one miss in do_sync_mmap_readahead.
	 */
	if (ra->mmap_miss && !folio_test(pfn_to_page(sim, pfn), locked))
		ra->mmap_miss--;
	if (folio_test(pfn_to_page(sim, pfn), readahead)) {
		fpin = may_drop_mmap_lock(vmf);
		page_cache_async_ra(sim, file, pfn, vmf->pgoff, ra->ra_pages);
	}
	return fpin;
}

/* do_sync_mmap_readahead(): returns true if mmap_lock was dropped */
static bool do_sync_mmap_readahead(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t file = vmf->vma->vm_file - 1;
	struct file_ra_state *ra = &file_ptr(sim, file)->f_ra;
	uint32_t vm_flags = vmf->vma->vm_flags;
	bool fpin;

	if ((vm_flags & (MMSIM_VM_RAND_READ | MMSIM_VM_EXEC)) == MMSIM_VM_RAND_READ)
		return false;
	if (!ra->ra_pages)
		return false;
	if (vm_flags & MMSIM_VM_SEQ_READ) {
		fpin = may_drop_mmap_lock(vmf);
		page_cache_sync_ra(sim, file, vmf->pgoff, ra->ra_pages);
		return fpin;
	}
	if (ra->mmap_miss < MMAP_LOTSAMISS * 10)
		ra->mmap_miss++;
	/* missing much more than hitting: stop bothering with read-around */
	if (ra->mmap_miss > MMAP_LOTSAMISS)
		return false;
	/* mmap read-around */
	fpin = may_drop_mmap_lock(vmf);
	ra->start = vmf->pgoff > ra->ra_pages / 2 ? vmf->pgoff - ra->ra_pages / 2 : 0;
	ra->size = ra->ra_pages;
	ra->async_size = ra->ra_pages / 4;
	ra->order = 0;
	trace_page_cache_sync_ra(sim, vmf->address, file, ra->start, ra->size, ra->async_size);
	page_cache_ra_order(sim, file);
	return fpin;
}

/*
 * filemap_fault() - v6.19 mm/filemap.c, for order-0 folios. Returns
 * VM_FAULT_LOCKED with vmf->page set, or VM_FAULT_RETRY (mmap_lock was
 * dropped for I/O: the arch code retries with FAULT_FLAG_TRIED), possibly
 * with VM_FAULT_MAJOR, or VM_FAULT_SIGBUS / VM_FAULT_OOM.
 */
uint32_t filemap_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t file = vmf->vma->vm_file - 1;
	struct file *f = file_ptr(sim, file);
	uint64_t index = vmf->pgoff;
	uint32_t ret = 0, pfn;
	bool fpin = false;
	struct page *folio;

	if (index >= DIV_ROUND_UP(f->i_size, PAGE_SIZE))
		return MMSIM_VM_FAULT_SIGBUS;
	pfn = filemap_get_folio(sim, file, index);
	if (pfn) {
		trace_mm_filemap_fault(sim, vmf->address, file, index, 1);
		if (!(vmf->flags & MMSIM_FAULT_FLAG_TRIED))
			fpin = do_async_mmap_readahead(sim, vmf, pfn);
	} else {
		/* no page in the page cache at all: counted before the event that says so */
		count_vm_event(sim, MMSIM_PGMAJFAULT);
		trace_mm_filemap_fault(sim, vmf->address, file, index, 0);
		ret = MMSIM_VM_FAULT_MAJOR;
		fpin = do_sync_mmap_readahead(sim, vmf);
		pfn = filemap_get_folio(sim, file, index);
		if (!pfn) {
			/* __filemap_get_folio(FGP_CREAT | FGP_FOR_MMAP), then page_not_uptodate */
			if (filemap_add_folio(sim, file, index, &pfn))
				return ret | MMSIM_VM_FAULT_OOM;
			fpin |= may_drop_mmap_lock(vmf);
			io_submit_read(sim, file, index, 1);
		}
	}
	folio = pfn_to_page(sim, pfn);
	/* lock_folio_maybe_drop_mmap(): a folio under read I/O makes us wait */
	if (folio_test(folio, locked)) {
		fpin |= may_drop_mmap_lock(vmf);
		io_wait_folio(sim, file, pfn);
	}
	if (!folio_test(folio, uptodate)) {
		/* page_not_uptodate: the read failed earlier; read it again, synchronously */
		fpin |= may_drop_mmap_lock(vmf);
		folio_set(folio, locked);
		io_submit_read(sim, file, index, 1);
		io_wait_folio(sim, file, pfn);
	}
	if (fpin)
		return ret | MMSIM_VM_FAULT_RETRY;
	/* the folio goes back referenced (filemap_get_folio's reference): the caller maps or puts it */
	folio_get(sim, pfn);
	vmf->page = pfn;
	return ret | MMSIM_VM_FAULT_LOCKED;
}

/* filemap_page_mkwrite(): the page is about to become writable: dirty it */
void filemap_page_mkwrite(struct mmsim *sim, uint32_t pfn)
{
	folio_mark_dirty(sim, pfn);
}

/* ------------------------------------------------------------- read(2), write(2) */

/*
 * do_generic_file_read() (2.6.39) for [offset, offset + len) of file: each
 * page found in the page cache or read in (page_cache_sync_ra on a miss,
 * the async window at a PG_readahead page, a wait for a page under read),
 * then mark_page_accessed() - once per page per call, and not at all for a
 * page the last read ended in at the same offset (ra->prev_pos). A read
 * stops at the end of the file. A tmpfs file is read without readahead,
 * and its holes without allocating (shmem_file_read reads zeros).
 */
int generic_file_read(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len)
{
	struct file *f = file_ptr(sim, file);
	struct file_ra_state *ra = &f->f_ra;
	uint64_t isize = f->i_size, pos = offset, end, index, first, last_index, prev_index;
	uint32_t prev_offset, pages = 0, missing = 0;

	if (!len || pos >= isize)
		return 0;
	end = MIN(pos + len, isize);
	first = pos >> PAGE_SHIFT;
	last_index = (end + PAGE_SIZE - 1) >> PAGE_SHIFT;
	prev_index = ra->prev_pos >> PAGE_SHIFT;
	prev_offset = (uint32_t)(ra->prev_pos & (PAGE_SIZE - 1));
	for (index = first; pos < end; index++) {
		uint32_t off = (uint32_t)(pos & (PAGE_SIZE - 1));
		uint32_t nr = (uint32_t)MIN(PAGE_SIZE - off, end - pos);
		uint32_t pfn = filemap_get_folio(sim, file, index);
		struct page *folio;

		if (!pfn && !shmem_file(f)) {
			missing++;
			page_cache_sync_ra(sim, file, index, (uint32_t)(last_index - index));
			pfn = filemap_get_folio(sim, file, index);
			if (!pfn) {
				/* no_cached_page: readahead had no room (or ra_pages 0): read it alone */
				int err = filemap_add_folio(sim, file, index, &pfn);

				if (err)
					return err;
				io_submit_read(sim, file, index, 1);
			}
		}
		if (pfn) {
			folio = pfn_to_page(sim, pfn);
			if (folio_test(folio, readahead) && !shmem_file(f))
				page_cache_async_ra(sim, file, pfn, index,
						    (uint32_t)(last_index - index));
			if (folio_test(folio, locked))
				io_wait_folio(sim, file, pfn);
			if (prev_index != index || off != prev_offset)
				folio_mark_accessed(sim, pfn);
		}
		prev_index = index;
		prev_offset = (off + nr) & (PAGE_SIZE - 1);
		pos += nr;
		pages++;
	}
	ra->prev_pos = (prev_index << PAGE_SHIFT) | prev_offset;
	trace_mmsim_file_read(sim, file, first, pages, missing);
	return 0;
}

/*
 * generic_perform_write() (2.6.39) of [offset, offset + len): per page,
 * grab_cache_page_write_begin() (find or add the page; a page under
 * writeback is waited for), a disk page written only in part is read
 * first unless it lies beyond the data the file holds (a sparse file's
 * never-written blocks: block_write_begin reads only a block that exists),
 * mark_page_accessed() (before write_end, on every page: a page written in
 * two pieces is touched twice, the seed's use-twice problem), then the
 * page is dirtied as a block filesystem does (mark_buffer_dirty: PG_reclaim
 * stays) and balance_dirty_pages_ratelimited(). Files do not grow here:
 * the loader refuses a write past the end.
 */
int generic_file_write(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len)
{
	struct file *f = file_ptr(sim, file);
	uint64_t pos = offset, end = offset + len, first = offset >> PAGE_SHIFT;
	uint32_t pages = 0, dirtied = 0;

	if (end > f->i_size || end < offset)
		return sim_error(sim, MMSIM_EINVAL, offset,
				 f->i_size); /* files do not grow in this model */

	while (pos < end) {
		uint64_t index = pos >> PAGE_SHIFT;
		uint32_t off = (uint32_t)(pos & (PAGE_SIZE - 1));
		uint32_t nr = (uint32_t)MIN(PAGE_SIZE - off, end - pos);
		uint32_t pfn = filemap_get_folio(sim, file, index);
		struct page *folio;

		if (!pfn) {
			int err = filemap_add_folio(sim, file, index, &pfn);

			if (err)
				return err;
			folio = pfn_to_page(sim, pfn);
			if (nr < PAGE_SIZE && !shmem_file(f) && !(f->flags & MMSIM_FILE_SPARSE)) {
				/* __block_write_begin(): the rest of the block is on disk: read it and wait */
				io_submit_read(sim, file, index, 1);
				io_wait_folio(sim, file, pfn);
			} else {
				/* written whole, or a hole (tmpfs, a sparse file): zeroed, no read */
				folio_set(folio, uptodate);
				folio_clear(folio, locked);
			}
		}
		folio = pfn_to_page(sim, pfn);
		if (folio_test(folio, locked))
			io_wait_folio(sim, file,
				      pfn); /* a read in flight (readahead): lock_page waits */
		if (folio_test(folio, writeback))
			writeback_wait_page(
				sim,
				pfn); /* grab_cache_page_write_begin(): wait_on_page_writeback */
		folio_mark_accessed(sim, pfn);
		if (!folio_test(folio, dirty))
			dirtied++;
		if (shmem_file(f))
			folio_mark_dirty(sim, pfn);
		else
			folio_mark_dirty_buffers(sim, pfn);
		pos += nr;
		pages++;
		balance_dirty_pages_ratelimited(sim);
	}
	trace_mmsim_file_write(sim, file, first, pages, dirtied);
	return 0;
}

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
 * filemap_map_order0_folio, filemap_map_pages, filemap_fault); with
 * pagecache_large_folios, 6.18's large folios: a folio that lies in the VMA
 * and one page table and ends before the file's last page is mapped whole
 * (map_large_folio). Differences, on purpose:
 *  - there are no other CPUs, so "trylock failed" never happens on its own;
 *    a page is locked only while its read I/O is in flight;
 *  - I/O has no duration of its own: a read completes io_latency touches
 *    after submission (0: at once), or as soon as a task waits for one of its
 *    pages (the task sleeps until it is done);
 *  - the faulting task's retry after dropping mmap_lock (VM_FAULT_RETRY) is
 *    modelled, since it decides what the retry maps (see do_user_addr_fault);
 *  - an order-9 page-cache folio is mapped by 512 PTEs, not a PMD
 *    (filemap_map_pmd): the same one fault;
 *  - write(2), a shared write fault, fadvise, truncate and reclaim split a
 *    large folio to order 0 first (filemap_split_folio; counted).
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

/*
 * The page cache holds, at each index, the page frame of the page at that
 * index: an order-0 folio's own, or one page of a large folio (the kernel's
 * multi-index entry, seen one index at a time). filemap_get_folio() answers
 * the folio (its head page), filemap_get_page() the page itself.
 */
uint32_t filemap_get_page(const struct mmsim *sim, uint32_t file, uint64_t index)
{
	uint32_t e = xa_load_cached(sim, &file_ptr(sim, file)->i_pages, index);

	if (!e || xa_is_value(e))
		return 0;
	return xa_to_pfn(e);
}

uint32_t filemap_get_folio(const struct mmsim *sim, uint32_t file, uint64_t index)
{
	uint32_t pfn = filemap_get_page(sim, file, index);

	return pfn ? compound_head(sim, pfn) : 0;
}

/*
 * The model's stand-in where it has no large-folio rule (write(2), a shared
 * write fault, fadvise, truncate, reclaim): a large page-cache folio becomes
 * order-0 folios in place, as split_huge_page() leaves a file folio: each
 * page keeps its PTEs and one page-cache reference, the tails follow the
 * head on its LRU list. The kernel keeps the folio whole on these paths;
 * pagecache_folio_splits counts each time the model did this. References
 * other than the page cache's and the mappings' (a caller's) stay with the
 * head page.
 */
void filemap_split_folio(struct mmsim *sim, uint32_t head)
{
	struct page *folio = pfn_to_page(sim, head);
	const uint32_t keep = PF(uptodate) | PF(dirty) | PF(active) | PF(workingset) |
			      PF(referenced) | PF(lru) | PF(unevictable) | PF(locked);
	uint32_t order = folio_order(sim, head), nr = 1u << order, prev = head;
	int32_t extra = folio->_refcount - (int32_t)nr;
	bool on_lru = folio_test(folio, lru);

	VM_BUG_ON(!folio_test_large(folio) || folio_test_anon(folio));
	for (uint32_t i = 0; i < nr; i++)
		extra -= pfn_to_page(sim, head + i)->_mapcount + 1;
	VM_BUG_ON(extra < 0);
	for (uint32_t i = 1; i < nr; i++) {
		struct page *p = pfn_to_page(sim, head + i);

		p->flags = folio->flags & keep;
		p->private = 0;
		p->lru_next = p->lru_prev = 0;
		p->mapping = folio->mapping;
		p->index = folio->index + i;
		p->_refcount = 1 + p->_mapcount + 1;
		if (on_lru) {
			/* right after the previous page: the list keeps the folio's place */
			uint32_t next = pfn_to_page(sim, prev)->lru_next;

			pfn_list_add(sim, &next, head + i, false);
		}
		prev = head + i;
	}
	folio->flags &= ~PF(head);
	folio->_refcount = 1 + folio->_mapcount + 1 + extra;
	count_vm_event(sim, MMSIM_MODEL_PAGECACHE_SPLITS);
	trace_mmsim_pagecache_split(sim, folio->mapping - 1, folio->index, head, order);
}

/* the order-0 folio at index (a large one split first), 0 if none */
uint32_t filemap_get_small_folio(struct mmsim *sim, uint32_t file, uint64_t index)
{
	uint32_t pfn = filemap_get_page(sim, file, index);

	if (pfn && folio_test_large(pfn_to_page(sim, compound_head(sim, pfn))))
		filemap_split_folio(sim, compound_head(sim, pfn));
	return pfn;
}

/*
 * filemap_add_folio() / add_to_page_cache_lru(): a new folio of 2^order
 * pages at index (aligned to it), locked and not uptodate (the caller starts
 * the read), bound for the inactive file list through the lru_add pagevec
 * (a large folio drains it at once); for tmpfs swap-backed
 * (shmem_alloc_and_add_folio), for the inactive anon list. A large folio
 * holds one page-cache reference per page, as the kernel's folio_ref_add().
 * Any folio already cached in the range: -EEXIST (the caller falls back).
 * Where reclaim left a shadow, the page is a refault (workingset.c): with
 * kernel.workingset it goes to the active list instead.
 */
int filemap_add_folio_order(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t order,
			    uint32_t *pfn)
{
	struct file *f = file_ptr(sim, file);
	struct page *folio;
	uint32_t old = 0, nr = 1u << order;
	int err;

	if (order) {
		/* __filemap_add_folio(): a conflicting folio anywhere in the range */
		for (uint32_t i = 0; i < nr; i++) {
			uint32_t e = xa_load(sim, &f->i_pages, index + i);

			if (e && !xa_is_value(e))
				return MMSIM_EEXIST;
		}
	}
	/* readahead's large folios do not reclaim (__GFP_NORETRY): short of memory, order 0 */
	if (order)
		err = zone_watermark_ok(sim, order, sim->s.wmark[1]) ?
			      alloc_pages_nowmark(sim, order, pfn, MMSIM_USE_PAGECACHE) :
			      MMSIM_EOOM;
	else
		err = alloc_pages(sim, 0, pfn, MMSIM_USE_PAGECACHE);
	if (err)
		return err;
	folio = pfn_to_page(sim, *pfn);
	folio->flags |= PF(locked);
	folio->mapping = file + 1;
	folio->index = (uint32_t)index;
	folio->_refcount = (int32_t)nr;
	/* the slots, after the allocation (which may have reclaimed, and left shadows there) */
	for (uint32_t i = 0; i < nr && !err; i++) {
		uint32_t e = xa_load(sim, &f->i_pages, index + i);

		if (e && !xa_is_value(e)) {
			err = MMSIM_EEXIST; /* reclaim cannot add, but keep the rule */
			break;
		}
		if (!old && xa_is_value(e))
			old = e;
		err = xa_store(sim, &f->i_pages, index + i, xa_mk_folio(*pfn + i));
		if (err) {
			for (uint32_t j = 0; j < i; j++)
				xa_erase(sim, &f->i_pages, index + j);
		}
	}
	if (err) {
		folio->_refcount = 0;
		free_pages(sim, *pfn, order);
		return err;
	}
	f->nrpages += nr;
	mod_node_page_state(sim, MMSIM_NR_FILE_PAGES, nr);
	if (shmem_file(f)) {
		folio->flags |= PF(swapbacked);
		mod_node_page_state(sim, MMSIM_NR_SHMEM, nr);
	}
	trace_mm_filemap_add_to_page_cache(sim, file, order, index, *pfn, folio->flags);
	if (xa_is_value(old) && workingset_refault(sim, file, index, old >> 1)) {
		folio_set(folio, active);
		workingset_activation(sim);
	}
	folio_add_lru(sim, *pfn);
	return 0;
}

int filemap_add_folio(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t *pfn)
{
	return filemap_add_folio_order(sim, file, index, 0, pfn);
}

/*
 * __delete_from_page_cache(): out of the page cache, the slots emptied or
 * given a shadow (shadow != 0, an xa value entry: reclaim's eviction);
 * drops the cache's references.
 */
void filemap_remove_folio(struct mmsim *sim, uint32_t file, uint32_t pfn, uint32_t shadow)
{
	struct file *f = file_ptr(sim, file);
	struct page *folio = pfn_to_page(sim, pfn);
	uint32_t order = folio_order(sim, pfn), nr = 1u << order;

	/* the dirty accounting (and tag) first, while the slot is there */
	if (folio_test(folio, swapbacked))
		mod_node_page_state(sim, MMSIM_NR_SHMEM, -(int64_t)nr);
	else if (folio_test(folio, dirty))
		account_page_cleaned(sim, pfn);
	for (uint32_t i = 0; i < nr; i++) {
		if (shadow)
			xa_store(sim, &f->i_pages, folio->index + i,
				 shadow); /* replaces the folio: no node to allocate */
		else
			xa_erase(sim, &f->i_pages, folio->index + i);
	}
	f->nrpages -= nr;
	mod_node_page_state(sim, MMSIM_NR_FILE_PAGES, -(int64_t)nr);
	folio->mapping = 0;
	trace_mm_filemap_delete_from_page_cache(sim, file, order, folio->index, pfn, shadow != 0);
	folio->_refcount -= (int32_t)nr - 1;
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
 * filemap_map_folio_range() for a large folio (6.18, "mm/filemap: map
 * entire large folio faultaround"): the whole folio, beyond the
 * fault-around window on either side, when it lies inside the VMA and
 * inside one page table and ends before the file's last page (6.18's
 * "do not populate PTEs beyond i_size": file_end >= folio_next_index, so a
 * folio ending on the last page is never mapped whole); otherwise only its
 * pages in the window. PTEs already present are left alone. *hi: the last
 * index visited (the caller goes on after it).
 */
static uint32_t map_large_folio(struct mmsim *sim, struct vm_fault *vmf, uint64_t *ptes,
				uint32_t pfn, uint64_t index, uint64_t addr, uint64_t end_pgoff,
				uint64_t max_idx, uint32_t *hits, uint32_t *rss, uint64_t *hi)
{
	const struct vm_area_struct *vma = vmf->vma;
	uint32_t head = compound_head(sim, pfn), nr = 1u << folio_order(sim, head), ret = 0;
	struct page *folio = pfn_to_page(sim, head);
	uint64_t first = folio->index, last = first + nr - 1, lo = index;
	uint64_t addr0 = addr - (index - first) * PAGE_SIZE;
	bool within_vma = first >= vma->vm_pgoff &&
			  last < vma->vm_pgoff + ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT);
	bool one_table = (addr0 & ~(PMD_SIZE - 1)) ==
			 ((addr0 + (uint64_t)nr * PAGE_SIZE - 1) & ~(PMD_SIZE - 1));
	bool can_map_large = shmem_file(file_ptr(sim, vma->vm_file - 1)) || max_idx - 1 >= last + 1;

	*hi = MIN(last, end_pgoff);
	if (can_map_large && within_vma && one_table) {
		lo = first;
		*hi = last;
	}
	for (uint64_t j = lo; j <= *hi; j++) {
		uint64_t a = addr0 + (j - first) * PAGE_SIZE;
		uint64_t *pte = &ptes[(a >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
		uint32_t page = head + (uint32_t)(j - first);
		bool in_window = j >= index && j <= end_pgoff;

		if (!folio_test(folio, workingset))
			(*hits)++;
		if (!pte_none(*pte)) {
			if (in_window)
				map_skip(sim, a, j, MMSIM_SKIP_PTE_PRESENT, page);
			continue;
		}
		if (a == vmf->address) {
			ret = MMSIM_VM_FAULT_NOPAGE;
			set_pte_range(sim, vmf, page, a, pte, MMSIM_SET_AROUND_SELF);
		} else {
			count_vm_event(sim, MMSIM_MODEL_FAULT_AROUND_MAPPED);
			set_pte_range(sim, vmf, page, a, pte, MMSIM_SET_AROUND);
		}
		folio->_refcount++;
		(*rss)++;
	}
	return ret;
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
	 * Untraced, an order-0 page is mapped in place: set_pte_range() and
	 * folio_add_file_rmap_pte() for it, their counters added once after the
	 * loop. Nothing sees the machine between two pages of one fault without
	 * tracing (no event, no capture), so every state an operation ends in is
	 * the same; traced, each page goes the whole way, event by event. The
	 * golden tests run every interactive scenario both ways and compare.
	 */
	const bool batch = !sim->trace && !(vmf->flags & MMSIM_FAULT_FLAG_WRITE);
	const uint64_t bits = batch ? read_fault_pte_bits(sim, vma) : 0;
	uint32_t batched = 0, around = 0, first_mapped = 0;

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
		folio = pfn_to_page(sim, compound_head(sim, pfn));
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
		if (!ptes) {
			/*
			 * filemap_map_pmd(): install the page table on the first usable
			 * folio. Allocating it may reclaim: the folio is held (as
			 * next_uptodate_folio's folio_try_get holds it) and the slots
			 * are looked up again after.
			 */
			uint32_t tid, head = compound_head(sim, pfn);

			/*
			 * 6.18: the first usable folio decides can_map_large; one that
			 * reaches the file's last page cannot, filemap_map_pmd() is not
			 * called, and without a page table nothing is mapped (->fault and
			 * finish_fault() install it). Under 6.18's rules only.
			 */
			if (sim->s.hdr.pagecache_large_folios && !shmem_file(f) && !*vmf->pmd &&
			    max_idx - 1 < (uint64_t)folio->index + (1u << folio_order(sim, head)))
				break;
			folio_get(sim, head);
			tid = pte_alloc(sim, vmf);
			folio_put(sim, head);
			run = 0;
			if (!tid) {
				ret = MMSIM_VM_FAULT_OOM;
				break;
			}
			ptes = pgt_table(sim, tid);
		}
		if (folio_test_large(folio)) {
			/* filemap_map_folio_range(): a large folio, whole or its pages in the window */
			uint64_t hi;

			ret |= map_large_folio(sim, vmf, ptes, pfn, index, addr, end_pgoff, max_idx,
					       &hits, &rss, &hi);
			addr += (hi - index) * PAGE_SIZE;
			index = hi;
			run = 0;
			continue;
		}
		if (!folio_test(folio, workingset))
			hits++;
		pte = &ptes[(addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
		if (!pte_none(*pte)) {
			map_skip(sim, addr, index, MMSIM_SKIP_PTE_PRESENT, pfn);
			continue;
		}
		if (batch) {
			*pte = ((uint64_t)pfn << PAGE_SHIFT) | bits;
			/* mapped_stat(): a folio of the page cache is never anon, so NR_MAPPED */
			VM_BUG_ON(folio_test_anon(folio));
			if (++folio->_mapcount == 0)
				first_mapped++;
			if (addr == vmf->address)
				ret = MMSIM_VM_FAULT_NOPAGE;
			else
				around++;
			batched++;
			folio->_refcount++;
			rss++;
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
	if (batched) {
		/* the batch's accounting, as set_pte_range() and the rmap count it page by page */
		vmf->mapped += batched;
		count_vm_events(sim, MMSIM_MODEL_FAULT_AROUND_MAPPED, around);
		count_vm_events(sim, MMSIM_MODEL_RMAP_ATOMIC_PAGE_MAPCOUNT, batched);
		count_vm_events(sim, MMSIM_MODEL_RMAP_ATOMICS, batched);
		mod_node_page_state(sim, MMSIM_NR_MAPPED, first_mapped);
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
	/* a shared write dirties the folio: the model has no large-folio rule for that */
	if (folio_test_large(folio) && (vmf->flags & MMSIM_FAULT_FLAG_WRITE) &&
	    (vmf->vma->vm_flags & MMSIM_VM_SHARED))
		filemap_split_folio(sim, pfn);
	/* the folio goes back referenced (filemap_get_folio's reference): the caller maps or puts it */
	vmf->page = pfn + (uint32_t)(index - folio->index); /* the page at index, in its folio */
	folio_get(sim, compound_head(sim, vmf->page));
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
	uint32_t prev_offset, pages = 0, missing = 0, marked = 0;

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
			/* a large folio: once per call (filemap_read() marks each folio of its batch once) */
			if ((prev_index != index || off != prev_offset) && pfn != marked)
				folio_mark_accessed(sim, pfn);
			if (folio_test_large(folio))
				marked = pfn;
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
		uint32_t pfn = filemap_get_small_folio(sim, file, index);
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

/*
 * rmap.c - mapcounts (mm/rmap.c, include/linux/rmap.h, include/linux/mm.h).
 *
 * Every PTE that maps a page holds one _mapcount (biased: -1 is unmapped) and
 * one reference. For a large folio, page[1] also holds _large_mapcount (6.10:
 * all PTE and PMD mappings of any page), _entire_mapcount (PMD mappings) and
 * _nr_pages_mapped (pages with _mapcount >= 0, + ENTIRELY_MAPPED); see docs/kernel.md, "Large folios".
 * The statistics NR_FILE_MAPPED (nr_mapped) and NR_ANON_MAPPED (nr_anon_pages)
 * change when a page's _mapcount goes -1 -> 0 ("first") or 0 -> -1 ("last").
 *
 * Large folios are anonymous mTHP folios mapped by PTEs (memory.c's
 * alloc_anon_folio); fork and zap hand this file a batch of a folio's
 * consecutive PTEs (folio_pte_batch), and each change counts the atomic
 * read-modify-writes the kernel makes on each field (RMAP_ATOMIC below,
 * docs/kernel.md, "Large folios"): per page on _mapcount, once per batch on
 * _large_mapcount (6.10 only: large_mapcount true), and on _nr_pages_mapped
 * per page that crossed -1/0 (6.9, 6.10) or once per batch (6.12 and later:
 * nr_pages_mapped_batching true).
 * A THP mapped by a PMD (huge_memory.c) holds _entire_mapcount and the
 * ENTIRELY_MAPPED bit of _nr_pages_mapped; its PMD->PTE remap adds the 512
 * PTE mappings before removing the PMD one, as __split_huge_pmd_locked().
 *
 * The reverse map (rmap_walk below) finds every PTE that maps a page, for
 * reclaim: page_referenced() samples and clears the young bits,
 * try_to_unmap() takes a page out of every page table, page_mkclean()
 * write-protects a shared file page before writeback. A file page is
 * found through its file's i_mmap list of VMAs (the kernel keeps an
 * interval tree; a list gives the same answers), an anonymous page
 * through its anon_vma: the anon_vma of the VMA it was faulted in, whose
 * family (one root per anon_vma_prepare(), grown by fork) lists the VMAs
 * that may map it - the kernel's anon_vma_chain, kept as one list per
 * family and an ancestor test per VMA.
 */
#include "internal.h"
#include "memory.h"
#include "mmap.h"
#include "rmap.h"
#include "swap.h"
#include "writeback.h"

static struct page *folio_page1(const struct mmsim *sim, uint32_t head)
{
	return pfn_to_page(sim, head + 1);
}

static void mapped_stat(struct mmsim *sim, const struct page *folio, int64_t nr)
{
	mod_node_page_state(sim, folio_test_anon(folio) ? MMSIM_NR_ANON_PAGES : MMSIM_NR_MAPPED,
			    nr);
}

/*
 * An atomic read-modify-write of a mapcount field, as the kernel makes it:
 * counted (rule MC-*, the seed's cost). Plain stores on a fresh folio
 * (folio_add_new_anon_rmap) are not atomics and are not counted.
 */
#define RMAP_ATOMIC(sim, field, n)                                        \
	do {                                                              \
		count_vm_events(sim, MMSIM_MODEL_RMAP_ATOMIC_##field, n); \
		count_vm_events(sim, MMSIM_MODEL_RMAP_ATOMICS, n);        \
	} while (0)

/*
 * One mmsim_folio_rmap event per rmap operation on a large folio (small
 * folios, most of all file pages, would double a run's events for nothing
 * the views draw): its kind, pages and the atomics it made.
 */
static void trace_folio_rmap(struct mmsim *sim, uint32_t pfn, uint32_t op, uint32_t nr,
			     struct rmap_cost before)
{
	uint32_t head = compound_head(sim, pfn);
	struct rmap_cost now;

	if (!folio_test_large(pfn_to_page(sim, head)))
		return;
	now = rmap_cost_now(sim);
	trace_mmsim_folio_rmap(sim, pfn, head, op, nr, (uint32_t)(now.page - before.page),
			       (uint32_t)(now.large - before.large),
			       (uint32_t)(now.entire - before.entire),
			       (uint32_t)(now.nr - before.nr));
}

/* ------------------------------------------------------------- deferred split */

/*
 * deferred_split_folio(): an anonymous large folio some of whose pages were
 * unmapped while others stay mapped goes on the deferred split queue, once
 * (the kernel's folio->_deferred_list, in page[2]: here page[2] is the
 * queue's node, a pfn list as the LRU's, and its index says queued).
 * Orders below 2 have no page[2] and are never queued, as in the kernel.
 */
static void deferred_split_folio(struct mmsim *sim, uint32_t head)
{
	if (folio_order(sim, head) < 2 || pfn_to_page(sim, head + 2)->index)
		return;
	pfn_to_page(sim, head + 2)->index = 1;
	pfn_list_add(sim, &sim->s.deferred_split_head, head + 2, true);
	/*
	 * 6.10 counts every order in thp_deferred_split_page; 6.11+ only
	 * PMD-sized folios there, and every order in its size's mTHP stat
	 * (count_mthp_stat(order, MTHP_STAT_SPLIT_DEFERRED))
	 */
	if (sim->s.hdr.deferred_split_stats == MMSIM_DSSTATS_GLOBAL) {
		count_vm_event(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE);
	} else {
		if (folio_order(sim, head) == PMD_SHIFT - PAGE_SHIFT)
			count_vm_event(sim, MMSIM_THP_DEFERRED_SPLIT_PAGE);
		count_vm_event(sim, MMSIM_SPLIT_DEFERRED);
	}
	mod_node_page_state(sim, MMSIM_NR_DEFERRED_SPLIT, 1);
	trace_mmsim_deferred_split(sim, head, folio_order(sim, head),
				   (pfn_to_page(sim, head + 1)->_nr_pages_mapped &
				    FOLIO_PAGES_MAPPED));
}

/* a freed large folio leaves the queue (folio_undo_large_rmappable) */
void folio_undo_deferred_split(struct mmsim *sim, uint32_t head)
{
	if (folio_order(sim, head) < 2 || !pfn_to_page(sim, head + 2)->index)
		return;
	pfn_list_del(sim, &sim->s.deferred_split_head, head + 2);
	pfn_to_page(sim, head + 2)->index = 0;
	mod_node_page_state(sim, MMSIM_NR_DEFERRED_SPLIT, -1);
}

/* ------------------------------------------------------------- adding and removing PTE mappings */

/*
 * _nr_pages_mapped as the kernel stores it: the pages mapped by a PTE, plus
 * ENTIRELY_MAPPED while a PMD maps the whole folio; folio_nr_pages_mapped()
 * masks the count out.
 */
/*
 * The _nr_pages_mapped atomics of a batch in which `crossed` pages' _mapcount
 * went -1 -> 0 (or back). 6.9 and 6.10 update it inside the per-page loop of
 * __folio_add_rmap() / __folio_remove_rmap(): one atomic_inc_return_relaxed()
 * (or dec) per such page. 6.12 ("mm/rmap: minimize folio->_nr_pages_mapped
 * updates when batching PTE (un)mapping") counts them and makes one
 * atomic_add_return_relaxed() per batch: nr_pages_mapped_batching true.
 */
static inline uint32_t nr_pages_mapped_updates(const struct mmsim *sim, uint32_t crossed)
{
	return sim->s.hdr.nr_pages_mapped_batching ? 1 : crossed;
}

static inline int32_t folio_nr_pages_mapped(const struct page *p1)
{
	return p1->_nr_pages_mapped & FOLIO_PAGES_MAPPED;
}

/*
 * __folio_add_rmap(RMAP_LEVEL_PTE, nr) (rule MC-ADD-PTE): pages pfn ..
 * pfn + nr - 1 of one folio gain a PTE each: a _mapcount atomic per page,
 * a _nr_pages_mapped add_return per page mapped for the first time (6.12:
 * one for them all; accounted only below ENTIRELY_MAPPED: a PMD mapping
 * accounted the pages already), and (6.10) one _large_mapcount add for the whole batch.
 * Large folios only (the callers take an order-0 page themselves).
 * exclusive: RMAP_EXCLUSIVE (the PMD->PTE remap of an exclusive THP).
 */
static void __folio_add_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr, bool exclusive)
{
	uint32_t head = compound_head(sim, pfn), first = 0, accounted;
	struct page *folio = pfn_to_page(sim, head);
	struct rmap_cost before = rmap_cost_now(sim);

	/* a large folio's pages: an order-0 page takes folio_add_file_rmap_pte()'s bare rule */
	VM_BUG_ON(!folio_test_large(folio));
	for (uint32_t i = 0; i < nr; i++) {
		struct page *page = pfn_to_page(sim, pfn + i);

		first += ++page->_mapcount == 0;
		if (exclusive)
			page->flags |= PF(anon_exclusive);
	}
	RMAP_ATOMIC(sim, PAGE_MAPCOUNT, nr);
	accounted = first;
	{
		struct page *p1 = folio_page1(sim, head);

		if (first) {
			p1->_nr_pages_mapped += (int32_t)first;
			RMAP_ATOMIC(sim, NR_PAGES_MAPPED, nr_pages_mapped_updates(sim, first));
			if (p1->_nr_pages_mapped >= ENTIRELY_MAPPED)
				accounted = 0; /* already accounted by the PMD mapping */
		}
		p1->_large_mapcount += (int32_t)nr;
		if (sim->s.hdr.large_mapcount)
			RMAP_ATOMIC(sim, LARGE_MAPCOUNT, 1);
	}
	if (accounted)
		mapped_stat(sim, folio, accounted);
	trace_folio_rmap(sim, pfn, MMSIM_FRMAP_ADD_PTES, nr, before);
}

void folio_add_file_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	struct page *page = pfn_to_page(sim, pfn);

	/* an order-0 page: every page fault-around maps comes here, kept to the bare rule */
	if (likely(!(page->flags & (PF(head) | PF(tail))))) {
		if (++page->_mapcount == 0)
			mapped_stat(sim, page, 1);
		RMAP_ATOMIC(sim, PAGE_MAPCOUNT, 1);
		return;
	}
	__folio_add_rmap_ptes(sim, pfn, 1, false);
}

/* folio_add_anon_rmap_ptes(): an anon folio's pages mapped again by PTEs (the PMD->PTE remap) */
void folio_add_anon_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr, bool exclusive)
{
	__folio_add_rmap_ptes(sim, pfn, nr, exclusive);
}

/*
 * folio_add_new_anon_rmap(): a fresh, exclusively owned anon folio; plain
 * stores, no atomics (rule MC-NEW-ANON). pmd: mapped by one PMD (a THP:
 * _entire_mapcount 0, ENTIRELY_MAPPED, AnonExclusive on the head page
 * only), else by one PTE per page.
 */
void folio_add_new_anon_rmap(struct mmsim *sim, uint32_t pfn, const struct vm_area_struct *vma,
			     uint64_t addr, bool pmd)
{
	struct page *folio = pfn_to_page(sim, pfn);
	uint32_t nr = 1u << folio_order(sim, pfn);

	folio->flags |= PF(anon) | PF(swapbacked);
	folio->mapping = vma->anon_vma;
	folio->index = (uint32_t)linear_page_index(vma, addr);
	if (pmd) {
		struct page *p1 = folio_page1(sim, pfn);

		p1->_entire_mapcount = 0;
		p1->_large_mapcount = 0;
		p1->_nr_pages_mapped = ENTIRELY_MAPPED;
		folio->flags |= PF(anon_exclusive);
		mod_node_page_state(sim, MMSIM_NR_ANON_PAGES, nr);
		mod_node_page_state(sim, MMSIM_NR_ANON_THPS, 1);
		trace_folio_rmap(sim, pfn, MMSIM_FRMAP_NEW_PMD, nr, rmap_cost_now(sim));
		return;
	}
	for (uint32_t i = 0; i < nr; i++) {
		struct page *p = pfn_to_page(sim, pfn + i);

		p->_mapcount = 0;
		p->flags |= PF(anon_exclusive);
	}
	if (nr > 1) {
		struct page *p1 = folio_page1(sim, pfn);

		p1->_large_mapcount = (int32_t)nr - 1;
		p1->_nr_pages_mapped = (int32_t)nr;
	}
	mod_node_page_state(sim, MMSIM_NR_ANON_PAGES, nr);
	trace_folio_rmap(sim, pfn, MMSIM_FRMAP_NEW_PTES, nr, rmap_cost_now(sim));
}

/* after a removal: queue an anon large folio left partly mapped, once */
static void folio_removed(struct mmsim *sim, uint32_t head, int32_t accounted,
			  bool partially_mapped)
{
	struct page *folio = pfn_to_page(sim, head);

	if (accounted) {
		mapped_stat(sim, folio, -(int64_t)accounted);
		if (folio_test_anon(folio) && partially_mapped)
			deferred_split_folio(sim, head);
	}
	if (!folio_mapcount(sim, head))
		folio_clear(folio, anon_exclusive);
}

/*
 * __folio_remove_rmap(RMAP_LEVEL_PTE, nr) (rule MC-REMOVE): (6.10) one
 * _large_mapcount subtraction for the batch first, a _mapcount atomic per
 * page, a _nr_pages_mapped sub_return per page that lost its last mapping
 * (6.12: one for them all); an anonymous large folio left partly mapped (partially_mapped =
 * nr && atomic_read(mapped)) is queued for a deferred split.
 */
void folio_remove_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr)
{
	uint32_t head = compound_head(sim, pfn), last = 0;
	struct page *folio = pfn_to_page(sim, head);
	bool large = folio_test_large(folio);
	struct rmap_cost before = large ? rmap_cost_now(sim) : (struct rmap_cost){ 0 };
	int32_t accounted;

	if (large) {
		folio_page1(sim, head)->_large_mapcount -= (int32_t)nr;
		if (sim->s.hdr.large_mapcount)
			RMAP_ATOMIC(sim, LARGE_MAPCOUNT, 1);
	}
	for (uint32_t i = 0; i < nr; i++) {
		struct page *page = pfn_to_page(sim, pfn + i);

		last += --page->_mapcount < 0;
		VM_BUG_ON(page->_mapcount < -1);
	}
	RMAP_ATOMIC(sim, PAGE_MAPCOUNT, nr);
	accounted = (int32_t)last;
	if (large && last) {
		struct page *p1 = folio_page1(sim, head);

		p1->_nr_pages_mapped -= (int32_t)last;
		RMAP_ATOMIC(sim, NR_PAGES_MAPPED, nr_pages_mapped_updates(sim, last));
		if (p1->_nr_pages_mapped >= ENTIRELY_MAPPED)
			accounted = 0;
	}
	/* the batch's event before a deferred split it causes (the queueing is its consequence) */
	trace_folio_rmap(sim, pfn, MMSIM_FRMAP_REMOVE_PTES, nr, before);
	folio_removed(sim, head, accounted,
		      large && accounted && folio_page1(sim, head)->_nr_pages_mapped);
}

void folio_remove_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	folio_remove_rmap_ptes(sim, pfn, 1);
}

/*
 * __folio_remove_rmap(RMAP_LEVEL_PMD) (rule MC-REMOVE): one _large_mapcount
 * and one _entire_mapcount atomic; the last PMD mapping takes
 * ENTIRELY_MAPPED away and un-accounts the pages no PTE still maps, and a
 * folio some of whose pages PTEs still map is then partly mapped.
 */
void folio_remove_rmap_pmd(struct mmsim *sim, uint32_t head)
{
	struct page *p1 = folio_page1(sim, head);
	int32_t nr = 0, nr_pmdmapped = 0;
	struct rmap_cost before = rmap_cost_now(sim);

	p1->_large_mapcount--;
	if (sim->s.hdr.large_mapcount)
		RMAP_ATOMIC(sim, LARGE_MAPCOUNT, 1);
	RMAP_ATOMIC(sim, ENTIRE_MAPCOUNT, 1);
	if (--p1->_entire_mapcount < 0) {
		p1->_nr_pages_mapped -= ENTIRELY_MAPPED;
		RMAP_ATOMIC(sim, NR_PAGES_MAPPED, 1);
		nr_pmdmapped = 1 << folio_order(sim, head);
		nr = nr_pmdmapped - folio_nr_pages_mapped(p1);
		mod_node_page_state(sim, MMSIM_NR_ANON_THPS, -1);
	}
	trace_folio_rmap(sim, head, MMSIM_FRMAP_REMOVE_PMD, 1u << folio_order(sim, head), before);
	folio_removed(sim, head, nr, nr && nr < nr_pmdmapped);
}

/*
 * folio_dup_file_rmap_ptes() / folio_try_dup_anon_rmap_ptes() at fork
 * (rule MC-DUP): nr more mappings of already mapped pages, a _mapcount
 * atomic each and (6.10) one _large_mapcount add; no statistics change.
 */
void folio_dup_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr)
{
	uint32_t head = compound_head(sim, pfn);
	struct rmap_cost before = folio_test_large(pfn_to_page(sim, head)) ?
					  rmap_cost_now(sim) :
					  (struct rmap_cost){ 0 };

	for (uint32_t i = 0; i < nr; i++) {
		struct page *page = pfn_to_page(sim, pfn + i);

		page->_mapcount++;
		page->flags &= ~PF(anon_exclusive);
	}
	RMAP_ATOMIC(sim, PAGE_MAPCOUNT, nr);
	if (folio_test_large(pfn_to_page(sim, head))) {
		folio_page1(sim, head)->_large_mapcount += (int32_t)nr;
		if (sim->s.hdr.large_mapcount)
			RMAP_ATOMIC(sim, LARGE_MAPCOUNT, 1);
	}
	trace_folio_rmap(sim, pfn, MMSIM_FRMAP_DUP_PTES, nr, before);
}

void folio_dup_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	folio_dup_rmap_ptes(sim, pfn, 1);
}

/* folio_try_dup_anon_rmap_pmd() at fork (copy_huge_pmd): one more entire mapping; the head is no longer exclusive */
void folio_dup_rmap_pmd(struct mmsim *sim, uint32_t head)
{
	struct page *p1 = folio_page1(sim, head);
	struct rmap_cost before = rmap_cost_now(sim);

	p1->_entire_mapcount++;
	RMAP_ATOMIC(sim, ENTIRE_MAPCOUNT, 1);
	p1->_large_mapcount++;
	if (sim->s.hdr.large_mapcount)
		RMAP_ATOMIC(sim, LARGE_MAPCOUNT, 1);
	pfn_to_page(sim, head)->flags &= ~PF(anon_exclusive);
	trace_folio_rmap(sim, head, MMSIM_FRMAP_DUP_PMD, 1u << folio_order(sim, head), before);
}

/*
 * folio_mapcount(): 6.10+ reads _large_mapcount (O(1)); the 6.9 rule sums
 * the entire mapcount and every page's mapcount. Both give the same number;
 * they differ in cost, which the mapcount issue counts.
 */
int folio_mapcount(const struct mmsim *sim, uint32_t pfn)
{
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);

	if (!folio_test_large(folio))
		return folio->_mapcount + 1;
	if (sim->s.hdr.large_mapcount)
		return folio_page1(sim, head)->_large_mapcount + 1;
	{
		int n = folio_page1(sim, head)->_entire_mapcount + 1;
		uint32_t nr = 1u << folio_order(sim, head);

		/* folio_total_mapcount(): "avoid the loop when no pages mapped by PTE" */
		if (!folio_nr_pages_mapped(folio_page1(sim, head)))
			return n;
		for (uint32_t i = 0; i < nr; i++)
			n += pfn_to_page(sim, head + i)->_mapcount + 1;
		return n;
	}
}

/*
 * folio_likely_mapped_shared(): with large_mapcount (6.10-6.14 mm.h) the
 * new rule; without, 6.9's folio_estimated_sharers() > 1, i.e. the first
 * page's page_mapcount().
 */
bool folio_likely_mapped_shared(const struct mmsim *sim, uint32_t pfn)
{
	return folio_likely_mapped_shared_rule(sim, pfn, sim->s.hdr.large_mapcount);
}

/* either kernel's rule, whichever the run models (the view shows both answers) */
bool folio_likely_mapped_shared_rule(const struct mmsim *sim, uint32_t pfn, bool v610)
{
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);
	int mapcount = folio_mapcount(sim, head);

	if (!folio_test_large(folio))
		return mapcount > 1;
	if (v610) {
		const struct page *p1 = folio_page1(sim, head);

		if (mapcount <= 1)
			return false;
		if (p1->_entire_mapcount + 1 != 0 || mapcount > (int)(1u << folio_order(sim, head)))
			return true;
		return folio->_mapcount > 0;
	}
	return folio->_mapcount + 1 + folio_page1(sim, head)->_entire_mapcount + 1 > 1;
}

/* ------------------------------------------------------------- the reverse map */

static struct anon_vma *av_ptr(const struct mmsim *sim, uint32_t id)
{
	return POOL_ELEM(sim, POOL_ANON_VMA, struct anon_vma, SMALL_CHUNK_SHIFT, id);
}

/* a VMA joins its family's list (the root's); the caller set vma->anon_vma */
void vma_link_anon(struct mmsim *sim, uint32_t id)
{
	struct vm_area_struct *v = vma_ptr(sim, id);
	struct anon_vma *root = av_ptr(sim, av_ptr(sim, v->anon_vma)->root);

	v->anon_prev = 0;
	v->anon_next = root->head;
	if (root->head)
		vma_ptr(sim, root->head)->anon_prev = id;
	root->head = id;
}

/* anon_vma_prepare(): give the VMA an anon_vma (a new family) before its first anon page */
int anon_vma_prepare(struct mmsim *sim, uint32_t vma_id)
{
	struct vm_area_struct *vma = vma_ptr(sim, vma_id);
	uint32_t av;

	if (vma->anon_vma)
		return 0;
	av = pool_alloc(sim, POOL_ANON_VMA);
	if (!av)
		return MMSIM_ENOMEM;
	av_ptr(sim, av)->root = av;
	vma = vma_ptr(sim, vma_id);
	vma->anon_vma = av;
	vma_link_anon(sim, vma_id);
	return 0;
}

/*
 * anon_vma_fork(): the child's copy of a VMA with an anon_vma gets one of
 * its own, a child of the parent's, in the same family; returns it.
 */
uint32_t anon_vma_fork(struct mmsim *sim, uint32_t parent_av, uint32_t child_vma)
{
	uint32_t av = pool_alloc(sim, POOL_ANON_VMA);

	if (!av)
		return 0;
	av_ptr(sim, av)->root = av_ptr(sim, parent_av)->root;
	av_ptr(sim, av)->parent = parent_av;
	vma_ptr(sim, child_vma)->anon_vma = av;
	vma_link_anon(sim, child_vma);
	return av;
}

/* a new VMA (mmap, split, fork) enters its file's i_mmap list and its anon_vma family's */
void vma_link_rmap(struct mmsim *sim, uint32_t id)
{
	struct vm_area_struct *v = vma_ptr(sim, id);

	if (v->vm_file) {
		struct file *f = file_ptr(sim, v->vm_file - 1);

		v->shared_prev = 0;
		v->shared_next = f->i_mmap;
		if (f->i_mmap)
			vma_ptr(sim, f->i_mmap)->shared_prev = id;
		f->i_mmap = id;
	}
	if (v->anon_vma)
		vma_link_anon(sim, id);
}

/* a VMA about to be freed leaves both lists */
void vma_unlink_rmap(struct mmsim *sim, uint32_t id)
{
	struct vm_area_struct *v = vma_ptr(sim, id);

	if (v->vm_file) {
		struct file *f = file_ptr(sim, v->vm_file - 1);

		if (v->shared_prev)
			vma_ptr(sim, v->shared_prev)->shared_next = v->shared_next;
		else
			f->i_mmap = v->shared_next;
		if (v->shared_next)
			vma_ptr(sim, v->shared_next)->shared_prev = v->shared_prev;
	}
	if (v->anon_vma) {
		struct anon_vma *root = av_ptr(sim, av_ptr(sim, v->anon_vma)->root);

		if (v->anon_prev)
			vma_ptr(sim, v->anon_prev)->anon_next = v->anon_next;
		else
			root->head = v->anon_next;
		if (v->anon_next)
			vma_ptr(sim, v->anon_next)->anon_prev = v->anon_prev;
	}
	v->shared_next = v->shared_prev = v->anon_next = v->anon_prev = 0;
}

/* is av the anon_vma of the VMA or one of its ancestors (the VMA's anon_vma_chain holds it)? */
static bool anon_vma_chained(const struct mmsim *sim, uint32_t vma_av, uint32_t av)
{
	for (uint32_t a = vma_av; a; a = av_ptr(sim, a)->parent)
		if (a == av)
			return true;
	return false;
}

/* the PTE that maps pfn at addr in vma's mm, if any */
static uint64_t *vma_pte_of(struct mmsim *sim, const struct vm_area_struct *vma, uint64_t addr,
			    uint32_t pfn)
{
	uint64_t *pte = walk_pte(sim, mm_ptr(sim, vma->vm_mm), addr);

	if (!pte || !pte_present(*pte) || (*pte & MMSIM_PTE_SPECIAL) || pte_pfn(*pte) != pfn)
		return NULL;
	return pte;
}

/*
 * rmap_walk(): every PTE that maps the page pfn. A file page is looked up
 * in each VMA of its file's i_mmap list whose range covers its index
 * (rmap_walk_file); an anon page in each VMA of its anon_vma's family
 * that chains its anon_vma (rmap_walk_anon: the VMA it was faulted in and
 * the copies fork made of it). one() returns false to stop the walk.
 */
void rmap_walk(struct mmsim *sim, uint32_t pfn, rmap_one_fn one, void *arg)
{
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);
	/* page->index is 32 bits here (an anon page's linear index may not fit): compare modulo 2^32 */
	uint32_t index = folio->index + (pfn - head);
	uint32_t id;

	if (folio_test_anon(folio)) {
		uint32_t av = folio->mapping;

		for (id = av_ptr(sim, av_ptr(sim, av)->root)->head; id;) {
			struct vm_area_struct *v = vma_ptr(sim, id);
			uint32_t next = v->anon_next;

			uint32_t off = index - (uint32_t)v->vm_pgoff;

			if (anon_vma_chained(sim, v->anon_vma, av) && off < vma_pages(v)) {
				uint64_t addr = v->vm_start + ((uint64_t)off << PAGE_SHIFT);
				uint64_t *pte = vma_pte_of(sim, v, addr, pfn);

				if (pte && !one(sim, pfn, v, addr, pte, arg))
					return;
			}
			id = next;
		}
		return;
	}
	if (!folio->mapping)
		return;
	for (id = file_ptr(sim, folio->mapping - 1)->i_mmap; id;) {
		struct vm_area_struct *v = vma_ptr(sim, id);
		uint32_t next = v->shared_next;

		uint32_t off = index - (uint32_t)v->vm_pgoff;

		if (off < vma_pages(v)) {
			uint64_t addr = v->vm_start + ((uint64_t)off << PAGE_SHIFT);
			uint64_t *pte = vma_pte_of(sim, v, addr, pfn);

			if (pte && !one(sim, pfn, v, addr, pte, arg))
				return;
		}
		id = next;
	}
}

struct referenced_arg {
	uint32_t referenced;
	uint32_t vm_flags;
};

/*
 * page_referenced_one() (2.6.39 mm/rmap.c): test and clear the PTE's
 * accessed (young) bit; a young PTE counts unless the VMA is
 * MADV_SEQUENTIAL; the VMA's flags are passed up when it counted.
 */
static bool page_referenced_one(struct mmsim *sim, uint32_t pfn, struct vm_area_struct *vma,
				uint64_t addr, uint64_t *pte, void *arg)
{
	struct referenced_arg *r = arg;

	(void)sim;
	(void)pfn;
	(void)addr;
	if (*pte & MMSIM_PTE_ACCESSED) {
		*pte &= ~MMSIM_PTE_ACCESSED;
		if (!(vma->vm_flags & MMSIM_VM_SEQ_READ)) {
			r->referenced++;
			r->vm_flags |= vma->vm_flags;
		}
	}
	return true;
}

/* page_referenced(): how many mapping PTEs were young (each cleared on the way) */
uint32_t page_referenced(struct mmsim *sim, uint32_t pfn, uint32_t *vm_flags)
{
	struct referenced_arg r = { 0, 0 };

	if (folio_mapcount(sim, pfn))
		rmap_walk(sim, pfn, page_referenced_one, &r);
	if (vm_flags)
		*vm_flags = r.vm_flags;
	return r.referenced;
}

/*
 * try_to_unmap_one() (2.6.39): a PTE young again since page_referenced()
 * means the page is in use (SWAP_FAIL: reclaim activates it); otherwise
 * clear the PTE, move its dirty bit to the page (set_page_dirty), and drop
 * the mapping's rss, mapcount and reference.
 */
static bool try_to_unmap_one(struct mmsim *sim, uint32_t pfn, struct vm_area_struct *vma,
			     uint64_t addr, uint64_t *pte, void *arg)
{
	int *ret = arg;
	struct mm_struct *mm = mm_ptr(sim, vma->vm_mm);
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);
	uint64_t pteval;

	if (*pte & MMSIM_PTE_ACCESSED) {
		*pte &= ~MMSIM_PTE_ACCESSED;
		*ret = -1;
		return false;
	}
	/* the kernel's order: the PTE cleared, its dirty bit moved, then the mapping and reference dropped */
	pteval = ptep_get_and_clear(sim, vma->vm_mm, addr, pte);
	if (pteval & MMSIM_PTE_DIRTY)
		folio_mark_dirty(sim, head);
	mm->rss[folio_test_anon(folio) ? MMSIM_MM_ANONPAGES : mm_counter_file(folio)]--;
	folio_remove_rmap_pte(sim, pfn);
	folio_put(sim, head);
	return folio_mapcount(sim, head) != 0;
}

/* try_to_unmap(): 0 when no PTE maps the page any more, -1 (SWAP_FAIL) when one was young */
int try_to_unmap(struct mmsim *sim, uint32_t pfn)
{
	int ret = 0;

	rmap_walk(sim, pfn, try_to_unmap_one, &ret);
	return ret;
}

/*
 * page_mkclean_one(): before a shared file page is written back, every
 * writable or dirty PTE of a VM_SHARED mapping is write-protected and
 * cleaned, so that the next write faults and dirties the page again.
 */
static bool page_mkclean_one(struct mmsim *sim, uint32_t pfn, struct vm_area_struct *vma,
			     uint64_t addr, uint64_t *pte, void *arg)
{
	uint32_t *cleaned = arg;

	(void)sim;
	(void)pfn;
	(void)addr;
	if ((vma->vm_flags & MMSIM_VM_SHARED) && (*pte & (MMSIM_PTE_RW | MMSIM_PTE_DIRTY))) {
		*pte &= ~(MMSIM_PTE_RW | MMSIM_PTE_DIRTY);
		(*cleaned)++;
	}
	return true;
}

/* page_mkclean(): how many PTEs were writable or dirty (the caller then dirties the page, to clean it for I/O) */
uint32_t page_mkclean(struct mmsim *sim, uint32_t pfn)
{
	uint32_t cleaned = 0;

	if (folio_mapcount(sim, pfn))
		rmap_walk(sim, pfn, page_mkclean_one, &cleaned);
	return cleaned;
}

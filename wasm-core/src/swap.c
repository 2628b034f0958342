/*
 * swap.c - the LRU lists (mm/swap.c, include/linux/mm_inline.h).
 *
 *     head (most recently added)                          tail (reclaim takes here)
 *       |                                                   |
 *       v                                                   v
 *     [pfn] -lru_next-> [pfn] -lru_next-> ... -lru_next-> [pfn] -lru_next-> (back to head)
 *
 * One lruvec (one node, no memcg) with the classic two-list LRU per type:
 * inactive/active anon, inactive/active file, and unevictable. A folio's list
 * is folio_lru_list(): anon (PG_swapbacked) or file, active if PG_active.
 * Being on an LRU does not hold a reference; the last folio_put() (here, as
 * the kernel's __folio_put() is in mm/swap.c) takes the folio off its list
 * and gives its frames back to the page allocator.
 *
 * Deliberate simplification for now: the kernel batches additions,
 * activations and deactivations in per-CPU folio batches (PAGEVEC_SIZE 14 /
 * 15) and a folio in a batch is not yet PG_lru. Here every move is applied at
 * once. The LRU issue adds the batches, which fadvise(DONTNEED) depends on.
 */
#include "internal.h"

int folio_lru_list(const struct page *folio)
{
	int lru;

	if (folio_test(folio, unevictable))
		return MMSIM_LRU_UNEVICTABLE;
	lru = folio_test(folio, swapbacked) ? MMSIM_LRU_INACTIVE_ANON : MMSIM_LRU_INACTIVE_FILE;
	if (folio_test(folio, active))
		lru += 1;
	return lru;
}

static const enum mmsim_counter lru_counter[MMSIM_NR_LRU_LISTS] = {
	MMSIM_NR_INACTIVE_ANON, MMSIM_NR_ACTIVE_ANON, MMSIM_NR_INACTIVE_FILE,
	MMSIM_NR_ACTIVE_FILE, MMSIM_NR_UNEVICTABLE,
};

static void list_insert(struct mmsim *sim, uint32_t pfn, int lru, bool at_head)
{
	struct lruvec *lv = &sim->s.lruvec;
	struct page *p = pfn_to_page(sim, pfn);
	uint32_t nr = 1u << folio_order(sim, pfn);

	if (!lv->head[lru]) {
		p->lru_next = p->lru_prev = pfn;
		lv->head[lru] = pfn;
	} else {
		uint32_t head = lv->head[lru];
		struct page *h = pfn_to_page(sim, head);
		uint32_t tail = h->lru_prev;

		p->lru_next = head;
		p->lru_prev = tail;
		h->lru_prev = pfn;
		pfn_to_page(sim, tail)->lru_next = pfn;
		if (at_head)
			lv->head[lru] = pfn;
	}
	lv->nr[lru] += nr;
	mod_node_page_state(sim, lru_counter[lru], nr);
	folio_set(p, lru);
}

void lruvec_add_folio(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru)
{
	list_insert(sim, pfn, lru, true);
}

void lruvec_add_folio_tail(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru)
{
	list_insert(sim, pfn, lru, false);
}

void lruvec_del_folio(struct mmsim *sim, uint32_t pfn)
{
	struct lruvec *lv = &sim->s.lruvec;
	struct page *p = pfn_to_page(sim, pfn);
	int lru = folio_lru_list(p);
	uint32_t nr = 1u << folio_order(sim, pfn);

	VM_BUG_ON(!folio_test(p, lru));
	if (p->lru_next == pfn) {
		lv->head[lru] = 0;
	} else {
		pfn_to_page(sim, p->lru_prev)->lru_next = p->lru_next;
		pfn_to_page(sim, p->lru_next)->lru_prev = p->lru_prev;
		if (lv->head[lru] == pfn)
			lv->head[lru] = p->lru_next;
	}
	p->lru_next = p->lru_prev = 0;
	lv->nr[lru] -= nr;
	mod_node_page_state(sim, lru_counter[lru], -(int64_t)nr);
	folio_clear(p, lru);
}

/*
 * folio_put(): drop a reference; the last one frees the folio, taking it off
 * the LRU first (__folio_put -> __page_cache_release -> lruvec_del_folio,
 * then back to the page allocator).
 */
void folio_put(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	VM_BUG_ON(folio->_refcount <= 0);
	if (--folio->_refcount)
		return;
	if (folio_test(folio, lru))
		lruvec_del_folio(sim, pfn);
	free_pages(sim, pfn, folio_order(sim, pfn));
}

/* folio_add_lru() + lru_add(): to the head of the folio's list */
void folio_add_lru(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);
	int lru = folio_lru_list(folio);

	VM_BUG_ON(folio_test(folio, lru));
	lruvec_add_folio(sim, pfn, lru);
	trace(sim, MMSIM_EV_LRU_ADD, 0, pfn, lru, 0, 0);
}

/* lru_activate(): inactive -> head of active */
static void folio_activate(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio_test(folio, active) || folio_test(folio, unevictable))
		return;
	lruvec_del_folio(sim, pfn);
	folio_set(folio, active);
	lruvec_add_folio(sim, pfn, folio_lru_list(folio));
	count_vm_events(sim, MMSIM_PGACTIVATE, 1u << folio_order(sim, pfn));
	trace(sim, MMSIM_EV_LRU_ACTIVATE, 0, pfn, folio_lru_list(folio), 0, 0);
}

/*
 * folio_mark_accessed() (v6.19 mm/swap.c, classic LRU): the first access sets
 * PG_referenced, the second activates an inactive folio and clears it.
 */
void folio_mark_accessed(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (!folio_test(folio, referenced)) {
		folio_set(folio, referenced);
	} else if (folio_test(folio, unevictable)) {
		/* unevictable folios are not moved */
	} else if (!folio_test(folio, active)) {
		if (folio_test(folio, lru))
			folio_activate(sim, pfn);
		else
			folio_set(folio, active);
		folio_clear(folio, referenced);
	}
}

/*
 * folio_mark_dirty(): PG_dirty and, for the page cache, NR_FILE_DIRTY;
 * set_page_dirty clears PG_reclaim (v2.6.39 page-writeback.c).
 */
void folio_mark_dirty(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio_test_anon(folio) || folio_test(folio, swapbacked)) {
		/*
		 * anon: folio_mapping() is NULL outside the swap cache; shmem:
		 * shmem_aops.dirty_folio is noop_dirty_folio. Either way PG_dirty
		 * without NR_FILE_DIRTY accounting.
		 */
		folio_set(folio, dirty);
		return;
	}
	folio_clear(folio, reclaim);
	if (folio_test(folio, dirty))
		return;
	folio_set(folio, dirty);
	mod_node_page_state(sim, MMSIM_NR_DIRTY, 1u << folio_order(sim, pfn));
}

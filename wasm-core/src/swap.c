/*
 * swap.c - the LRU lists and the per-CPU pagevecs that feed them
 * (mm/swap.c, include/linux/mm_inline.h, as in Linux 2.6.39).
 *
 *     head (most recently added)                          tail (reclaim takes here)
 *       |                                                   |
 *       v                                                   v
 *     [pfn] -lru_next-> [pfn] -lru_next-> ... -lru_next-> [pfn] -lru_next-> (back to head)
 *
 * One zone, one CPU, the classic two-list LRU per type: inactive/active
 * anon, inactive/active file, and unevictable. A folio's list is
 * folio_lru_list(): anon (PG_swapbacked) or file, active if PG_active.
 * Being on a list does not hold a reference; the last folio_put() (the
 * kernel's release_pages()/__page_cache_release()) takes the folio off its
 * list before it gives the frames back to the page allocator.
 *
 * Nothing goes onto a list directly. 2.6.39 batches LRU work per CPU in
 * pagevecs of PAGEVEC_SIZE (14) pages, each page in one holding a
 * reference:
 *
 *     lru_add_pvecs[lru]   new pages (page cache: inactive file; new anon:
 *                          active anon), not yet PG_lru: a page sitting here
 *                          is on no list, which is why mark_page_accessed()
 *                          cannot activate it and why fadvise cannot drop it
 *     lru_rotate_pvecs     rotate_reclaimable_page(): a PG_reclaim page
 *                          whose writeback ended goes to the inactive tail
 *     lru_deactivate_pvecs deactivate_page(): fadvise(DONTNEED) of a page it
 *                          could not invalidate (the 2.6.39 series, rule
 *                          table of lru_deactivate_fn() below)
 *
 * The 14th page drains its pagevec (pagevec_add() returns 0); so does
 * lru_add_drain() (all of them, in that order), which reclaim, munmap,
 * exit and every pagevec_release() call. activate_page() is not batched
 * in 2.6.39 (3.0 added activate_page_pvecs): it moves the page at once.
 *
 * Counters: pgactivate (activate_page, and reclaim's activate_locked in
 * vmscan.c), pgdeactivate and pgrotated (lru_deactivate_fn, writeback's
 * rotation), and the seed's profiling pginvalidate and pgreclaim (patch
 * 4/4 of the 2.6.39 series, never merged: a page that reached the
 * deactivation decision, and one that got PG_reclaim there). The zone's
 * reclaim_stat (recent_scanned, recent_rotated) is kept as 2.6.39 keeps
 * it, for get_scan_count().
 */
#include "internal.h"
#include "page_alloc.h"
#include "rmap.h"
#include "swap.h"
#include "vmscan.h"

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
	MMSIM_NR_ACTIVE_FILE,	MMSIM_NR_UNEVICTABLE,
};

static void list_insert(struct mmsim *sim, uint32_t pfn, int lru, bool at_head)
{
	struct lruvec *lv = &sim->s.lruvec;
	uint32_t nr = 1u << folio_order(sim, pfn);

	pfn_list_add(sim, &lv->head[lru], pfn, at_head);
	lv->nr[lru] += nr;
	mod_node_page_state(sim, lru_counter[lru], nr);
	folio_set(pfn_to_page(sim, pfn), lru);
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
	pfn_list_del(sim, &lv->head[lru], pfn);
	lv->nr[lru] -= nr;
	mod_node_page_state(sim, lru_counter[lru], -(int64_t)nr);
	folio_clear(p, lru);
}

/* the tail of a list (the oldest folio), 0 if empty */
uint32_t lru_tail(const struct mmsim *sim, int lru)
{
	uint32_t head = sim->s.lruvec.head[lru];

	return head ? pfn_to_page(sim, head)->lru_prev : 0;
}

static void lru_move_event(struct mmsim *sim, uint32_t pfn, uint32_t from, uint32_t to,
			   uint32_t how)
{
	trace_mmsim_lru_move(sim, page_tag(sim, pfn), pfn, from, to, how);
}

/*
 * folio_put(): drop a reference; the last one frees the folio, taking it off
 * the LRU first (release_pages() -> del_page_from_lru(), then back to the
 * page allocator).
 */
void folio_put(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	VM_BUG_ON(folio->_refcount <= 0);
	if (--folio->_refcount)
		return;
	if (folio_test(folio, lru))
		lruvec_del_folio(sim, pfn);
	if (folio_test_large(folio))
		folio_undo_deferred_split(sim, pfn);
	free_pages(sim, pfn, folio_order(sim, pfn));
}

/* update_page_reclaim_stat(): what get_scan_count() balances anon against file with */
void update_page_reclaim_stat(struct mmsim *sim, const struct page *folio, bool rotated)
{
	int file = !folio_test(folio, swapbacked);

	sim->s.recent_scanned[file]++;
	if (rotated)
		sim->s.recent_rotated[file]++;
}

/* ------------------------------------------------------------- pagevecs */

/* ____pagevec_lru_add_fn(): onto the head of its list, PG_lru (and PG_active for an active list) */
static void pagevec_lru_add_fn(struct mmsim *sim, uint32_t pfn, uint32_t lru)
{
	struct page *folio = pfn_to_page(sim, pfn);
	bool active = lru == MMSIM_LRU_ACTIVE_ANON || lru == MMSIM_LRU_ACTIVE_FILE;

	VM_BUG_ON(folio_test(folio, lru) || folio_test(folio, active));
	if (active)
		folio_set(folio, active);
	update_page_reclaim_stat(sim, folio, active);
	lruvec_add_folio(sim, pfn, lru);
	trace_mm_lru_insertion(sim, page_tag(sim, pfn), pfn, lru);
}

/* pagevec_move_tail_fn(): a rotation to the inactive tail, if the folio is still an inactive LRU folio */
static void pagevec_move_tail_fn(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);
	int lru;

	if (!folio_test(folio, lru) || folio_test(folio, active) || folio_test(folio, unevictable))
		return;
	lru = folio_lru_list(folio);
	lruvec_del_folio(sim, pfn);
	lruvec_add_folio_tail(sim, pfn, lru);
	count_vm_event(sim, MMSIM_PGROTATED);
	lru_move_event(sim, pfn, lru, lru | MMSIM_LRU_TAIL, MMSIM_LRUMV_ROTATE);
}

/*
 * lru_deactivate_fn() (2.6.39 mm/swap.c), a folio fadvise(DONTNEED) could
 * not invalidate:
 *
 *     not on an LRU, unevictable, or mapped     nothing
 *     dirty or under writeback                  inactive head, PG_reclaim
 *     clean                                     inactive tail (pgrotated)
 *     and if it was active                      pgdeactivate
 *
 * The seed's profiling counters: pginvalidate for every folio past the
 * first three checks, pgreclaim for every PG_reclaim set here.
 */
static void lru_deactivate_fn(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);
	int from, to;
	bool active;

	/* the seed's profiling counters (pginvalidate, pgreclaim) are 2.6.39's; today's kernel has neither */
	bool seed = sim->s.hdr.fadvise_dontneed != MMSIM_FADVISE_TRY_INVALIDATE;

	/* "Some processes are using the page": a mapped folio stays where it is */
	if (!folio_test(folio, lru) || folio_test(folio, unevictable) || folio_mapcount(sim, pfn))
		return;
	if (seed)
		count_vm_event(sim, MMSIM_PGINVALIDATE);
	from = folio_lru_list(folio);
	active = folio_test(folio, active);
	lruvec_del_folio(sim, pfn);
	folio_clear(folio, active);
	folio_clear(folio, referenced);
	to = folio_lru_list(folio);
	if (folio_test(folio, writeback) || folio_test(folio, dirty)) {
		/* PG_reclaim: end_page_writeback() will rotate it to the tail */
		lruvec_add_folio(sim, pfn, to);
		folio_set(folio, reclaim);
		if (seed)
			count_vm_event(sim, MMSIM_PGRECLAIM);
		lru_move_event(sim, pfn, from, to, MMSIM_LRUMV_DEACTIVATE_FILE);
	} else {
		lruvec_add_folio_tail(sim, pfn, to);
		count_vm_event(sim, MMSIM_PGROTATED);
		lru_move_event(sim, pfn, from, to | MMSIM_LRU_TAIL, MMSIM_LRUMV_DEACTIVATE_CLEAN);
	}
	if (active)
		count_vm_event(sim, MMSIM_PGDEACTIVATE);
	update_page_reclaim_stat(sim, folio, false);
}

/*
 * Drain one pagevec: run its function on every folio (pagevec_lru_move_fn),
 * then drop the references the pagevec held (release_pages(): a folio
 * whose last reference that was is freed here).
 */
static void pagevec_drain(struct mmsim *sim, uint32_t pv_id, uint32_t why)
{
	struct pagevec *pv = &sim->s.pvecs[pv_id];
	uint32_t nr = pv->nr;

	if (!nr)
		return;
	trace_mmsim_pagevec_drain(sim, pv_id, nr, why);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t pfn = pv->pages[i];

		if (pv_id < MMSIM_PVEC_ROTATE)
			pagevec_lru_add_fn(sim, pfn, pv_id);
		else if (pv_id == MMSIM_PVEC_ROTATE)
			pagevec_move_tail_fn(sim, pfn);
		else
			lru_deactivate_fn(sim, pfn);
	}
	pv->nr = 0;
	for (uint32_t i = 0; i < nr; i++)
		folio_put(sim, pv->pages[i]);
}

/* how many folios a pagevec holds: 14, except fadvise's deactivate batch (fadvise_batch_size()) */
static uint32_t pagevec_size(const struct mmsim *sim, uint32_t pv_id)
{
	return pv_id == MMSIM_PVEC_DEACTIVATE ? fadvise_batch_size(sim) : MMSIM_PAGEVEC_SIZE;
}

/* pagevec_add(): take a reference and queue; the 14th folio drains the pagevec */
static void pagevec_add(struct mmsim *sim, uint32_t pv_id, uint32_t pfn)
{
	struct pagevec *pv = &sim->s.pvecs[pv_id];

	folio_get(sim, pfn);
	pv->pages[pv->nr++] = pfn;
	trace_mmsim_pagevec_add(sim, page_tag(sim, pfn), pfn, pv_id, pv->nr);
	/*
	 * A large folio drains the pagevec at once: 2.6.39 had no large
	 * folios on this path, every kernel since v4.15 ("mm/swap.c: flush
	 * lru pvecs on compound page arrival"; 6.x folio_batch_add_and_move)
	 * does this, so a THP or mTHP never waits in a pagevec.
	 */
	if (unlikely(folio_test_large(pfn_to_page(sim, pfn))))
		pagevec_drain(sim, pv_id, 2);
	else if (pv->nr == pagevec_size(sim, pv_id))
		pagevec_drain(sim, pv_id, 0);
}

/* lru_add_drain(): every pagevec of this CPU, lru_add first, then rotate, then deactivate */
void lru_add_drain(struct mmsim *sim)
{
	for (uint32_t i = 0; i < MMSIM_NR_PVECS; i++)
		pagevec_drain(sim, i, 1);
}

/*
 * lru_cache_add_lru() / __lru_cache_add(): a new folio for the list lru,
 * through that list's pagevec (a stale PG_active is cleared first: the
 * pagevec decides). New page-cache folios go to the inactive file (or,
 * for tmpfs, anon) list; new anonymous folios to the active anon list
 * (page_add_new_anon_rmap() in 2.6.39).
 */
void lru_cache_add_lru(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru)
{
	struct page *folio = pfn_to_page(sim, pfn);

	VM_BUG_ON(folio_test(folio, lru));
	folio_clear(folio, active);
	folio_clear(folio, unevictable);
	pagevec_add(sim, lru, pfn);
}

/* lru_cache_add(): the folio's own inactive list, or its active one if PG_active is set (a refault) */
void folio_add_lru(struct mmsim *sim, uint32_t pfn)
{
	lru_cache_add_lru(sim, pfn, folio_lru_list(pfn_to_page(sim, pfn)));
}

/* activate_page() (not batched in 2.6.39): an inactive LRU folio to the head of the active list */
static void activate_page(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);
	int from;

	if (!folio_test(folio, lru) || folio_test(folio, active) || folio_test(folio, unevictable))
		return;
	from = folio_lru_list(folio);
	lruvec_del_folio(sim, pfn);
	folio_set(folio, active);
	lruvec_add_folio(sim, pfn, folio_lru_list(folio));
	count_vm_event(sim, MMSIM_PGACTIVATE);
	update_page_reclaim_stat(sim, folio, true);
	trace_mm_lru_activate(sim, page_tag(sim, pfn), pfn, folio_lru_list(folio), from);
}

/*
 * mark_page_accessed() (2.6.39): the first access sets PG_referenced, the
 * second activates an inactive folio - but only one already on an LRU
 * list: a folio still in its lru_add pagevec just stays referenced, and
 * reaches the inactive list so.
 *
 *     inactive, unreferenced  ->  inactive, referenced
 *     inactive, referenced    ->  active, unreferenced   (PG_lru only)
 *     active, unreferenced    ->  active, referenced
 *
 * 3.15's workingset detection counts an activation of a file folio as an
 * inactive-list event (workingset_activation: inactive_age++).
 */
void folio_mark_accessed(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (!folio_test(folio, active) && !folio_test(folio, unevictable) &&
	    folio_test(folio, referenced) && folio_test(folio, lru)) {
		activate_page(sim, pfn);
		folio_clear(folio, referenced);
		if (!folio_test(folio, swapbacked))
			workingset_activation(sim);
	} else if (!folio_test(folio, referenced)) {
		folio_set(folio, referenced);
	}
}

/*
 * rotate_reclaimable_page(): end_page_writeback() found PG_reclaim (set by
 * reclaim's pageout() or by fadvise's deactivation): if the folio is still
 * an unlocked, clean, inactive LRU folio, it goes to the tail, first in
 * line for reclaim (rule FD-WB).
 */
void rotate_reclaimable_page(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio_test(folio, locked) || folio_test(folio, dirty) || folio_test(folio, active) ||
	    folio_test(folio, unevictable) || !folio_test(folio, lru))
		return;
	pagevec_add(sim, MMSIM_PVEC_ROTATE, pfn);
}

/* deactivate_page() (2.6.39): queue a folio fadvise could not drop for lru_deactivate_fn() */
void deactivate_page(struct mmsim *sim, uint32_t pfn)
{
	if (pfn_to_page(sim, pfn)->_refcount > 0)
		pagevec_add(sim, MMSIM_PVEC_DEACTIVATE, pfn);
}

/* ------------------------------------------------------------- isolation (vmscan.c's) */

/* __isolate_lru_page() + list_move: off its list, PG_lru cleared, a reference taken */
void lru_isolate(struct mmsim *sim, uint32_t pfn)
{
	uint32_t lru = folio_lru_list(pfn_to_page(sim, pfn));

	lruvec_del_folio(sim, pfn);
	folio_get(sim, pfn);
	lru_move_event(sim, pfn, lru, MMSIM_NONE, MMSIM_LRUMV_ISOLATE);
}

/*
 * putback_lru_pages() / move_active_pages_to_lru() for one folio: to the
 * head of the list its flags now say, and the isolation reference
 * dropped.
 */
void lru_putback(struct mmsim *sim, uint32_t pfn, uint32_t from, uint32_t how)
{
	uint32_t lru = folio_lru_list(pfn_to_page(sim, pfn));

	lruvec_add_folio(sim, pfn, lru);
	lru_move_event(sim, pfn, from, lru, how);
	folio_put(sim, pfn);
}

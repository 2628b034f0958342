/* swap.h - swap.c: the LRU lists and pagevecs; the pfn lists they and the deferred split queue use */
#ifndef MMSIM_SWAP_H
#define MMSIM_SWAP_H

#include "internal.h"

/* swap.c: LRU and pagevecs, and folio_put() (which takes a folio off its LRU before freeing it) */
void folio_put(struct mmsim *sim, uint32_t pfn);
void lruvec_add_folio(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru);
void lruvec_add_folio_tail(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru);
void lruvec_del_folio(struct mmsim *sim, uint32_t pfn);
uint32_t lru_tail(const struct mmsim *sim, int lru);
int folio_lru_list(const struct page *folio);
void folio_add_lru(struct mmsim *sim, uint32_t pfn);
void lru_cache_add_lru(struct mmsim *sim, uint32_t pfn, enum mmsim_lru_list lru);
void lru_add_drain(struct mmsim *sim);
void folio_mark_accessed(struct mmsim *sim, uint32_t pfn);
void rotate_reclaimable_page(struct mmsim *sim, uint32_t pfn);
void deactivate_page(struct mmsim *sim, uint32_t pfn);

/*
 * fadvise's batches: 2.6.39's pagevec of 14, or under today's rules
 * (fadvise_dontneed: try-invalidate) a 6.10+ folio_batch of 31: the lookup
 * batch and the deactivate batch alike
 */
static inline uint32_t fadvise_batch_size(const struct mmsim *sim)
{
	return sim->s.hdr.fadvise_dontneed == MMSIM_FADVISE_TRY_INVALIDATE ?
		       MMSIM_FOLIO_BATCH_SIZE :
		       MMSIM_PAGEVEC_SIZE;
}
void update_page_reclaim_stat(struct mmsim *sim, const struct page *folio, bool rotated);
void lru_isolate(struct mmsim *sim, uint32_t pfn);
void lru_putback(struct mmsim *sim, uint32_t pfn, uint32_t from, uint32_t how);

/*
 * A circular list of pages linked by pfn through lru_next/lru_prev, *first
 * its first page (0: empty), the last one first->lru_prev: the LRU lists
 * (swap.c) and the deferred split queue (rmap.c).
 */
static inline void pfn_list_add(struct mmsim *sim, uint32_t *first, uint32_t pfn, bool at_head)
{
	struct page *p = pfn_to_page(sim, pfn);

	if (!*first) {
		p->lru_next = p->lru_prev = pfn;
		*first = pfn;
		return;
	}
	{
		struct page *f = pfn_to_page(sim, *first);
		uint32_t last = f->lru_prev;

		p->lru_next = *first;
		p->lru_prev = last;
		f->lru_prev = pfn;
		pfn_to_page(sim, last)->lru_next = pfn;
		if (at_head)
			*first = pfn;
	}
}

static inline void pfn_list_del(struct mmsim *sim, uint32_t *first, uint32_t pfn)
{
	struct page *p = pfn_to_page(sim, pfn);

	if (p->lru_next == pfn) {
		*first = 0;
	} else {
		pfn_to_page(sim, p->lru_prev)->lru_next = p->lru_next;
		pfn_to_page(sim, p->lru_next)->lru_prev = p->lru_prev;
		if (*first == pfn)
			*first = p->lru_next;
	}
	p->lru_next = p->lru_prev = 0;
}

#endif /* MMSIM_SWAP_H */

/* page_alloc.h - page_alloc.c: the buddy allocator and its watermarks */
#ifndef MMSIM_PAGE_ALLOC_H
#define MMSIM_PAGE_ALLOC_H

#include "internal.h"

/* page_alloc.c */
void page_alloc_init(struct mmsim *sim);
/* the page allocator with its watermarks: wakes kswapd below low, reclaims directly at min */
int alloc_pages(struct mmsim *sim, unsigned order, uint32_t *pfn, uint32_t use);
/* the buddy allocator alone (the page cache filled before step 1) */
int alloc_pages_nowmark(struct mmsim *sim, unsigned order, uint32_t *pfn, uint32_t use);
void free_pages(struct mmsim *sim, uint32_t pfn, unsigned order);
static inline int alloc_page(struct mmsim *sim, uint32_t *pfn, uint32_t use)
{
	return alloc_pages(sim, 0, pfn, use);
}
static inline void folio_get(struct mmsim *sim, uint32_t pfn)
{
	pfn_to_page(sim, pfn)->_refcount++;
}

#endif /* MMSIM_PAGE_ALLOC_H */

/*
 * page_alloc.c - page frames: the buddy allocator (mm/page_alloc.c).
 *
 * The machine has machine.memory / 4 KiB frames. mem_map (struct page per
 * pfn) grows lazily: pfns at or above high_water were never handed out and
 * cost no host memory, so a 64 GiB machine that uses 1 GiB of it costs
 * 1 GiB's worth of struct pages. Freed blocks go to per-order free lists and
 * merge with their buddy as in __free_one_page(); allocation takes the
 * smallest free block that fits and splits it (expand()), else carves a
 * naturally aligned block from the never-used range.
 *
 * pfn 0 is the shared zero page (my_zero_pfn); it is PG_reserved, never on an
 * LRU, never counted in a mapcount, and never freed.
 *
 * The allocator knows nothing of the LRU: whoever allocates a page-cache or
 * anonymous folio puts it on an LRU list (filemap_add_folio, the anonymous
 * and COW faults: folio_add_lru), and folio_put() (swap.c) takes it off
 * before it hands the frames back here.
 *
 * Watermarks (vmscan.c sets them, 2.6.39's __alloc_pages_nodemask and
 * slow path): an allocation that would leave free pages at the low
 * watermark wakes kswapd; one that would leave them at min reclaims first
 * (try_to_free_pages) and tries again; when a pass reclaims nothing, it
 * waits for the oldest write in flight if there is one, and goes on while
 * the zone is still reclaimable (scanned less than six times over since a
 * page was last freed); after that the zone is all_unreclaimable and the
 * caller sees MMSIM_EOOM (the kernel would call the OOM killer). The page
 * cache a scenario fills before step 1 (cached: all) is taken without
 * watermarks (alloc_pages_nowmark).
 *
 * Not modelled: zones and NUMA nodes (one ZONE_NORMAL), per-CPU page lists,
 * migratetypes, the reserves of atomic and PF_MEMALLOC allocations.
 */
#include "internal.h"
#include "page_alloc.h"
#include "vmscan.h"
#include "writeback.h"

static void __free_one_page(struct mmsim *sim, uint32_t pfn, unsigned order);

static inline void set_buddy(struct page *p, unsigned order)
{
	p->flags = PGTY(buddy);
	p->private = order;
}

static void free_list_add(struct mmsim *sim, uint32_t pfn, unsigned order)
{
	struct free_area *area = &sim->s.free_area[order];
	struct page *p = pfn_to_page(sim, pfn);

	set_buddy(p, order);
	p->lru_prev = 0;
	p->lru_next = area->head;
	if (area->head)
		pfn_to_page(sim, area->head)->lru_prev = pfn;
	area->head = pfn;
	area->nr_free++;
}

static void free_list_del(struct mmsim *sim, uint32_t pfn, unsigned order)
{
	struct free_area *area = &sim->s.free_area[order];
	struct page *p = pfn_to_page(sim, pfn);

	if (p->lru_prev)
		pfn_to_page(sim, p->lru_prev)->lru_next = p->lru_next;
	else
		area->head = p->lru_next;
	if (p->lru_next)
		pfn_to_page(sim, p->lru_next)->lru_prev = p->lru_prev;
	p->flags = 0;
	p->private = 0;
	p->lru_next = p->lru_prev = 0;
	area->nr_free--;
}

void page_alloc_init(struct mmsim *sim)
{
	struct page *zero;

	memset(sim->s.free_area, 0, sizeof(sim->s.free_area));
	sim->s.nr_frames = (uint32_t)(sim->s.hdr.memory >> PAGE_SHIFT);
	/* pfn 0: the zero page */
	pool_reserve(sim, POOL_PAGE, 1);
	sim->s.pools[POOL_PAGE].nr = 1;
	sim->s.high_water = 1;
	zero = pfn_to_page(sim, 0);
	memset(zero, 0, sizeof(*zero));
	zero->flags = PF(reserved) | PF(uptodate);
	zero->_refcount = 1;
	zero->_mapcount = -1;
	sim->s.counters[MMSIM_NR_FREE_PAGES] = sim->s.nr_frames - 1;
}

/* hand out [pfn, pfn + 2^order) from the never-used range, aligned */
static int carve(struct mmsim *sim, unsigned order, uint32_t *pfn)
{
	uint64_t n = 1ull << order;
	uint64_t start = ALIGN_UP((uint64_t)sim->s.high_water, n);
	int err;

	if (start + n > sim->s.nr_frames)
		return MMSIM_EOOM;
	uint64_t gap = sim->s.high_water;

	err = pool_reserve(sim, POOL_PAGE, (uint32_t)(start + n));
	if (err)
		return err;
	for (uint64_t p = gap; p < start + n; p++)
		memset(pfn_to_page(sim, (uint32_t)p), 0, sizeof(struct page));
	sim->s.high_water = (uint32_t)(start + n);
	sim->s.pools[POOL_PAGE].nr = sim->s.high_water;
	/* the alignment gap becomes free blocks, largest aligned first */
	for (uint64_t p = gap; p < start;) {
		unsigned o = 0;

		while (o < MAX_PAGE_ORDER && !(p & ((2ull << o) - 1)) && p + (2ull << o) <= start)
			o++;
		__free_one_page(sim, (uint32_t)p, o);
		p += 1ull << o;
	}
	*pfn = (uint32_t)start;
	return 0;
}

static void prep_new_page(struct mmsim *sim, uint32_t pfn, unsigned order)
{
	struct page *p = pfn_to_page(sim, pfn);

	memset(p, 0, sizeof(*p));
	p->_refcount = 1;
	p->_mapcount = -1;
	if (order) {
		struct page *p1 = pfn_to_page(sim, pfn + 1);

		p->flags |= PF(head);
		for (uint32_t i = 1; i < (1u << order); i++) {
			struct page *t = pfn_to_page(sim, pfn + i);

			memset(t, 0, sizeof(*t));
			t->flags = PF(tail);
			t->private = pfn;
			t->_mapcount = -1;
		}
		/* prep_compound_head(): order in page[1], mapcounts biased at -1 */
		p1->flags |= order;
		p1->_large_mapcount = -1;
		p1->_entire_mapcount = -1;
		p1->_nr_pages_mapped = 0;
		p1->_pincount = 0;
	}
}

int alloc_pages_nowmark(struct mmsim *sim, unsigned order, uint32_t *pfn, uint32_t use)
{
	unsigned o;
	int err;

	for (o = order; o <= MAX_PAGE_ORDER; o++)
		if (sim->s.free_area[o].head)
			break;
	if (o <= MAX_PAGE_ORDER) {
		uint32_t p = sim->s.free_area[o].head;

		free_list_del(sim, p, o);
		/* expand(): give back the upper halves */
		while (o > order) {
			o--;
			free_list_add(sim, p + (1u << o), o);
		}
		*pfn = p;
	} else {
		err = carve(sim, order, pfn);
		if (err)
			return err;
	}
	prep_new_page(sim, *pfn, order);
	mod_node_page_state(sim, MMSIM_NR_FREE_PAGES, -(int64_t)(1u << order));
	count_vm_events(sim, MMSIM_PGALLOC_NORMAL, 1u << order);
	trace_mm_page_alloc(sim, *pfn, order, use);
	return 0;
}

/*
 * __alloc_pages_nodemask() + __alloc_pages_slowpath() for one zone: the
 * fast path against the low watermark, kswapd woken and the min watermark
 * tried, then direct reclaim until the allocation fits or the zone is
 * found all_unreclaimable.
 */
int alloc_pages(struct mmsim *sim, unsigned order, uint32_t *pfn, uint32_t use)
{
	struct mmsim_state *s = &sim->s;

	if (likely(zone_watermark_ok(sim, order, s->wmark[1])) || s->reclaiming)
		return alloc_pages_nowmark(sim, order, pfn, use);
	wakeup_kswapd(sim);
	for (;;) {
		if (zone_watermark_ok(sim, order, s->wmark[0]))
			return alloc_pages_nowmark(sim, order, pfn, use);
		if (try_to_free_pages(sim))
			continue;
		/* nothing reclaimed: wait for a write to end (congestion_wait), or scan again while it may help */
		if (writeback_wait_oldest(sim))
			continue;
		if (!s->all_unreclaimable && zone_reclaimable(sim))
			continue;
		s->all_unreclaimable = 1;
		return MMSIM_EOOM;
	}
}

/* __free_one_page(): merge with free buddies, then put on a free list */
static void __free_one_page(struct mmsim *sim, uint32_t pfn, unsigned order)
{
	while (order < MAX_PAGE_ORDER) {
		uint32_t buddy = pfn ^ (1u << order);
		struct page *b;

		if (buddy == 0 || buddy >= sim->s.high_water)
			break;
		b = pfn_to_page(sim, buddy);
		if (!(b->flags & PGTY(buddy)) || b->private != order)
			break;
		free_list_del(sim, buddy, order);
		pfn &= buddy;
		order++;
	}
	free_list_add(sim, pfn, order);
}

void free_pages(struct mmsim *sim, uint32_t pfn, unsigned order)
{
	VM_BUG_ON(pfn == 0);
	/* free_one_page(): a freed page makes the zone reclaimable again */
	sim->s.all_unreclaimable = 0;
	sim->s.pages_scanned = 0;
	mod_node_page_state(sim, MMSIM_NR_FREE_PAGES, 1u << order);
	count_vm_events(sim, MMSIM_PGFREE, 1u << order);
	for (uint32_t i = 0; i < (1u << order); i++)
		memset(pfn_to_page(sim, pfn + i), 0, sizeof(struct page));
	__free_one_page(sim, pfn, order);
	trace_mm_page_free(sim, pfn, order); /* once it is free (trace.c) */
}

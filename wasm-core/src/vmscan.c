/*
 * vmscan.c - page reclaim: kswapd and direct reclaim (mm/vmscan.c and the
 * watermarks of mm/page_alloc.c, as in Linux 2.6.39).
 *
 * The machine's memory is one zone with three watermarks, set at boot from
 * min_free_kbytes = int_sqrt(16 x KiB of memory) (128 .. 65536):
 *
 *     free pages   high = min + min/2   kswapd stops here (balanced)
 *                  low  = min + min/4   an allocation below wakes kswapd
 *                  min                  an allocation below reclaims itself
 *
 * (zone_watermark_ok() in 2.6.39 subtracts 1 << order + 1 from the free
 * count before comparing: order 0 needs free - 2 > mark.) kswapd is the
 * background: woken, it runs balance_pgdat() - one priority pass per tick
 * of the model's clock here, at priority 12 down to 0 - until free pages
 * are above high. Direct reclaim (try_to_free_pages) runs inside an
 * allocation that found free pages at min, until it has 32
 * (SWAP_CLUSTER_MAX) pages.
 *
 * Each pass is shrink_zone(): get_scan_count() decides how much of each
 * list to scan, size >> priority (accumulated in nr_saved_scan until at
 * least 32); without swap the anon lists get nothing, so only the file
 * lists are ever reclaimed (anonymous memory cannot be reclaimed without
 * swap, which this model does not have). The lists are scanned from their
 * tails, 32 at a time:
 *
 *   inactive file  shrink_inactive_list -> shrink_page_list, per page:
 *                  locked (read in flight)            keep
 *                  under writeback                    keep (back to the head)
 *                  page_check_references():
 *                    mapped, a young PTE, referenced  activate
 *                    mapped, a young PTE              PG_referenced, keep
 *                    PG_referenced only, dirty        keep (let writeback clean it)
 *                  mapped                             try_to_unmap (young: activate)
 *                  dirty                              pageout: PG_reclaim, write, keep
 *                  an extra reference                 keep
 *                  else                               __remove_mapping: freed,
 *                                                     a shadow left (workingset.c)
 *   active file    shrink_active_list, only while the active file list is
 *                  longer than the inactive one: every page to the inactive
 *                  head (young PTEs cleared on the way; only executable
 *                  file pages, which the model has none of, stay active)
 *
 * Survivors go back to the head of their list. Counters: pgscan_kswapd /
 * pgscan_direct (pgscan their sum), pgsteal (and kswapd_steal), pgrefill,
 * pgdeactivate, pgactivate, nr_vmscan_write, pageoutrun, allocstall.
 *
 * Not modelled: swap, slab shrinkers (but the deferred split one, which
 * shrink_zone() runs), lumpy reclaim and compaction (order
 * 0 only), memcg, the swap token, several zones and nodes, laptop_mode,
 * kswapd's short nap before it sleeps, and the congestion waits (no time
 * passes inside reclaim; a reclaimer with nothing left but pages under
 * writeback waits for the oldest write instead).
 */
#include "internal.h"
#include "filemap.h"
#include "huge_mm.h"
#include "page_alloc.h"
#include "rmap.h"
#include "swap.h"
#include "vmscan.h"
#include "writeback.h"

#define SWAP_CLUSTER_MAX 32u
#define DEF_PRIORITY 12

struct scan_control {
	uint64_t nr_to_reclaim;
	uint64_t nr_reclaimed;
	uint64_t nr_scanned; /* this pass (shrink_page_list's count) */
	int priority;
	bool kswapd;
};

static uint32_t int_sqrt64(uint64_t x)
{
	uint64_t r = 0;

	for (uint64_t b = 1ull << 62; b; b >>= 2) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return (uint32_t)r;
}

/*
 * init_per_zone_wmark_min() + setup_per_zone_wmarks() for the one zone,
 * and calculate_zone_inactive_ratio(). The zone's present pages are the
 * machine's frames (the kernel's present_pages also leaves out the
 * memory map, which the simulated machine does not hold).
 */
void setup_per_zone_wmarks(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint64_t kbytes = s->hdr.min_free_kbytes, gb = s->nr_frames >> (30 - PAGE_SHIFT);
	uint32_t min;

	if (!kbytes) {
		kbytes = int_sqrt64((uint64_t)s->nr_frames * (PAGE_SIZE / 1024) * 16);
		kbytes = MAX(128u, MIN(kbytes, 65536u));
	}
	min = (uint32_t)MIN(kbytes >> (PAGE_SHIFT - 10), (uint64_t)s->nr_frames);
	s->wmark[0] = min;
	s->wmark[1] = min + (min >> 2);
	s->wmark[2] = min + (min >> 1);
	s->inactive_ratio = gb ? int_sqrt64(10 * gb) : 1;
}

/* zone_watermark_ok() (2.6.39), one zone, no reserves: free - (1 << order) - 1 > mark, and enough free at each order */
bool zone_watermark_ok(const struct mmsim *sim, unsigned order, uint64_t mark)
{
	int64_t free_pages = (int64_t)sim->s.counters[MMSIM_NR_FREE_PAGES] - (1 << order) - 1;
	int64_t min = (int64_t)mark;

	if (free_pages <= min)
		return false;
	for (unsigned o = 0; o < order; o++) {
		free_pages -= (int64_t)sim->s.free_area[o].nr_free << o;
		min >>= 1;
		if (free_pages <= min)
			return false;
	}
	return true;
}

/* zone_reclaimable_pages() (the file lists: no swap) and zone_reclaimable() */
static uint64_t zone_reclaimable_pages(const struct mmsim *sim)
{
	return sim->s.counters[MMSIM_NR_ACTIVE_FILE] + sim->s.counters[MMSIM_NR_INACTIVE_FILE];
}

bool zone_reclaimable(const struct mmsim *sim)
{
	return sim->s.pages_scanned < zone_reclaimable_pages(sim) * 6;
}

/* ------------------------------------------------------------- shrink_page_list */

enum page_references { PAGEREF_RECLAIM, PAGEREF_RECLAIM_CLEAN, PAGEREF_KEEP, PAGEREF_ACTIVATE };

/*
 * page_check_references() (2.6.39): the young PTEs (sampled and cleared
 * through rmap) and PG_referenced (always cleared here) decide.
 */
static enum page_references page_check_references(struct mmsim *sim, uint32_t pfn, uint32_t *ptes)
{
	struct page *folio = pfn_to_page(sim, pfn);
	uint32_t referenced_ptes = page_referenced(sim, pfn, NULL);
	bool referenced_page = folio_test(folio, referenced);

	folio_clear(folio, referenced);
	*ptes = referenced_ptes;
	if (referenced_ptes) {
		if (folio_test_anon(folio))
			return PAGEREF_ACTIVATE;
		/*
		 * Every mapped page starts with a young PTE from the fault that
		 * mapped it: look twice before activating a mapped file page.
		 */
		folio_set(folio, referenced);
		return referenced_page ? PAGEREF_ACTIVATE : PAGEREF_KEEP;
	}
	/* reclaim if clean, defer dirty pages to writeback */
	if (referenced_page && !folio_test(folio, swapbacked))
		return PAGEREF_RECLAIM_CLEAN;
	return PAGEREF_RECLAIM;
}

/*
 * pageout(): a dirty page reclaim met. Only a page held by the page cache
 * and the scan alone may be written (is_page_cache_freeable); it gets
 * PG_reclaim, so that the end of its write rotates it to the tail.
 */
static bool pageout(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio->_refcount != 2)
		return false;
	if (!clear_page_dirty_for_io(sim, pfn))
		return true; /* PAGE_CLEAN: cleaned meanwhile */
	folio_set(folio, reclaim);
	count_vm_event(sim, MMSIM_NR_VMSCAN_WRITE);
	trace_mm_vmscan_writepage(sim, page_tag(sim, pfn), pfn, folio->mapping - 1, folio->index);
	writeback_submit(sim, folio->mapping - 1, folio->index, 1, MMSIM_WB_RECLAIM);
	return true;
}

/*
 * __remove_mapping(): only the page cache's reference and the scan's may
 * remain (an extra one - a pagevec, a reader - keeps the page), and it must
 * still be clean. The page leaves the page cache, a shadow of its eviction
 * in its slot, and is freed.
 */
static bool remove_mapping_reclaim(struct mmsim *sim, uint32_t pfn)
{
	struct page *folio = pfn_to_page(sim, pfn);

	if (folio->_refcount != 2 || folio_test(folio, dirty))
		return false;
	filemap_remove_folio(sim, folio->mapping - 1, pfn, xa_mk_value(workingset_eviction(sim)));
	folio_put(sim, pfn); /* the scan's reference: the last one */
	return true;
}

/* one page of shrink_page_list(): its verdict; the page survives unless MMSIM_SHRINK_RECLAIMED */
static uint32_t shrink_one(struct mmsim *sim, struct scan_control *sc, uint32_t pfn, uint32_t *ptes)
{
	struct page *folio = pfn_to_page(sim, pfn);
	enum page_references refs;

	*ptes = 0;
	if (folio_test(folio, locked))
		return MMSIM_SHRINK_LOCKED; /* trylock_page() failed: read I/O in flight */
	sc->nr_scanned++;
	if (folio_mapcount(sim, pfn))
		sc->nr_scanned++;
	if (folio_test(folio, writeback))
		return MMSIM_SHRINK_WRITEBACK;
	refs = page_check_references(sim, pfn, ptes);
	if (refs == PAGEREF_ACTIVATE)
		return MMSIM_SHRINK_ACTIVATE;
	if (refs == PAGEREF_KEEP)
		return MMSIM_SHRINK_KEEP;
	if (folio_test_anon(folio) || folio_test(folio, swapbacked))
		return MMSIM_SHRINK_ANON; /* add_to_swap() fails: no swap */
	if (folio_mapcount(sim, pfn) && try_to_unmap(sim, pfn))
		return MMSIM_SHRINK_UNMAP_FAIL;
	if (folio_test(folio, dirty)) {
		if (refs == PAGEREF_RECLAIM_CLEAN)
			return MMSIM_SHRINK_KEEP_DIRTY;
		if (!pageout(sim, pfn))
			return MMSIM_SHRINK_BUSY;
		if (folio_test(folio, writeback))
			return MMSIM_SHRINK_PAGEOUT;
	}
	if (!remove_mapping_reclaim(sim, pfn))
		return MMSIM_SHRINK_BUSY;
	return MMSIM_SHRINK_RECLAIMED;
}

/*
 * shrink_page_list() over pages (isolated, oldest first), then the
 * survivors back to the head of their lists (putback_lru_pages), the
 * activated ones to the active list. Returns the pages reclaimed.
 */
static uint64_t shrink_page_list(struct mmsim *sim, struct scan_control *sc, const uint32_t *pages,
				 uint32_t n)
{
	uint64_t reclaimed = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t pfn = pages[i], ptes, flags = pfn_to_page(sim, pfn)->flags;
		uint64_t tag = page_tag(sim, pfn); /* before: a reclaimed page has no name left */
		uint32_t from = folio_lru_list(pfn_to_page(sim, pfn)),
			 v = shrink_one(sim, sc, pfn, &ptes);
		bool activate = v == MMSIM_SHRINK_ACTIVATE || v == MMSIM_SHRINK_UNMAP_FAIL ||
				v == MMSIM_SHRINK_ANON;

		trace_mmsim_shrink_page(sim, tag, pfn, v, ptes, flags);
		if (v == MMSIM_SHRINK_RECLAIMED) {
			reclaimed++;
			continue;
		}
		if (activate) {
			/* activate_locked */
			folio_set(pfn_to_page(sim, pfn), active);
			count_vm_event(sim, MMSIM_PGACTIVATE);
			update_page_reclaim_stat(sim, pfn_to_page(sim, pfn), true);
		}
		lru_putback(sim, pfn, from, activate ? MMSIM_LRUMV_ACTIVATE : MMSIM_LRUMV_PUTBACK);
	}
	return reclaimed;
}

/* isolate_lru_pages(): up to nr from the tail of list lru; the pfns go to out, oldest first */
static uint32_t isolate_lru_pages(struct mmsim *sim, uint32_t lru, uint32_t nr, uint32_t *out)
{
	uint32_t n = 0;

	while (n < nr) {
		uint32_t pfn = lru_tail(sim, lru);

		if (!pfn)
			break;
		/* a large page-cache folio: the model reclaims order-0 folios (filemap_split_folio) */
		if (folio_test_large(pfn_to_page(sim, pfn)) &&
		    !folio_test_anon(pfn_to_page(sim, pfn))) {
			filemap_split_folio(sim, pfn);
			continue;
		}
		lru_isolate(sim, pfn);
		out[n++] = pfn;
	}
	return n;
}

/* shrink_inactive_list(): scan nr pages of an inactive list's tail */
static uint64_t shrink_inactive_list(struct mmsim *sim, struct scan_control *sc, uint32_t nr,
				     bool file)
{
	uint32_t pages[SWAP_CLUSTER_MAX],
		lru = file ? MMSIM_LRU_INACTIVE_FILE : MMSIM_LRU_INACTIVE_ANON, n;
	uint64_t reclaimed;

	lru_add_drain(sim);
	n = isolate_lru_pages(sim, lru, MIN(nr, SWAP_CLUSTER_MAX), pages);
	sim->s.pages_scanned += n;
	count_vm_events(sim, sc->kswapd ? MMSIM_PGSCAN_KSWAPD : MMSIM_PGSCAN_DIRECT, n);
	count_vm_events(sim, MMSIM_PGSCAN, n);
	sim->s.recent_scanned[file] += n;
	if (!n)
		return 0;
	trace_mm_vmscan_lru_isolate(sim, lru, n, n, sc->priority);
	reclaimed = shrink_page_list(sim, sc, pages, n);
	if (sc->kswapd)
		count_vm_events(sim, MMSIM_KSWAPD_STEAL, reclaimed);
	count_vm_events(sim, MMSIM_PGSTEAL, reclaimed);
	trace_mm_vmscan_lru_shrink_inactive(sim, file, n, reclaimed, sc->priority);
	return reclaimed;
}

/*
 * shrink_active_list() (2.6.39): nr pages off the active tail; young PTEs
 * are sampled (and cleared) but, the model having no executable mappings,
 * every page goes to the inactive head, PG_referenced as it was.
 */
static void shrink_active_list(struct mmsim *sim, struct scan_control *sc, uint32_t nr, bool file)
{
	uint32_t pages[SWAP_CLUSTER_MAX],
		lru = file ? MMSIM_LRU_ACTIVE_FILE : MMSIM_LRU_ACTIVE_ANON, n;
	uint32_t rotated = 0;

	lru_add_drain(sim);
	n = isolate_lru_pages(sim, lru, MIN(nr, SWAP_CLUSTER_MAX), pages);
	sim->s.pages_scanned += n;
	count_vm_events(sim, MMSIM_PGREFILL, n);
	sim->s.recent_scanned[file] += n;
	if (!n)
		return;
	trace_mm_vmscan_lru_isolate(sim, lru, n, n, sc->priority);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t vm_flags = 0;

		if (page_referenced(sim, pages[i], &vm_flags))
			rotated++; /* (a VM_EXEC file page would stay active here) */
		folio_clear(pfn_to_page(sim, pages[i]), active);
	}
	sim->s.recent_rotated[file] += rotated;
	for (uint32_t i = 0; i < n; i++)
		lru_putback(sim, pages[i], lru, MMSIM_LRUMV_DEACTIVATE);
	count_vm_events(sim, MMSIM_PGDEACTIVATE, n);
	trace_mm_vmscan_lru_shrink_active(sim, file, n, rotated, n);
}

/* inactive_anon_is_low() is false without swap; inactive_file_is_low(): active > inactive */
static bool inactive_file_is_low(const struct mmsim *sim)
{
	return sim->s.counters[MMSIM_NR_ACTIVE_FILE] > sim->s.counters[MMSIM_NR_INACTIVE_FILE];
}

/* shrink_list(): an active list only while its inactive list is short; returns pages reclaimed */
static uint64_t shrink_list(struct mmsim *sim, struct scan_control *sc, uint32_t lru, uint32_t nr)
{
	bool file = lru == MMSIM_LRU_INACTIVE_FILE || lru == MMSIM_LRU_ACTIVE_FILE;

	if (lru == MMSIM_LRU_ACTIVE_FILE || lru == MMSIM_LRU_ACTIVE_ANON) {
		if (file && inactive_file_is_low(sim))
			shrink_active_list(sim, sc, nr, file);
		return 0;
	}
	return shrink_inactive_list(sim, sc, nr, file);
}

/* nr_scan_try_batch(): small scans add up in the zone until they make 32 */
static uint64_t nr_scan_try_batch(uint64_t nr_to_scan, uint64_t *saved)
{
	*saved += nr_to_scan;
	if (*saved >= SWAP_CLUSTER_MAX) {
		uint64_t n = *saved;

		*saved = 0;
		return n;
	}
	return 0;
}

/*
 * get_scan_count() without swap (noswap: fraction {0, 1}): the file lists
 * get size >> priority each, the anon lists nothing.
 */
static void get_scan_count(struct mmsim *sim, int priority, uint64_t nr[4])
{
	for (int l = 0; l < 4; l++) {
		bool file = l >= MMSIM_LRU_INACTIVE_FILE;
		uint64_t scan = file ? sim->s.lruvec.nr[l] >> priority : 0;

		nr[l] = nr_scan_try_batch(scan, &sim->s.nr_saved_scan[l]);
	}
}

/* shrink_zone(): the lists in turns of 32 pages, until each has had its share (or enough was reclaimed) */
static void shrink_zone(struct mmsim *sim, struct scan_control *sc)
{
	static const uint32_t order[4] = {
		MMSIM_LRU_INACTIVE_ANON,
		MMSIM_LRU_ACTIVE_ANON,
		MMSIM_LRU_INACTIVE_FILE,
		MMSIM_LRU_ACTIVE_FILE,
	};
	uint64_t nr[4], nr_reclaimed = sc->nr_reclaimed;

	get_scan_count(sim, sc->priority, nr);
	while (nr[MMSIM_LRU_INACTIVE_ANON] || nr[MMSIM_LRU_ACTIVE_FILE] ||
	       nr[MMSIM_LRU_INACTIVE_FILE]) {
		for (int k = 0; k < 4; k++) {
			uint32_t l = order[k], n;

			if (!nr[l])
				continue;
			n = (uint32_t)MIN(nr[l], (uint64_t)SWAP_CLUSTER_MAX);
			nr[l] -= n;
			nr_reclaimed += shrink_list(sim, sc, l, n);
		}
		/* direct reclaim stops once it has enough, except at the first priority */
		if (nr_reclaimed >= sc->nr_to_reclaim && sc->priority < DEF_PRIORITY)
			break;
	}
	/*
	 * shrink_slab() after the lists (2.6.39 calls it once per priority
	 * pass, as here): the one shrinker modelled is 6.x's deferred split
	 * queue (huge_memory.c); the pages it frees count as reclaimed, as
	 * reclaim_state->reclaimed_slab does.
	 */
	if (sim->s.deferred_split_head)
		nr_reclaimed += deferred_split_scan(sim);
	sc->nr_reclaimed = nr_reclaimed;
}

/* ------------------------------------------------------------- direct reclaim */

/*
 * try_to_free_pages() / do_try_to_free_pages(): priority 12 down to 0
 * until 32 pages are reclaimed; past 48 pages scanned the flusher is woken
 * for as many pages. An all_unreclaimable zone is tried at priority 12
 * only. Returns the pages reclaimed. Runs with PF_MEMALLOC: an allocation
 * inside it (none in this model) would not reclaim again.
 */
uint64_t try_to_free_pages(struct mmsim *sim)
{
	struct scan_control sc = { .nr_to_reclaim = SWAP_CLUSTER_MAX, .kswapd = false };
	uint64_t total_scanned = 0;

	count_vm_event(sim, MMSIM_ALLOCSTALL);
	trace_mm_vmscan_direct_reclaim_begin(sim, sim->s.counters[MMSIM_NR_FREE_PAGES],
					     sim->s.wmark[0]);
	sim->s.reclaiming = 1;
	for (sc.priority = DEF_PRIORITY; sc.priority >= 0; sc.priority--) {
		sc.nr_scanned = 0;
		if (!sim->s.all_unreclaimable || sc.priority == DEF_PRIORITY)
			shrink_zone(sim, &sc);
		total_scanned += sc.nr_scanned;
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
		if (total_scanned > SWAP_CLUSTER_MAX + SWAP_CLUSTER_MAX / 2)
			writeback_inodes(sim, total_scanned,
					 MMSIM_WB_BACKGROUND); /* wakeup_flusher_threads() */
	}
	sim->s.reclaiming = 0;
	trace_mm_vmscan_direct_reclaim_end(sim, sc.nr_reclaimed, total_scanned);
	return sc.nr_reclaimed;
}

/* ------------------------------------------------------------- kswapd */

/* wakeup_kswapd(): kswapd, asleep, is woken if free pages are at the low watermark */
void wakeup_kswapd(struct mmsim *sim)
{
	struct kswapd_state *k = &sim->s.kswapd;

	if (k->running || zone_watermark_ok(sim, 0, sim->s.wmark[1]))
		return;
	k->running = 1;
	k->in_loop = 0;
	count_vm_event(sim, MMSIM_MODEL_KSWAPD_WAKEUPS);
	trace_mm_vmscan_kswapd_wake(sim, sim->s.counters[MMSIM_NR_FREE_PAGES], sim->s.wmark[1]);
}

static void kswapd_sleep(struct mmsim *sim)
{
	sim->s.kswapd.running = 0;
	sim->s.kswapd.in_loop = 0;
	trace_mm_vmscan_kswapd_sleep(sim, sim->s.counters[MMSIM_NR_FREE_PAGES], sim->s.wmark[2],
				     sim->s.all_unreclaimable);
}

/*
 * One tick of kswapd: one priority pass of balance_pgdat() (order 0, one
 * zone). A run (loop_again) starts at priority 12; a pass shrinks the zone
 * if free pages are under high + balance_gap; kswapd is done (and sleeps)
 * once they are over high; a run that reclaimed 32 pages, or reached
 * priority 0, starts again. A zone scanned six times over without a page
 * freed is all_unreclaimable (freeing a page clears it): kswapd then tries
 * only at priority 12 and sleeps.
 */
void kswapd_run(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	struct kswapd_state *k = &s->kswapd;
	uint64_t gap = MIN((uint64_t)s->wmark[1], ((uint64_t)s->nr_frames + 99) / 100);
	struct scan_control sc = { .nr_to_reclaim = UINT64_MAX, .kswapd = true };

	if (!k->running)
		return;
	if (!k->in_loop) {
		k->in_loop = 1;
		k->priority = DEF_PRIORITY;
		k->nr_reclaimed = 0;
		k->total_scanned = 0;
		count_vm_event(sim, MMSIM_PAGEOUTRUN);
	}
	if ((s->all_unreclaimable && k->priority != DEF_PRIORITY) ||
	    zone_watermark_ok(sim, 0, s->wmark[2])) {
		kswapd_sleep(sim);
		return;
	}
	sc.priority = (int)k->priority;
	sc.nr_reclaimed = k->nr_reclaimed;
	s->reclaiming = 1;
	if (!zone_watermark_ok(sim, 0, s->wmark[2] + gap))
		shrink_zone(sim, &sc);
	s->reclaiming = 0;
	k->total_scanned += sc.nr_scanned;
	k->nr_reclaimed = sc.nr_reclaimed;
	if (!s->all_unreclaimable && !zone_reclaimable(sim))
		s->all_unreclaimable = 1;
	trace_mmsim_kswapd_pass(sim, k->priority, k->nr_reclaimed, sc.nr_scanned,
				s->counters[MMSIM_NR_FREE_PAGES]);
	if (zone_watermark_ok(sim, 0, s->wmark[2])) {
		kswapd_sleep(sim);
		return;
	}
	if (k->nr_reclaimed >= SWAP_CLUSTER_MAX || k->priority == 0)
		k->in_loop = 0; /* goto loop_again */
	else
		k->priority--;
}

/* ------------------------------------------------------------- queries (the view's) */

int mmsim_lru_info(const struct mmsim *sim, struct mmsim_lru_info *out)
{
	const struct mmsim_state *s = &sim->s;
	uint64_t bg, dirty;

	memset(out, 0, sizeof(*out));
	if (!s->loaded)
		return MMSIM_ESTATE;
	out->clock = s->clock;
	out->inactive_age = s->inactive_age;
	for (int l = 0; l < MMSIM_NR_LRU_LISTS; l++)
		out->nr[l] = s->lruvec.nr[l];
	for (int p = 0; p < MMSIM_NR_PVECS; p++)
		out->pvec[p] = s->pvecs[p].nr;
	out->free = (uint32_t)s->counters[MMSIM_NR_FREE_PAGES];
	out->wmark_min = s->wmark[0];
	out->wmark_low = s->wmark[1];
	out->wmark_high = s->wmark[2];
	out->kswapd = s->kswapd.running;
	out->kswapd_priority = s->kswapd.in_loop ? s->kswapd.priority : DEF_PRIORITY;
	out->all_unreclaimable = s->all_unreclaimable;
	out->inactive_ratio = s->inactive_ratio;
	out->dirty = (uint32_t)s->counters[MMSIM_NR_DIRTY];
	out->writeback = (uint32_t)s->counters[MMSIM_NR_WRITEBACK];
	global_dirty_limits(sim, &bg, &dirty);
	out->bg_thresh = (uint32_t)bg;
	out->dirty_thresh = (uint32_t)dirty;
	out->wb_requests = s->wb_count;
	out->congested = s->wb_congested;
	return 0;
}

uint32_t mmsim_lru_tail(const struct mmsim *sim, uint32_t list, uint32_t *out, uint32_t max)
{
	uint32_t n = 0, head, p;

	if (list >= MMSIM_NR_LRU_LISTS || !(head = sim->s.lruvec.head[list]))
		return 0;
	p = pfn_to_page(sim, head)->lru_prev;
	while (n < max) {
		out[n++] = p;
		if (p == head)
			break;
		p = pfn_to_page(sim, p)->lru_prev;
	}
	return n;
}

uint32_t mmsim_pagevec(const struct mmsim *sim, uint32_t pvec, uint32_t *out, uint32_t max)
{
	uint32_t n;

	if (pvec >= MMSIM_NR_PVECS)
		return 0;
	n = MIN(max, sim->s.pvecs[pvec].nr);
	memcpy(out, sim->s.pvecs[pvec].pages, n * sizeof(*out));
	return n;
}

/* ------------------------------------------------------------- the native tests' handles */

/* one shrink_inactive_list() of nr pages of the inactive file list's tail, as kswapd at priority 12 */
uint64_t vmscan_shrink_file_inactive(struct mmsim *sim, uint32_t nr)
{
	struct scan_control sc = { .nr_to_reclaim = UINT64_MAX,
				   .priority = DEF_PRIORITY,
				   .kswapd = true };

	return shrink_inactive_list(sim, &sc, nr, true);
}

/* one shrink_active_list() of nr pages of the active file list's tail */
void vmscan_shrink_file_active(struct mmsim *sim, uint32_t nr)
{
	struct scan_control sc = { .nr_to_reclaim = UINT64_MAX,
				   .priority = DEF_PRIORITY,
				   .kswapd = true };

	shrink_active_list(sim, &sc, nr, true);
}

#define MAX_BANDS 512

uint32_t mmsim_lru_bands(const struct mmsim *sim, uint32_t list, uint32_t nbands,
			 struct mmsim_lru_band *out, uint32_t max)
{
	uint32_t votes[MAX_BANDS], head, p, n = MIN(MIN(nbands, max), MAX_BANDS), total, i = 0;

	if (list >= MMSIM_NR_LRU_LISTS || !n || !(head = sim->s.lruvec.head[list]))
		return 0;
	total = sim->s.lruvec.nr[list];
	n = MIN(n, total);
	memset(out, 0, n * sizeof(*out));
	memset(votes, 0, n * sizeof(votes[0]));
	p = head;
	do {
		const struct page *pg = pfn_to_page(sim, p);
		uint32_t k = (uint32_t)((uint64_t)i * n / total),
			 file = (pg->flags & PF(anon)) ? 0 : pg->mapping;
		struct mmsim_lru_band *b = &out[k];

		if (b->pages && b->file != file)
			b->mixed = 1;
		/* the majority file by Boyer-Moore's vote (exact when one file holds more than half) */
		if (!votes[k])
			b->file = file, votes[k] = 1;
		else
			votes[k] += b->file == file ? 1 : -1;
		b->pages++;
		b->dirty += (pg->flags & PF(dirty)) != 0;
		b->writeback += (pg->flags & PF(writeback)) != 0;
		b->referenced += (pg->flags & PF(referenced)) != 0;
		b->reclaim += (pg->flags & PF(reclaim)) != 0;
		b->mapped += pg->_mapcount >= 0;
		i += 1u << folio_order(sim, p);
		p = pg->lru_next;
	} while (p != head && i < total);
	return n;
}

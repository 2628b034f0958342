/*
 * debug_vm.c - the invariant checker (in the spirit of CONFIG_DEBUG_VM).
 *
 * Recomputes everything the model keeps incrementally and compares:
 *  - frames: free-list blocks + never-used frames == nr_free_pages; every
 *    frame below high_water is free, a page table, the zero page, or a folio
 *    page that something owns (a page cache, or a PTE for anon) - no leaks;
 *  - page tables: each table page reached from exactly one entry (or an
 *    mm's pgd); nr_page_table_pages and per-mm counts agree;
 *  - PTEs: point at allocated folio pages, lie inside a VMA, are writable
 *    only in VM_WRITE VMAs; per-page _mapcount + 1 == number of PTEs;
 *  - PMD leaves (THP): wholly inside a private anon VMA, the huge zero
 *    page or an order-9 anon head, one deposited empty table each; a large
 *    folio's _large_mapcount + 1 == PTEs + PMDs, _entire_mapcount + 1 ==
 *    PMDs, _nr_pages_mapped == PTE-mapped pages (+ ENTIRELY_MAPPED), the
 *    deferred split queue holds every partly mapped anon one; no page
 *    mapped twice is AnonExclusive;
 *    refcount == PTEs + 1 for the page cache; rss per mm agrees;
 *  - nr_mapped, nr_anon_pages, nr_file_pages, nr_dirty agree;
 *  - the page cache: entries point back (mapping, index) and nrpages agrees;
 *  - the LRU lists: links, flags, counts and nr_* counters agree;
 *  - VMAs: rb-tree rules, sorted non-overlapping list, map_count;
 *  - per-task pgfault adds up to the global pgfault;
 *  - every locked page-cache page has a read in flight;
 *  - the LRU (the LRU issue's rules): every LRU folio on exactly one list
 *    or in exactly one lru_add pagevec, never both, and no free page in
 *    either; a folio in a pagevec holds a reference; the rotate and
 *    deactivate pagevecs hold only LRU folios; no reclaim half done;
 *  - rmap: every mapped page is found by rmap_walk() exactly as often as
 *    its _mapcount says, through its file's i_mmap list or its anon_vma;
 *  - writeback: PG_writeback exactly on the pages of the requests in
 *    flight, nr_writeback and nr_dirty (and each file's counts) agree.
 */
#include <stdio.h>

#include "internal.h"
#include "filemap.h"
#include "memory.h"
#include "mmap.h"
#include "page_alloc.h"
#include "rmap.h"
#include "swap.h"
#include "vmacache.h"
#include "xarray.h"

#define FAIL(...)                                \
	do {                                     \
		snprintf(msg, len, __VA_ARGS__); \
		err = -1;                        \
		goto out;                        \
	} while (0)

struct check_ctx {
	uint32_t *ptes; /* PTEs mapping each pfn; for a THP's head, | PMD mappings << 20 */
	uint32_t leaves; /* PMD leaves in the mm being walked (each has a deposited table) */
	uint8_t *tables; /* references to each table page */
	uint8_t *pvec; /* per pfn: pagevec slots holding it, | 0x80 if one is an lru_add pagevec */
	uint8_t *cached; /* per pfn: 1 if a folio whose page cache holds it at its index (full checks) */
	int64_t rss[MMSIM_NR_MM_COUNTERS];
};

#define PMD_MAPS(c, p) ((c)->ptes[p] >> 20)
#define PTE_MAPS(c, p) ((c)->ptes[p] & 0xfffff)

/*
 * A PMD leaf (huge_memory.c): the whole 2 MiB inside one private anon VMA
 * with an anon_vma; the huge zero page read-only, or the head of an
 * order-9 anon folio, writable only in a VM_WRITE VMA.
 */
static int check_pmd_leaf(struct mmsim *sim, struct check_ctx *c, uint32_t mmid, uint64_t e,
			  uint64_t addr, char *msg, uint32_t len)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);
	uint32_t vid = find_vma_noacct(sim, mm, addr), p = pte_pfn(e);
	const struct vm_area_struct *v = vid ? vma_ptr(sim, vid) : NULL;
	const struct page *folio;

	if (!v || v->vm_start > addr || v->vm_end < addr + PMD_SIZE || v->vm_file || !v->anon_vma ||
	    (v->vm_flags & MMSIM_VM_SHARED)) {
		snprintf(
			msg, len,
			"mm %u: PMD leaf at %#llx not wholly inside one private anon VMA with an anon_vma",
			mmid, (unsigned long long)addr);
		return -1;
	}
	if ((e & MMSIM_PTE_RW) && !(v->vm_flags & MMSIM_VM_WRITE)) {
		snprintf(msg, len, "mm %u: writable PMD leaf at %#llx in a read-only VMA", mmid,
			 (unsigned long long)addr);
		return -1;
	}
	c->leaves++;
	if (e & MMSIM_PTE_SPECIAL) {
		if (p != 0 || (e & MMSIM_PTE_RW)) {
			snprintf(msg, len, "mm %u: bad huge zero PMD at %#llx", mmid,
				 (unsigned long long)addr);
			return -1;
		}
		return 0;
	}
	folio = p && p < sim->s.high_water ? pfn_to_page(sim, p) : NULL;
	if (!folio || (folio->flags & (PF(tail) | PGTY(buddy) | PGTY(table))) ||
	    folio_order(sim, p) != PMD_SHIFT - PAGE_SHIFT || !folio_test_anon(folio) ||
	    folio->_refcount <= 0) {
		snprintf(
			msg, len,
			"mm %u: PMD leaf at %#llx maps pfn %u, not the head of an order-9 anon folio",
			mmid, (unsigned long long)addr, p);
		return -1;
	}
	c->rss[MMSIM_MM_ANONPAGES] += PTRS_PER_PTE;
	c->ptes[p] += 1u << 20;
	return 0;
}

static int walk_tables(struct mmsim *sim, struct check_ctx *c, uint32_t mmid, uint32_t pfn,
		       int level, uint64_t base, char *msg, uint32_t len)
{
	static const uint64_t span[4] = { PGDIR_SIZE, PUD_SIZE, PMD_SIZE, PAGE_SIZE };
	struct mm_struct *mm = mm_ptr(sim, mmid);
	const struct page *tp = pfn_to_page(sim, pfn);
	const uint64_t *t;

	if (pfn >= sim->s.high_water || !(tp->flags & PGTY(table))) {
		snprintf(msg, len, "mm %u: level-%d entry points at pfn %u, not a page table", mmid,
			 level, pfn);
		return -1;
	}
	if (c->tables[pfn]++) {
		snprintf(msg, len, "page table pfn %u is referenced twice", pfn);
		return -1;
	}
	t = pgt_table(sim, tp->private);
	for (uint32_t i = 0; i < PTRS_PER_PTE; i++) {
		uint64_t e = t[i], addr = base + i * span[level];

		if (!e)
			continue;
		if (!(e & MMSIM_PTE_PRESENT)) {
			snprintf(msg, len, "mm %u: non-present, non-none entry %#llx at %#llx",
				 mmid, (unsigned long long)e, (unsigned long long)addr);
			return -1;
		}
		if (level < MMSIM_PGT_PTE) {
			if ((e & MMSIM_PTE_PSE) && level == MMSIM_PGT_PMD) {
				if (check_pmd_leaf(sim, c, mmid, e, addr, msg, len))
					return -1;
				continue;
			}
			if (e & MMSIM_PTE_PSE) {
				snprintf(msg, len, "mm %u: PUD leaf at %#llx (not modelled)", mmid,
					 (unsigned long long)addr);
				return -1;
			}
			if (walk_tables(sim, c, mmid, pte_pfn(e), level + 1, addr, msg, len))
				return -1;
			continue;
		}
		/* a leaf PTE */
		{
			uint32_t vid = find_vma_noacct(sim, mm, addr), p = pte_pfn(e), head;
			const struct vm_area_struct *v = vid ? vma_ptr(sim, vid) : NULL;
			const struct page *folio;

			if (!v || v->vm_start > addr) {
				snprintf(msg, len, "mm %u: PTE at %#llx outside any VMA", mmid,
					 (unsigned long long)addr);
				return -1;
			}
			if ((e & MMSIM_PTE_RW) && !(v->vm_flags & MMSIM_VM_WRITE)) {
				snprintf(msg, len,
					 "mm %u: writable PTE at %#llx in a read-only VMA", mmid,
					 (unsigned long long)addr);
				return -1;
			}
			if (e & MMSIM_PTE_SPECIAL) {
				if (p != 0 || (e & MMSIM_PTE_RW)) {
					snprintf(msg, len, "mm %u: bad special PTE at %#llx", mmid,
						 (unsigned long long)addr);
					return -1;
				}
				continue;
			}
			if (p == 0 || p >= sim->s.high_water) {
				snprintf(msg, len, "mm %u: PTE at %#llx maps pfn %u out of range",
					 mmid, (unsigned long long)addr, p);
				return -1;
			}
			head = compound_head(sim, p);
			folio = pfn_to_page(sim, head);
			if (folio->flags & (PGTY(buddy) | PGTY(table)) || folio->_refcount <= 0) {
				snprintf(
					msg, len,
					"mm %u: PTE at %#llx maps pfn %u which is not an allocated folio",
					mmid, (unsigned long long)addr, p);
				return -1;
			}
			if (!folio_test_anon(folio)) {
				if (!v->vm_file || folio->mapping != v->vm_file ||
				    folio->index + (p - head) !=
					    (uint32_t)linear_page_index(v, addr)) {
					snprintf(
						msg, len,
						"mm %u: PTE at %#llx maps file page (file %u, index %u) but the VMA expects (file %u, index %llu)",
						mmid, (unsigned long long)addr, folio->mapping,
						folio->index + (p - head), v->vm_file,
						(unsigned long long)linear_page_index(v, addr));
					return -1;
				}
				c->rss[mm_counter_file(folio)]++;
			} else {
				if (!v->anon_vma) {
					snprintf(
						msg, len,
						"mm %u: anon PTE at %#llx in a VMA without anon_vma",
						mmid, (unsigned long long)addr);
					return -1;
				}
				c->rss[MMSIM_MM_ANONPAGES]++;
			}
			c->ptes[p]++;
		}
	}
	return 0;
}

static bool count_one(struct mmsim *sim, uint32_t pfn, struct vm_area_struct *vma, uint64_t addr,
		      uint64_t *pte, void *arg)
{
	(void)sim, (void)pfn, (void)vma, (void)addr, (void)pte;
	++*(uint32_t *)arg;
	return true;
}

/* every page of the folio at head: rmap_walk() finds each mapping _mapcount counts */
static int rmap_check(struct mmsim *sim, uint32_t head, uint32_t nr, char *msg, uint32_t len)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct page *pg = pfn_to_page(sim, head + i);
		uint32_t found = 0;

		if (pg->_mapcount < 0)
			continue;
		rmap_walk(sim, head + i, count_one, &found);
		if ((int32_t)found != pg->_mapcount + 1) {
			snprintf(msg, len, "pfn %u: _mapcount %d but rmap finds %u mappings",
				 head + i, pg->_mapcount, found);
			return -1;
		}
	}
	return 0;
}

/* the requests in flight: each of their pages PG_writeback, in completion order, as many as nr_writeback */
static int writeback_check(struct mmsim *sim, char *msg, uint32_t len)
{
	const struct mmsim_state *s = &sim->s;
	uint64_t in_flight = 0;

	for (uint32_t i = 0; i < s->wb_count; i++) {
		const struct wb_req *r = &s->wb[i];

		for (uint32_t k = 0; k < r->nr; k++) {
			uint32_t pfn = filemap_get_folio(sim, r->file, r->first + k);

			if (!pfn || !folio_test(pfn_to_page(sim, pfn), writeback)) {
				snprintf(msg, len, "writeback request %u: file %u page %u is %s",
					 r->id, r->file, r->first + k,
					 pfn ? "not PG_writeback" : "not cached");
				return -1;
			}
		}
		in_flight += r->nr;
		if (i && r->complete_at < s->wb[i - 1].complete_at) {
			snprintf(
				msg, len,
				"writeback request %u completes before the one submitted before it",
				r->id);
			return -1;
		}
	}
	if (in_flight != s->counters[MMSIM_NR_WRITEBACK]) {
		snprintf(msg, len, "requests in flight hold %llu pages, nr_writeback %llu",
			 (unsigned long long)in_flight,
			 (unsigned long long)s->counters[MMSIM_NR_WRITEBACK]);
		return -1;
	}
	return 0;
}

/*
 * full: every check below. Otherwise the cheap ones every run ends with
 * (run.c), release builds too: the pagevecs, the free lists with every page
 * of each free block (a freed page that kept its flags), nr_free_pages, and
 * each mm's VMA tree; not the page-table walks, the per-frame pass and the
 * rmap walks, which cost as much as a large run itself.
 */
/*
 * A file's page cache below i_size, leaf by leaf (xa_slot_tagged: the
 * slots with their dirty tags), from a missing leaf straight to the next
 * folio (xa_find_present). The callers look at each slot themselves: a
 * loop over a leaf's slots is the checker's hot path.
 */
struct cache_walk {
	const struct xarray *xa;
	uint64_t idx, end; /* the next index to look at, and i_size in pages */
};

static void cache_walk_start(struct cache_walk *w, const struct file *fp)
{
	*w = (struct cache_walk){ .xa = &fp->i_pages, .end = DIV_ROUND_UP(fp->i_size, PAGE_SIZE) };
}

/* the next slots, at index *first on, *n of them in one leaf, bit k of *tags slot k's dirty tag; NULL at the end */
static uint32_t *cache_walk_next(const struct mmsim *sim, struct cache_walk *w, uint64_t *first,
				 uint32_t *n, uint64_t *tags)
{
	while (w->idx < w->end) {
		uint32_t *slot = xa_slot_tagged(sim, w->xa, w->idx, n, tags);

		if (!slot) {
			if (!xa_find_present(sim, w->xa, w->idx, &w->idx))
				return NULL;
			continue;
		}
		if (*n > w->end - w->idx)
			*n = (uint32_t)(w->end - w->idx);
		*first = w->idx;
		w->idx += *n;
		return slot;
	}
	return NULL;
}

static int vm_check(struct mmsim *sim, char *msg, uint32_t len, bool full)
{
	struct mmsim_state *s = &sim->s;
	uint32_t hw = s->high_water;
	struct check_ctx c;
	uint64_t free_pages = 0, tables = 0, mapped = 0, anon_mapped = 0, dirty = 0, file_pages = 0,
		 shmem = 0;
	uint64_t deferred = 0, anon_thps = 0;
	uint64_t pgfault = 0, on_lru = 0;
	size_t ptes_bytes = (size_t)hw * sizeof(uint32_t);
	int err = 0;

	if (!s->loaded)
		return 0;
	memset(&c, 0, sizeof(c));
	/* the page-table walk's tallies only for the full checks */
	c.ptes = full ? sim_alloc(sim, ptes_bytes) : NULL;
	c.tables = full ? sim_alloc(sim, hw) : NULL;
	c.cached = full ? sim_alloc(sim, hw) : NULL;
	c.pvec = sim_alloc(sim, hw);
	if ((full && (!c.ptes || !c.tables || !c.cached)) || !c.pvec)
		FAIL("checker: not enough host memory");

	if (s->reclaiming)
		FAIL("reclaim is still running at an operation boundary");
	memset(c.pvec, 0, hw);
	for (uint32_t v = 0; v < MMSIM_NR_PVECS; v++)
		for (uint32_t i = 0; i < s->pvecs[v].nr; i++) {
			uint32_t p = s->pvecs[v].pages[i];

			if (!p || p >= hw || (c.pvec[p] & 0x7f) == 0x7f)
				FAIL("pagevec %u slot %u holds pfn %u", v, i, p);
			c.pvec[p] = (uint8_t)(c.pvec[p] + 1) | (v < MMSIM_PVEC_ROTATE ? 0x80 : 0);
		}

	/* free lists */
	for (unsigned o = 0; o <= MAX_PAGE_ORDER; o++) {
		uint32_t n = 0;

		for (uint32_t p = s->free_area[o].head; p; p = pfn_to_page(sim, p)->lru_next) {
			const struct page *pg = pfn_to_page(sim, p);

			if (!(pg->flags & PGTY(buddy)) || pg->private != o || p & ((1u << o) - 1) ||
			    p + (1u << o) > hw)
				FAIL("free list %u: bad block at pfn %u", o, p);
			if (++n > s->free_area[o].nr_free)
				FAIL("free list %u longer than nr_free %u", o,
				     s->free_area[o].nr_free);
			if (!full)
				for (uint32_t i = 1; i < (1u << o); i++)
					if (pfn_to_page(sim, p + i)->flags)
						FAIL("pfn %u inside free block %u has flags", p + i,
						     p);
			free_pages += 1u << o;
		}
		if (n != s->free_area[o].nr_free)
			FAIL("free list %u: %u blocks, nr_free says %u", o, n,
			     s->free_area[o].nr_free);
	}
	free_pages += s->nr_frames - hw;
	if (free_pages != s->counters[MMSIM_NR_FREE_PAGES])
		FAIL("nr_free_pages %llu, but %llu frames are free",
		     (unsigned long long)s->counters[MMSIM_NR_FREE_PAGES],
		     (unsigned long long)free_pages);

	if (!full) {
		for (uint32_t m = 0; m < s->hdr.nr_procs; m++)
			if (mm_ptr(sim, m)->alive && vma_rb_check(sim, mm_ptr(sim, m), msg, len)) {
				err = -1;
				goto out;
			}
		goto out;
	}

	/* page tables and PTEs, per live mm */
	for (uint32_t m = 0; m < s->hdr.nr_procs; m++) {
		struct mm_struct *mm = mm_ptr(sim, m);

		if (!mm->alive) {
			if (mm->pgd || mm->mmap || mm->rss[MMSIM_MM_PGTABLES])
				FAIL("mm %u is dead but still has a pgd, VMAs or page tables", m);
			continue;
		}
		memset(c.rss, 0, sizeof(c.rss));
		if (vma_rb_check(sim, mm, msg, len)) {
			err = -1;
			goto out;
		}
		/*
		 * The VMA cache (vmacache.c): a slot a lookup may trust (its
		 * task's seqnum is the mm's) or mm->mmap_cache holds a live VMA
		 * of this mm; stale slots are unreachable until flushed.
		 */
		if (mm->mmap_cache && (mm->mmap_cache >= s->pools[POOL_VMA].nr ||
				       !vma_ptr(sim, mm->mmap_cache)->alive ||
				       vma_ptr(sim, mm->mmap_cache)->vm_mm != m))
			FAIL("mm %u: mmap_cache holds VMA %u, not a live VMA of this mm", m,
			     mm->mmap_cache);
		for (uint32_t t = 0; t < mm->nr_threads; t++) {
			const struct task_struct *tk = task_ptr(sim, mm->first_task + t);

			if (!tk->alive || tk->vmacache_seqnum != mm->vmacache_seqnum)
				continue;
			for (int i = 0; i < VMACACHE_SIZE; i++) {
				uint32_t id = tk->vmacache[i];

				if (id &&
				    (id >= s->pools[POOL_VMA].nr || !vma_ptr(sim, id)->alive ||
				     vma_ptr(sim, id)->vm_mm != m))
					FAIL("task %u: vmacache slot %d holds VMA %u, not a live VMA of mm %u, and its seqnum %u is current",
					     mm->first_task + t, i, id, m, tk->vmacache_seqnum);
			}
		}
		{
			uint64_t before = 0, after = 0;

			for (uint32_t p = 0; p < hw; p++)
				before += c.tables[p];
			uint32_t deposited = 0;

			c.leaves = 0;
			if (walk_tables(sim, &c, m, mm->pgd, MMSIM_PGT_PGD, 0, msg, len)) {
				err = -1;
				goto out;
			}
			/* THP's deposited tables (huge_memory.c): one per PMD leaf, empty, reachable only from the mm */
			for (uint32_t t = mm->pmd_huge_pte; t; t = pfn_to_page(sim, t)->index) {
				const uint64_t *ents;

				if (t >= hw || !(pfn_to_page(sim, t)->flags & PGTY(table)) ||
				    c.tables[t]++ || ++deposited > hw)
					FAIL("mm %u: deposited table pfn %u is not a table, or reached twice",
					     m, t);
				ents = pgt_table(sim, pfn_to_page(sim, t)->private);
				for (uint32_t i = 0; i < PTRS_PER_PTE; i++)
					if (ents[i])
						FAIL("mm %u: deposited table pfn %u is not empty",
						     m, t);
			}
			if (deposited != c.leaves)
				FAIL("mm %u: %u PMD leaves but %u deposited tables", m, c.leaves,
				     deposited);
			for (uint32_t p = 0; p < hw; p++)
				after += c.tables[p];
			if ((int64_t)(after - before) != mm->rss[MMSIM_MM_PGTABLES])
				FAIL("mm %u: %llu page tables reachable, the mm counts %lld", m,
				     (unsigned long long)(after - before),
				     (long long)mm->rss[MMSIM_MM_PGTABLES]);
		}
		if (c.rss[MMSIM_MM_FILEPAGES] != mm->rss[MMSIM_MM_FILEPAGES] ||
		    c.rss[MMSIM_MM_ANONPAGES] != mm->rss[MMSIM_MM_ANONPAGES] ||
		    c.rss[MMSIM_MM_SHMEMPAGES] != mm->rss[MMSIM_MM_SHMEMPAGES])
			FAIL("mm %u: rss file %lld anon %lld shmem %lld, but PTEs map %lld file, %lld anon and %lld shmem pages",
			     m, (long long)mm->rss[MMSIM_MM_FILEPAGES],
			     (long long)mm->rss[MMSIM_MM_ANONPAGES],
			     (long long)mm->rss[MMSIM_MM_SHMEMPAGES],
			     (long long)c.rss[MMSIM_MM_FILEPAGES],
			     (long long)c.rss[MMSIM_MM_ANONPAGES],
			     (long long)c.rss[MMSIM_MM_SHMEMPAGES]);
	}

	/*
	 * The folios each page cache holds at their own index: one walk of the
	 * caches, leaf by leaf, for the frames below (a lookup from the root for
	 * every file folio took a quarter of a checked run). The caches
	 * themselves are checked after the frames.
	 */
	memset(c.cached, 0, hw);
	for (uint32_t f = 0; f < s->hdr.nr_files; f++) {
		struct cache_walk w;
		uint64_t idx, tags;
		uint32_t n, *slot;

		cache_walk_start(&w, file_ptr(sim, f));
		while ((slot = cache_walk_next(sim, &w, &idx, &n, &tags)))
			for (uint32_t k = 0; k < n; k++, idx++) {
				uint32_t e = slot[k], pfn = xa_to_pfn(e);

				if (e && !xa_is_value(e) && pfn < hw &&
				    compound_head(sim, pfn) == pfn &&
				    pfn_to_page(sim, pfn)->mapping == f + 1 &&
				    pfn_to_page(sim, pfn)->index == idx)
					c.cached[pfn] = 1;
			}
	}

	/* every frame */
	for (uint32_t p = 1; p < hw; p++) {
		const struct page *pg = pfn_to_page(sim, p);

		if (pg->flags & PGTY(buddy)) {
			uint32_t n = 1u << pg->private;

			for (uint32_t i = 1; i < n; i++)
				if (pfn_to_page(sim, p + i)->flags)
					FAIL("pfn %u inside free block %u has flags", p + i, p);
			p += n - 1;
			continue;
		}
		if (pg->flags & PGTY(table)) {
			tables++;
			if (!c.tables[p])
				FAIL("page table pfn %u is not reachable from any mm (leaked)", p);
			continue;
		}
		if (pg->flags & PF(tail))
			continue;
		if (pg->_refcount <= 0)
			FAIL("pfn %u: allocated but refcount %d (leaked)", p, pg->_refcount);
		{
			uint32_t nr = 1u << folio_order(sim, p), pmds = PMD_MAPS(&c, p);
			uint64_t ptes = 0;
			bool anon = pg->flags & PF(anon), cached = false;

			for (uint32_t i = 0; i < nr; i++) {
				const struct page *sub = pfn_to_page(sim, p + i);
				uint32_t n = PTE_MAPS(&c, p + i);

				if (sub->_mapcount + 1 != (int32_t)n)
					FAIL("pfn %u: _mapcount %d but %u PTEs map it", p + i,
					     sub->_mapcount, n);
				/* anon exclusivity: a page mapped twice (fork) is nobody's alone */
				if (anon && (sub->flags & PF(anon_exclusive)) && n + pmds > 1)
					FAIL("pfn %u: AnonExclusive but mapped %u times", p + i,
					     n + pmds);
				ptes += n;
				if (n || pmds) {
					if (anon)
						anon_mapped++;
					else
						mapped++;
				}
			}
			if (nr > 1) {
				/* a large folio: PTE mappings per page, PMD mappings of the whole */
				const struct page *p1 = pfn_to_page(sim, p + 1);
				uint32_t pages_mapped = 0;

				for (uint32_t i = 0; i < nr; i++)
					pages_mapped += PTE_MAPS(&c, p + i) != 0;
				if ((int64_t)p1->_large_mapcount + 1 != (int64_t)ptes + pmds)
					FAIL("pfn %u: _large_mapcount %d but %llu PTEs and %u PMDs map the folio",
					     p, p1->_large_mapcount, (unsigned long long)ptes,
					     pmds);
				if (p1->_entire_mapcount + 1 != (int32_t)pmds)
					FAIL("pfn %u: _entire_mapcount %d but %u PMDs map the folio",
					     p, p1->_entire_mapcount, pmds);
				if (p1->_nr_pages_mapped !=
				    (int32_t)pages_mapped + (pmds ? ENTIRELY_MAPPED : 0))
					FAIL("pfn %u: _nr_pages_mapped %#x but %u of its pages are PTE-mapped and %u PMDs map it",
					     p, p1->_nr_pages_mapped, pages_mapped, pmds);
				if (pmds)
					anon_thps++;
				if (nr >= 4 && pfn_to_page(sim, p + 2)->index)
					deferred++;
				if (nr >= 4 && anon && !pmds && pages_mapped && pages_mapped < nr &&
				    !pfn_to_page(sim, p + 2)->index)
					FAIL("pfn %u: an anon folio with %u of %u pages mapped is not queued for a deferred split",
					     p, pages_mapped, nr);
			}
			if (!anon) {
				uint32_t file = pg->mapping - 1;

				if (!pg->mapping || file >= s->hdr.nr_files || !c.cached[p])
					FAIL("pfn %u: file page (mapping %u, index %u) is not in its page cache",
					     p, pg->mapping, pg->index);
				cached = true;
				file_pages += nr;
				if (pg->flags & PF(swapbacked))
					shmem += nr;
				else if (pg->flags & PF(dirty))
					dirty +=
						nr; /* shmem has noop_dirty_folio: not in nr_dirty */
				if ((pg->flags & PF(locked)) && !(pg->flags & PF(uptodate))) {
					bool inflight = false;

					for (uint32_t i = 0; i < s->io_count; i++)
						if (s->io[i].file == file &&
						    pg->index >= s->io[i].start &&
						    pg->index < s->io[i].start + s->io[i].nr)
							inflight = true;
					if (!inflight)
						FAIL("pfn %u: locked and not uptodate with no read in flight",
						     p);
				}
			} else if (!ptes && !pmds && !c.pvec[p]) {
				FAIL("pfn %u: anonymous folio mapped by no PTE (leaked)", p);
			}
			/* the page cache holds a large folio by one reference per page */
			if ((int64_t)pg->_refcount !=
			    (int64_t)ptes + pmds + (cached ? nr : 0) + (c.pvec[p] & 0x7f))
				FAIL("pfn %u: refcount %d, expected %llu (PTEs) + %u (PMDs) + %u (page cache) + %d (pagevecs)",
				     p, pg->_refcount, (unsigned long long)ptes, pmds,
				     cached ? nr : 0, c.pvec[p] & 0x7f);
			if ((pg->flags & PF(lru)) && (c.pvec[p] & 0x80))
				FAIL("pfn %u: on an LRU list and in an lru_add pagevec", p);
			if (!(pg->flags & PF(lru)) && !(c.pvec[p] & 0x80))
				FAIL("pfn %u: a folio on no LRU list and in no lru_add pagevec", p);
			if ((c.pvec[p] & 0x7f) > 1 + !!(c.pvec[p] & 0x80) ||
			    ((c.pvec[p] & 0x80) && (c.pvec[p] & 0x7f) > 1))
				FAIL("pfn %u: in %u pagevecs", p, c.pvec[p] & 0x7f);
			if ((c.pvec[p] & 0x7f) && !(c.pvec[p] & 0x80) && !(pg->flags & PF(lru)))
				FAIL("pfn %u: in a rotate or deactivate pagevec but on no LRU list",
				     p);
			if (rmap_check(sim, p, nr, msg, len)) {
				err = -1;
				goto out;
			}
			if (pg->flags & PF(lru))
				on_lru += nr;
			p += nr - 1;
		}
	}
	if (tables != s->counters[MMSIM_NR_PAGE_TABLE_PAGES])
		FAIL("nr_page_table_pages %llu, but %llu page tables exist",
		     (unsigned long long)s->counters[MMSIM_NR_PAGE_TABLE_PAGES],
		     (unsigned long long)tables);
	if (mapped != s->counters[MMSIM_NR_MAPPED])
		FAIL("nr_mapped %llu, but %llu file pages are mapped",
		     (unsigned long long)s->counters[MMSIM_NR_MAPPED], (unsigned long long)mapped);
	if (anon_thps != s->counters[MMSIM_NR_ANON_THPS])
		FAIL("nr_anon_transparent_hugepages %llu but %llu THPs are PMD-mapped",
		     (unsigned long long)s->counters[MMSIM_NR_ANON_THPS],
		     (unsigned long long)anon_thps);
	if (deferred != s->counters[MMSIM_NR_DEFERRED_SPLIT])
		FAIL("nr_deferred_split %llu but %llu folios are queued",
		     (unsigned long long)s->counters[MMSIM_NR_DEFERRED_SPLIT],
		     (unsigned long long)deferred);
	if (anon_mapped != s->counters[MMSIM_NR_ANON_PAGES])
		FAIL("nr_anon_pages %llu, but %llu anon pages are mapped",
		     (unsigned long long)s->counters[MMSIM_NR_ANON_PAGES],
		     (unsigned long long)anon_mapped);
	if (file_pages != s->counters[MMSIM_NR_FILE_PAGES])
		FAIL("nr_file_pages %llu, but %llu pages are in page caches",
		     (unsigned long long)s->counters[MMSIM_NR_FILE_PAGES],
		     (unsigned long long)file_pages);
	if (shmem != s->counters[MMSIM_NR_SHMEM])
		FAIL("nr_shmem %llu, but %llu tmpfs pages are in page caches",
		     (unsigned long long)s->counters[MMSIM_NR_SHMEM], (unsigned long long)shmem);
	if (dirty != s->counters[MMSIM_NR_DIRTY])
		FAIL("nr_dirty %llu, but %llu page-cache pages are dirty",
		     (unsigned long long)s->counters[MMSIM_NR_DIRTY], (unsigned long long)dirty);

	/* page caches point back, and each file's dirty and writeback counts agree */
	{
		uint64_t total = 0, writeback = 0;

		for (uint32_t f = 0; f < s->hdr.nr_files; f++) {
			const struct file *fp = file_ptr(sim, f);
			uint64_t n = 0, dirty_pages = 0, wb_pages = 0, idx, tags;
			struct cache_walk w;
			uint32_t run, *slot;

			cache_walk_start(&w, fp);
			while ((slot = cache_walk_next(sim, &w, &idx, &run, &tags)))
				for (uint32_t k = 0; k < run; k++, idx++) {
					uint32_t e = slot[k], pfn;
					const struct page *pg;

					if (!e || xa_is_value(e))
						continue;
					pfn = xa_to_pfn(e);
					/* a large folio's slots hold its pages: the head answers for them */
					pg = pfn_to_page(sim, compound_head(sim, pfn));
					if (pg->mapping != f + 1 ||
					    pg->index + (pfn - compound_head(sim, pfn)) != idx)
						FAIL("file %u index %llu: pfn %u points elsewhere",
						     f, (unsigned long long)idx, pfn);
					n++;
					if ((pg->flags & PF(dirty)) &&
					    !(pg->flags & PF(swapbacked)))
						dirty_pages++;
					if (((pg->flags & PF(dirty)) &&
					     !(pg->flags & PF(swapbacked))) !=
					    (bool)(tags >> k & 1))
						FAIL("file %u index %llu: PG_dirty and the page cache's dirty tag disagree",
						     f, (unsigned long long)idx);
					if (pg->flags & PF(writeback))
						wb_pages++;
				}
			if (n != fp->nrpages)
				FAIL("file %u: nrpages %u but %llu pages cached", f, fp->nrpages,
				     (unsigned long long)n);
			if (dirty_pages != fp->nrdirty || wb_pages != fp->nrwriteback)
				FAIL("file %u: %llu dirty and %llu writeback pages, it counts %u and %u",
				     f, (unsigned long long)dirty_pages,
				     (unsigned long long)wb_pages, fp->nrdirty, fp->nrwriteback);
			writeback += wb_pages;
			total += n;
		}
		if (total != file_pages)
			FAIL("page caches hold %llu pages, %llu file pages exist",
			     (unsigned long long)total, (unsigned long long)file_pages);
		if (writeback != s->counters[MMSIM_NR_WRITEBACK])
			FAIL("%llu pages are PG_writeback, nr_writeback says %llu",
			     (unsigned long long)writeback,
			     (unsigned long long)s->counters[MMSIM_NR_WRITEBACK]);
	}

	/* LRU lists */
	{
		static const enum mmsim_counter lru_counter[MMSIM_NR_LRU_LISTS] = {
			MMSIM_NR_INACTIVE_ANON, MMSIM_NR_ACTIVE_ANON, MMSIM_NR_INACTIVE_FILE,
			MMSIM_NR_ACTIVE_FILE,	MMSIM_NR_UNEVICTABLE,
		};
		uint64_t listed = 0;

		for (int l = 0; l < MMSIM_NR_LRU_LISTS; l++) {
			uint32_t head = s->lruvec.head[l], p = head, n = 0;

			if (head) {
				do {
					const struct page *pg = pfn_to_page(sim, p);

					if (!(pg->flags & PF(lru)) || folio_lru_list(pg) != l ||
					    pfn_to_page(sim, pg->lru_next)->lru_prev != p)
						FAIL("LRU list %d broken at pfn %u", l, p);
					n += 1u << folio_order(sim, p);
					if (n > hw)
						FAIL("LRU list %d loops", l);
					p = pg->lru_next;
				} while (p != head);
			}
			if (n != s->lruvec.nr[l] || n != s->counters[lru_counter[l]])
				FAIL("LRU list %d holds %u pages, lruvec says %u, counter %llu", l,
				     n, s->lruvec.nr[l],
				     (unsigned long long)s->counters[lru_counter[l]]);
			listed += n;
		}
		if (listed != on_lru)
			FAIL("%llu pages are PG_lru but the lists hold %llu",
			     (unsigned long long)on_lru, (unsigned long long)listed);
	}

	if (writeback_check(sim, msg, len)) {
		err = -1;
		goto out;
	}

	for (uint32_t t = 0; t < s->hdr.nr_tasks; t++)
		pgfault += task_ptr(sim, t)->counters[MMSIM_T_PGFAULT];
	if (pgfault != s->counters[MMSIM_PGFAULT])
		FAIL("pgfault %llu, but the tasks' pgfault add up to %llu",
		     (unsigned long long)s->counters[MMSIM_PGFAULT], (unsigned long long)pgfault);
out:
	sim_free(sim, c.ptes, ptes_bytes);
	sim_free(sim, c.tables, hw);
	sim_free(sim, c.cached, hw);
	sim_free(sim, c.pvec, hw);
	if (!err && msg && len)
		msg[0] = 0;
	return err;
}

int mmsim_check(struct mmsim *sim, char *msg, uint32_t len)
{
	return vm_check(sim, msg, len, true);
}

int mmsim_check_cheap(struct mmsim *sim, char *msg, uint32_t len)
{
	return vm_check(sim, msg, len, false);
}

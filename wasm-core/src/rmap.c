/*
 * rmap.c - mapcounts (mm/rmap.c, include/linux/rmap.h, include/linux/mm.h).
 *
 * Every PTE that maps a page holds one _mapcount (biased: -1 is unmapped) and
 * one reference. For a large folio, page[1] also holds _large_mapcount (6.10:
 * all PTE and PMD mappings of any page), _entire_mapcount (PMD mappings) and
 * _nr_pages_mapped (pages with _mapcount >= 0); see kernel-mechanisms.md §3.
 * The statistics NR_FILE_MAPPED (nr_mapped) and NR_ANON_MAPPED (nr_anon_pages)
 * change when a page's _mapcount goes -1 -> 0 ("first") or 0 -> -1 ("last").
 *
 * This issue maps only order-0 folios; the large-folio branches follow
 * __folio_add_rmap()/__folio_remove_rmap() for PTE-level mappings and are
 * exercised by the mapcount issue's scenarios (fork, COW, THP, mTHP).
 */
#include "internal.h"

static struct page *folio_page1(const struct mmsim *sim, uint32_t head)
{
	return pfn_to_page(sim, head + 1);
}

static void mapped_stat(struct mmsim *sim, const struct page *folio, int64_t nr)
{
	mod_node_page_state(sim, folio_test_anon(folio) ? MMSIM_NR_ANON_PAGES : MMSIM_NR_MAPPED, nr);
}

/* __folio_add_rmap(RMAP_LEVEL_PTE, nr = 1) */
static void folio_add_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	uint32_t head = compound_head(sim, pfn);
	struct page *folio = pfn_to_page(sim, head);
	struct page *page = pfn_to_page(sim, pfn);
	bool first = ++page->_mapcount == 0;

	if (folio_test_large(folio)) {
		struct page *p1 = folio_page1(sim, head);

		if (first)
			p1->_nr_pages_mapped++;
		p1->_large_mapcount++;
		if (first && p1->_entire_mapcount >= 0)
			first = false; /* already accounted by the PMD mapping */
	}
	if (first)
		mapped_stat(sim, folio, 1);
}

void folio_add_file_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	folio_add_rmap_pte(sim, pfn);
}

/*
 * folio_add_new_anon_rmap(): a fresh, exclusively owned anon folio; plain
 * stores, no atomics (rule MC-NEW-ANON).
 */
void folio_add_new_anon_rmap(struct mmsim *sim, uint32_t pfn, const struct vm_area_struct *vma,
			     uint64_t addr)
{
	struct page *folio = pfn_to_page(sim, pfn);
	uint32_t nr = 1u << folio_order(sim, pfn);

	folio->flags |= PF(anon) | PF(swapbacked);
	folio->mapping = vma->anon_vma;
	folio->index = (uint32_t)linear_page_index(vma, addr);
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
}

/* __folio_remove_rmap(RMAP_LEVEL_PTE, nr = 1) */
void folio_remove_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	uint32_t head = compound_head(sim, pfn);
	struct page *folio = pfn_to_page(sim, head);
	struct page *page = pfn_to_page(sim, pfn);
	bool last;

	if (folio_test_large(folio))
		folio_page1(sim, head)->_large_mapcount--;
	last = --page->_mapcount < 0;
	VM_BUG_ON(page->_mapcount < -1);
	if (folio_test_large(folio)) {
		struct page *p1 = folio_page1(sim, head);

		if (last)
			p1->_nr_pages_mapped--;
		if (last && p1->_entire_mapcount >= 0)
			last = false;
	}
	if (last)
		mapped_stat(sim, folio, -1);
	if (!folio_mapcount(sim, head))
		folio_clear(folio, anon_exclusive);
}

/*
 * folio_dup_file_rmap_pte() / folio_try_dup_anon_rmap_pte() at fork: one
 * more mapping of an already mapped page; no statistics change (rule MC-DUP).
 */
void folio_dup_rmap_pte(struct mmsim *sim, uint32_t pfn)
{
	uint32_t head = compound_head(sim, pfn);
	struct page *page = pfn_to_page(sim, pfn);

	page->_mapcount++;
	page->flags &= ~PF(anon_exclusive);
	if (folio_test_large(pfn_to_page(sim, head)))
		folio_page1(sim, head)->_large_mapcount++;
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
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);
	int mapcount = folio_mapcount(sim, head);

	if (!folio_test_large(folio))
		return mapcount > 1;
	if (sim->s.hdr.large_mapcount) {
		const struct page *p1 = folio_page1(sim, head);

		if (mapcount <= 1)
			return false;
		if (p1->_entire_mapcount + 1 != 0 || mapcount > (int)(1u << folio_order(sim, head)))
			return true;
		return folio->_mapcount > 0;
	}
	return folio->_mapcount + 1 + folio_page1(sim, head)->_entire_mapcount + 1 > 1;
}

/* anon_vma_prepare(): give the VMA an anon_vma before its first anon page */
int anon_vma_prepare(struct mmsim *sim, struct vm_area_struct *vma)
{
	if (!vma->anon_vma)
		vma->anon_vma = ++sim->s.next_anon_vma;
	return 0;
}

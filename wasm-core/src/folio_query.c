/*
 * folio_query.c - the large-folio views' queries: one folio as the rmap
 * keeps it (its fields, each page's _mapcount, where every mm maps it) and
 * a census of the large folios. Read-only: nothing here counts (the 6.9
 * folio_mapcount() loop the model counts is a scenario's, run.c).
 */
#include "internal.h"
#include "memory.h"
#include "mmap.h"
#include "pagewalk.h"
#include "rmap.h"

int mmsim_folio_info(const struct mmsim *sim, uint32_t pfn, struct mmsim_folio_info *out)
{
	uint32_t head;
	const struct page *folio;

	memset(out, 0, sizeof(*out));
	if (!pfn || pfn >= sim->s.high_water)
		return MMSIM_EINVAL;
	head = compound_head(sim, pfn);
	folio = pfn_to_page(sim, head);
	if ((folio->flags & (PGTY(buddy) | PGTY(table))) || folio->_refcount <= 0)
		return MMSIM_EINVAL;
	out->head = head;
	out->order = folio_order(sim, head);
	out->flags = folio->flags;
	out->refcount = folio->_refcount;
	out->mapcount = folio_mapcount(sim, head);
	out->index = folio->index;
	if (folio_test_large(folio)) {
		const struct page *p1 = pfn_to_page(sim, head + 1);

		out->large_mapcount = p1->_large_mapcount + 1;
		out->entire_mapcount = p1->_entire_mapcount + 1;
		out->nr_pages_mapped = (uint32_t)p1->_nr_pages_mapped;
		out->queued = out->order >= 2 && pfn_to_page(sim, head + 2)->index;
	} else {
		out->large_mapcount = folio->_mapcount + 1;
	}
	out->shared_old = folio_likely_mapped_shared_rule(sim, head, false);
	out->shared_new = folio_likely_mapped_shared_rule(sim, head, true);
	return 0;
}

uint32_t mmsim_folio_pages(const struct mmsim *sim, uint32_t pfn, uint32_t *out, uint32_t max)
{
	uint32_t head, nr;

	if (!pfn || pfn >= sim->s.high_water)
		return 0;
	head = compound_head(sim, pfn);
	nr = 1u << folio_order(sim, head);
	for (uint32_t i = 0; i < nr && i < max; i++)
		out[i] = (uint32_t)(pfn_to_page(sim, head + i)->_mapcount + 1);
	return nr;
}

/*
 * Every mapping of the folio: each live mm's VMAs whose range covers the
 * folio's index (an anon folio: only VMAs of its anon_vma family), each
 * page looked up (follow_page_pfn), consecutive PTEs mapping consecutive
 * pages folded into one run, a PMD leaf one run of the whole folio.
 */
uint32_t mmsim_folio_maps(const struct mmsim *sim, uint32_t pfn, struct mmsim_folio_map *out,
			  uint32_t max)
{
	uint32_t head, nr, n = 0;
	const struct page *folio;

	if (!pfn || pfn >= sim->s.high_water)
		return 0;
	head = compound_head(sim, pfn);
	folio = pfn_to_page(sim, head);
	if ((folio->flags & (PGTY(buddy) | PGTY(table))) || folio->_refcount <= 0 ||
	    !folio->mapping)
		return 0;
	nr = 1u << folio_order(sim, head);
	for (uint32_t m = 0; m < sim->s.hdr.nr_procs; m++) {
		const struct mm_struct *mm = mm_ptr(sim, m);

		if (!mm->alive)
			continue;
		for (uint32_t id = mm->mmap; id; id = vma_ptr(sim, id)->vm_next) {
			const struct vm_area_struct *v = vma_ptr(sim, id);
			struct mmsim_folio_map *run = NULL;

			if (folio_test_anon(folio) ? !v->anon_vma : v->vm_file != folio->mapping)
				continue;
			for (uint32_t i = 0; i < nr; i++) {
				/* page->index is 32 bits here: compare modulo 2^32, as rmap_walk does */
				uint32_t off = folio->index + i - (uint32_t)v->vm_pgoff;
				uint64_t addr, e = 0;

				if (off >= vma_pages(v)) {
					run = NULL;
					continue;
				}
				addr = v->vm_start + ((uint64_t)off << PAGE_SHIFT);
				if (follow_page_pfn(sim, mm, addr, &e) != head + i) {
					run = NULL;
					continue;
				}
				if (e & MMSIM_PTE_PSE) {
					if (i == 0 && n < max)
						out[n] = (struct mmsim_folio_map){
							.addr = addr,
							.mm = m,
							.level = MMSIM_PGT_PMD,
							.page = 0,
							.nr = nr,
							.bits = (uint32_t)(e & 0xfff)
						};
					if (i == 0)
						n++;
					run = NULL;
					break;
				}
				if (run && run->page + run->nr == i &&
				    run->addr + ((uint64_t)run->nr << PAGE_SHIFT) == addr) {
					run->nr++;
					continue;
				}
				run = n < max ? &out[n] : NULL;
				if (run)
					*run = (struct mmsim_folio_map){
						.addr = addr,
						.mm = m,
						.level = MMSIM_PGT_PTE,
						.page = i,
						.nr = 1,
						.bits = (uint32_t)(e & 0xfff)
					};
				n++;
			}
		}
	}
	return MIN(n, max);
}

/* the head of the first large folio at or after pfn p, 0 if none: free blocks skipped whole */
static uint32_t next_large_folio(const struct mmsim *sim, uint32_t p)
{
	for (; p < sim->s.high_water; p++) {
		const struct page *pg = pfn_to_page(sim, p);

		if (pg->flags & PGTY(buddy))
			p += (1u << pg->private) - 1;
		else if (folio_test_large(pg) && !(pg->flags & PGTY(table)))
			return p;
	}
	return 0;
}

uint32_t mmsim_large_folios(const struct mmsim *sim, uint32_t *out, uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t p = next_large_folio(sim, 1); p && n < max;
	     p = next_large_folio(sim, p + (1u << folio_order(sim, p))))
		out[n++] = p;
	return n;
}

int mmsim_folio_census(const struct mmsim *sim, struct mmsim_folio_census *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t p = next_large_folio(sim, 1); p;
	     p = next_large_folio(sim, p + (1u << folio_order(sim, p)))) {
		uint32_t nr = 1u << folio_order(sim, p);

		out->large++;
		out->pages += nr;
		out->pmd_mapped += pfn_to_page(sim, p + 1)->_entire_mapcount >= 0;
		out->queued += nr >= 4 && pfn_to_page(sim, p + 2)->index;
	}
	return 0;
}

/*
 * Which neighbouring pages of [start, start + n pages) map consecutive
 * pages of one large folio (by PTEs, or under one PMD leaf): the address
 * space draws those as one block. One PMD entry looked up per 2 MiB.
 */
uint32_t mmsim_folio_joins(const struct mmsim *sim, uint32_t mm, uint32_t start_hi,
			   uint32_t start_lo, uint32_t n, uint32_t *out, uint32_t max)
{
	uint64_t start = (uint64_t)start_hi << 32 | start_lo;
	uint32_t words = MIN((n + 31) / 32, max), prev = MMSIM_NONE;
	const struct mm_struct *m;

	memset(out, 0, (size_t)words * sizeof(uint32_t));
	if (mm >= sim->s.hdr.nr_procs || !mm_ptr(sim, mm)->alive || (start & (PAGE_SIZE - 1)))
		return words;
	m = mm_ptr(sim, mm);
	for (uint32_t i = 0; i < n && i / 32 < words;) {
		uint64_t addr = start + ((uint64_t)i << PAGE_SHIFT),
			 chunk_end = (addr & ~(PMD_SIZE - 1)) + PMD_SIZE;
		uint32_t span = (uint32_t)MIN((uint64_t)(n - i), (chunk_end - addr) >> PAGE_SHIFT);
		const uint64_t *pmd = mm_find_pmd(sim, m, addr), *t = NULL;
		bool leaf = pmd && pte_present(*pmd) && (*pmd & MMSIM_PTE_PSE) &&
			    !(*pmd & MMSIM_PTE_SPECIAL);

		if (pmd && pte_present(*pmd) && !(*pmd & MMSIM_PTE_PSE))
			t = table_of_entry(sim, *pmd);
		for (uint32_t k = 0; k < span && i / 32 < words; k++, i++) {
			uint64_t a = addr + ((uint64_t)k << PAGE_SHIFT), e;
			uint32_t pfn = MMSIM_NONE;

			if (leaf) {
				pfn = pte_pfn(*pmd) +
				      (uint32_t)((a & (PMD_SIZE - 1)) >> PAGE_SHIFT);
			} else if (t) {
				e = t[pgt_level_index(a, MMSIM_PGT_PTE)];
				if (pte_present(e) && !(e & MMSIM_PTE_SPECIAL))
					pfn = pte_pfn(e);
			}
			if (pfn != MMSIM_NONE && prev != MMSIM_NONE && pfn == prev + 1 &&
			    folio_test_large(pfn_to_page(sim, compound_head(sim, pfn))) &&
			    compound_head(sim, pfn) == compound_head(sim, prev))
				out[i / 32] |= 1u << (i % 32);
			prev = pfn;
		}
	}
	return words;
}

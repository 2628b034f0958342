/*
 * query.c - read-only views of the state for the hosts (counters, VMAs,
 * page-table walks, PTE tables, pages, the page cache, LRU heads, heat
 * strips). Nothing here changes the simulation.
 */
#include "internal.h"
#include "memory.h"
#include "swap.h"
#include "xarray.h"

/* struct layouts: generated with the TypeScript side, checked by the drift test (interface_gen.c) */

uint64_t mmsim_counter(const struct mmsim *sim, uint32_t id)
{
	return id < MMSIM_NR_COUNTERS ? sim->s.counters[id] : 0;
}

const uint64_t *mmsim_counters(const struct mmsim *sim)
{
	return sim->s.counters;
}
uint32_t mmsim_nr_tasks(const struct mmsim *sim)
{
	return sim->s.hdr.nr_tasks;
}
uint32_t mmsim_nr_mms(const struct mmsim *sim)
{
	return sim->s.hdr.nr_procs;
}

int mmsim_task_info(const struct mmsim *sim, uint32_t task, struct mmsim_task_info *out)
{
	const struct task_struct *t;

	if (task >= sim->s.hdr.nr_tasks)
		return MMSIM_EINVAL;
	t = task_ptr(sim, task);
	out->mm = t->mm;
	out->alive = t->alive;
	memcpy(out->counters, t->counters, sizeof(out->counters));
	return 0;
}

int mmsim_mm_info(const struct mmsim *sim, uint32_t mm, struct mmsim_mm_info *out)
{
	const struct mm_struct *m;

	if (mm >= sim->s.hdr.nr_procs)
		return MMSIM_EINVAL;
	m = mm_ptr(sim, mm);
	memset(out, 0, sizeof(*out));
	out->alive = m->alive;
	out->nr_vmas = m->map_count;
	out->pgd_pfn = m->pgd;
	out->exited = m->exited;
	for (int i = 0; i < MMSIM_NR_MM_COUNTERS; i++)
		out->counters[i] = m->rss[i];
	out->counters[MMSIM_MM_MAP_COUNT] = m->map_count;
	return 0;
}

int mmsim_file_info(const struct mmsim *sim, uint32_t file, struct mmsim_file_info *out)
{
	const struct file *f;

	if (file >= sim->s.hdr.nr_files)
		return MMSIM_EINVAL;
	f = file_ptr(sim, file);
	out->size = f->i_size;
	out->nrpages = f->nrpages;
	out->mmap_miss = f->f_ra.mmap_miss;
	out->ra_start = f->f_ra.start;
	out->ra_size = f->f_ra.size;
	out->ra_async_size = f->f_ra.async_size;
	return 0;
}

uint32_t mmsim_vmas(const struct mmsim *sim, uint32_t mm, struct mmsim_vma_info *out, uint32_t max)
{
	uint32_t n = 0;

	if (mm >= sim->s.hdr.nr_procs || !mm_ptr(sim, mm)->alive)
		return 0;
	for (uint32_t id = mm_ptr(sim, mm)->mmap; id && n < max; id = vma_ptr(sim, id)->vm_next) {
		const struct vm_area_struct *v = vma_ptr(sim, id);

		out[n++] = (struct mmsim_vma_info){
			.vm_start = v->vm_start,
			.vm_end = v->vm_end,
			.vm_pgoff = v->vm_pgoff,
			.vm_flags = v->vm_flags,
			.file = v->vm_file,
			.id = id,
			.anon_vma = v->anon_vma,
			.map = v->map,
		};
	}
	return n;
}

int mmsim_walk(const struct mmsim *sim, uint32_t mm, uint64_t addr, struct mmsim_walk *out)
{
	static const int shift[4] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };
	const struct mm_struct *m;
	uint32_t table;

	memset(out, 0, sizeof(*out));
	out->addr = addr;
	if (mm >= sim->s.hdr.nr_procs)
		return MMSIM_EINVAL;
	m = mm_ptr(sim, mm);
	table = m->pgd;
	for (int level = 0; level < 4; level++) {
		uint32_t idx = (uint32_t)(addr >> shift[level]) & (PTRS_PER_PTE - 1);
		uint64_t e;

		out->index[level] = idx;
		if (!table)
			break;
		out->table_pfn[level] = table;
		e = pgt_table(sim, pfn_to_page(sim, table)->private)[idx];
		out->entry[level] = e;
		if (level == 3 || !(e & MMSIM_PTE_PRESENT) || (e & MMSIM_PTE_PSE))
			table = 0;
		else
			table = (uint32_t)((e & MMSIM_PTE_PFN_MASK) >> PAGE_SHIFT);
	}
	return 0;
}

uint32_t mmsim_pte_table(const struct mmsim *sim, uint32_t mm, uint64_t addr, uint64_t *out512)
{
	struct mmsim_walk w;

	memset(out512, 0, PTRS_PER_PTE * sizeof(uint64_t));
	if (mmsim_walk(sim, mm, addr, &w) || !w.table_pfn[3])
		return 0;
	memcpy(out512, pgt_table(sim, pfn_to_page(sim, w.table_pfn[3])->private),
	       PTRS_PER_PTE * sizeof(uint64_t));
	return w.table_pfn[3];
}

int mmsim_page_info(const struct mmsim *sim, uint32_t pfn, struct mmsim_page_info *out)
{
	const struct page *p;

	memset(out, 0, sizeof(*out));
	if (pfn >= sim->s.high_water)
		return MMSIM_EINVAL;
	p = pfn_to_page(sim, pfn);
	out->pfn = pfn;
	out->flags = p->flags;
	out->refcount = p->_refcount;
	out->mapcount = p->_mapcount + 1;
	out->lru = MMSIM_NONE;
	if (p->flags & (PGTY(buddy) | PGTY(table)))
		return 0;
	if (!(p->flags & PF(tail))) {
		out->mapping = (p->flags & PF(anon)) ? (p->mapping | 0x80000000u) : p->mapping;
		out->index = p->index;
		out->order = folio_order(sim, pfn);
		if (p->flags & PF(lru))
			out->lru = (uint32_t)folio_lru_list(p);
	}
	return 0;
}

uint32_t mmsim_pte_states(const struct mmsim *sim, uint32_t mm, uint64_t start, uint32_t n,
			  uint8_t *out)
{
	const struct mm_struct *m;
	const uint64_t *t = NULL;
	uint64_t base = 1, leaf = 0;

	memset(out, 0, n);
	if (mm >= sim->s.hdr.nr_procs || !mm_ptr(sim, mm)->alive)
		return 0;
	m = mm_ptr(sim, mm);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = start + (uint64_t)i * PAGE_SIZE, e;
		uint8_t v;

		if ((addr & ~(PMD_SIZE - 1)) != base) {
			uint64_t *pte = walk_pte(sim, m, addr);

			base = addr & ~(PMD_SIZE - 1);
			t = pte ? pte - ((addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)) : NULL;
			leaf = 0;
			if (!t) {
				const uint64_t *pmd = mm_find_pmd(sim, m, addr);

				if (pmd && pte_present(*pmd) && (*pmd & MMSIM_PTE_PSE))
					leaf = *pmd;
			}
		}
		if (leaf) {
			/* a PMD leaf maps every page of its 2 MiB: one state for all (| 16: mapped by a PMD) */
			out[i] = (uint8_t)((pte_write(leaf) ? 3 : 1) |
					   ((leaf & MMSIM_PTE_SPECIAL) ? 8 : 4) | 16);
			continue;
		}
		if (!t)
			continue;
		e = t[(addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
		if (!pte_present(e))
			continue;
		v = pte_write(e) ? 3 : 1; /* bit 0 present, bit 1 writable */
		if (e & MMSIM_PTE_SPECIAL)
			v |= 8;
		else if (pfn_to_page(sim, compound_head(sim, pte_pfn(e)))->flags & PF(anon))
			v |= 4;
		out[i] = v;
	}
	return n;
}

uint32_t mmsim_pte_heat(const struct mmsim *sim, uint32_t mm, uint64_t start, uint64_t end,
			uint32_t n, uint32_t *out)
{
	const struct mm_struct *m;
	uint64_t span;

	memset(out, 0, (size_t)n * sizeof(*out));
	if (!n || end <= start || mm >= sim->s.hdr.nr_procs || !mm_ptr(sim, mm)->alive)
		return 0;
	m = mm_ptr(sim, mm);
	span = end - start;
	for (uint64_t addr = start & ~(PMD_SIZE - 1); addr < end; addr += PMD_SIZE) {
		uint64_t *pte = walk_pte(sim, m, addr);
		const uint64_t *t, *pmd = pte ? NULL : mm_find_pmd(sim, m, addr);
		bool leaf = pmd && pte_present(*pmd) && (*pmd & MMSIM_PTE_PSE);

		if (!pte && !leaf)
			continue;
		t = pte ? pte - ((addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)) : NULL;
		for (uint32_t i = 0; i < PTRS_PER_PTE; i++) {
			uint64_t a = addr + (uint64_t)i * PAGE_SIZE;

			/* a PMD leaf maps all 512 pages */
			if (a < start || a >= end || (!leaf && !pte_present(t[i])))
				continue;
			/* bucket = (a - start) * n / span, without overflow */
			out[(uint32_t)(((a - start) >> PAGE_SHIFT) * n / (span >> PAGE_SHIFT))]++;
		}
	}
	return n;
}

uint32_t mmsim_pagecache(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n,
			 uint32_t *out)
{
	if (file >= sim->s.hdr.nr_files)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t e = xa_load(sim, &file_ptr(sim, file)->i_pages, pgoff + i);

		out[i] = !e ? 0 : xa_is_value(e) ? MMSIM_NONE : xa_to_pfn(e);
	}
	return n;
}

uint32_t mmsim_pagecache_states(const struct mmsim *sim, uint32_t file, uint64_t pgoff, uint32_t n,
				uint8_t *out)
{
	const struct file *f;
	uint32_t run = 0, *slot = NULL;

	if (file >= sim->s.hdr.nr_files)
		return 0;
	f = file_ptr(sim, file);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t e;
		const struct page *folio;

		if (!run)
			slot = xa_slot(sim, &f->i_pages, pgoff + i, &run);
		e = slot ? *slot++ : 0;
		run--;
		if (!e) {
			out[i] = MMSIM_PC_NONE;
			continue;
		}
		if (xa_is_value(e)) {
			out[i] = MMSIM_PC_SHADOW;
			continue;
		}
		folio = pfn_to_page(sim, compound_head(sim, xa_to_pfn(e)));
		out[i] = (folio_test(folio, uptodate) ? MMSIM_PC_UPTODATE : MMSIM_PC_READING) |
			 (folio_test(folio, readahead) ? MMSIM_PC_READAHEAD : 0) |
			 (xa_to_pfn(e) != compound_head(sim, xa_to_pfn(e)) ? MMSIM_PC_CONT : 0);
	}
	return n;
}

uint32_t mmsim_lru_head(const struct mmsim *sim, uint32_t list, uint32_t *out, uint32_t max)
{
	uint32_t head, pfn, n = 0;

	if (list >= MMSIM_NR_LRU_LISTS)
		return 0;
	head = sim->s.lruvec.head[list];
	if (!head)
		return 0;
	pfn = head;
	do {
		out[n++] = pfn;
		pfn = pfn_to_page(sim, pfn)->lru_next;
	} while (pfn != head && n < max);
	return n;
}

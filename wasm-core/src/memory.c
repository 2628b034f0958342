/*
 * memory.c - page tables and the page-fault path (mm/memory.c,
 * arch/x86/mm/fault.c).
 *
 * Page tables are x86-64 4-level: PGD -> PUD -> PMD -> PTE, 512 entries
 * each (P4D folded). A table is a page frame (PGTY_table, counted in
 * nr_page_table_pages) whose 512 entries live in the page-table pool; an
 * entry of an upper level holds the lower table's pfn with
 * _PAGE_TABLE bits, a PTE holds the mapped pfn with P/RW/US/A/D bits. PMD
 * leaf entries (PSE) are reserved for THP. Upper tables are allocated on
 * demand by __handle_mm_fault (pud_alloc, pmd_alloc); the PTE table when the
 * first PTE is about to be set (v4.8+: the fault-around path preallocates it
 * and filemap_map_pmd() installs it only if there is something to map).
 *
 * A user access (user_access) walks the tables like the MMU; a present PTE
 * with enough permission costs no fault, it only sets the accessed (and
 * dirty) bit. Otherwise the CPU faults (handle_user_fault) and
 * do_user_addr_fault() runs:
 *
 *   find_vma -> access_error? -> handle_mm_fault -> handle_pte_fault
 *     pte none, anonymous VMA   -> do_anonymous_page  (zero page / new page)
 *     pte none, file VMA, read  -> do_read_fault      (fault-around first)
 *                        write  -> do_cow_fault (private) / do_shared_fault
 *     present, write, !writable -> do_wp_page (reuse / copy / shared mkwrite)
 *   VM_FAULT_RETRY -> again, with FAULT_FLAG_TRIED if the first attempt
 *                     was major or this is a second retry
 *   mm_account_fault: pgfault +1 per completed fault (v5.9+), maj_flt if
 *   VM_FAULT_MAJOR or FAULT_FLAG_TRIED, else min_flt.
 *
 * With kernel.thp, __handle_mm_fault tries the PMD level first (a none
 * PMD: create_huge_pmd; a leaf: wp_huge_pmd), huge_memory.c. The walks over
 * ranges - zap, fork's copy - go through walk_page_range() (pagewalk.c),
 * whose pmd_entry callbacks here handle a leaf whole or split it.
 *
 * Not modelled: the TLB (an unmapped PTE is gone at once), page-table
 * locks, swap entries.
 */
#include "internal.h"
#include "filemap.h"
#include "huge_mm.h"
#include "memory.h"
#include "mmap.h"
#include "page_alloc.h"
#include "pagewalk.h"
#include "prefault.h"
#include "rmap.h"
#include "swap.h"
#include "vmacache.h"
#include "writeback.h"

#define _PAGE_TABLE \
	(MMSIM_PTE_PRESENT | MMSIM_PTE_RW | MMSIM_PTE_USER | MMSIM_PTE_ACCESSED | MMSIM_PTE_DIRTY)

/*
 * A page-table page: a frame plus 512 zeroed entries, hooked into its parent
 * *entry (the PGD has none: pgd_alloc() keeps it in mm->pgd) before the
 * event, so that a walk at mm_pgtable_alloc goes through it. Returns its
 * pfn or 0.
 */
static uint32_t table_alloc(struct mmsim *sim, struct mm_struct *mm, int level, uint64_t addr,
			    uint64_t *entry)
{
	uint32_t pfn, tid;
	struct page *p;

	if (alloc_page(sim, &pfn, MMSIM_USE_PGTABLE))
		return 0;
	tid = pool_alloc(sim, POOL_PGTABLE);
	if (!tid) {
		pfn_to_page(sim, pfn)->_refcount = 0;
		free_pages(sim, pfn, 0);
		return 0;
	}
	memset(pgt_table(sim, tid), 0, PTRS_PER_PTE * sizeof(uint64_t));
	p = pfn_to_page(sim, pfn);
	p->flags = PGTY(table);
	p->private = tid;
	mod_node_page_state(sim, MMSIM_NR_PAGE_TABLE_PAGES, 1);
	mm->rss[MMSIM_MM_PGTABLES]++;
	if (entry)
		*entry = ((uint64_t)pfn << PAGE_SHIFT) | _PAGE_TABLE;
	trace_mm_pgtable_alloc(sim, addr, level, pfn);
	return pfn;
}

/* the caller unhooked it already; the event once the table is gone, before its frame is freed */
static void table_free(struct mmsim *sim, struct mm_struct *mm, uint32_t pfn, int level,
		       uint64_t addr)
{
	struct page *p = pfn_to_page(sim, pfn);

	pool_free(sim, POOL_PGTABLE, p->private);
	p->flags = 0;
	p->private = 0;
	mod_node_page_state(sim, MMSIM_NR_PAGE_TABLE_PAGES, -1);
	mm->rss[MMSIM_MM_PGTABLES]--;
	mm_flush_walk_cache(mm);
	trace_mm_pgtable_free(sim, addr, level, pfn);
	free_pages(sim, pfn, 0);
}

int pgd_alloc(struct mmsim *sim, struct mm_struct *mm)
{
	mm->pgd = table_alloc(sim, mm, MMSIM_PGT_PGD, 0, NULL);
	mm_flush_walk_cache(mm);
	return mm->pgd ? 0 : MMSIM_EOOM;
}

void pgd_free(struct mmsim *sim, struct mm_struct *mm)
{
	uint32_t pgd = mm->pgd;

	mm->pgd = 0;
	if (pgd)
		table_free(sim, mm, pgd, MMSIM_PGT_PGD, 0);
}

/* pte_alloc_one() / pte_free(): a PTE table not (yet) hooked anywhere: THP's deposit */
uint32_t pte_alloc_one(struct mmsim *sim, struct mm_struct *mm, uint64_t addr)
{
	return table_alloc(sim, mm, MMSIM_PGT_PTE, addr, NULL);
}

void pte_free(struct mmsim *sim, struct mm_struct *mm, uint32_t pfn, uint64_t addr)
{
	table_free(sim, mm, pfn, MMSIM_PGT_PTE, addr);
}

/* mm_find_pmd(): the PMD entry for addr (a table, a leaf or none), NULL if a table above is missing */
uint64_t *mm_find_pmd(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr)
{
	uint64_t *t = table_of_pfn(sim, mm->pgd);

	for (int level = MMSIM_PGT_PGD; level < MMSIM_PGT_PMD; level++) {
		uint64_t e = t[pgt_level_index(addr, level)];

		if (!(e & MMSIM_PTE_PRESENT))
			return NULL;
		t = table_of_entry(sim, e);
	}
	return &t[pgt_level_index(addr, MMSIM_PGT_PMD)];
}

/*
 * follow_page_pfn() (the kernel's folio_walk_start()): the page mapped at
 * addr, through a PTE or a PMD leaf, and the entry (*entry) that maps it;
 * MMSIM_NONE if none, or the zero page.
 */
uint32_t follow_page_pfn(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr,
			 uint64_t *entry)
{
	const uint64_t *pmd = mm_find_pmd(sim, mm, addr), *pte;

	if (!pmd || !pte_present(*pmd))
		return MMSIM_NONE;
	if (*pmd & MMSIM_PTE_PSE) {
		if (entry)
			*entry = *pmd;
		return (*pmd & MMSIM_PTE_SPECIAL) ?
			       MMSIM_NONE :
			       pte_pfn(*pmd) + (uint32_t)((addr & (PMD_SIZE - 1)) >> PAGE_SHIFT);
	}
	pte = &table_of_entry(sim, *pmd)[pgt_level_index(addr, MMSIM_PGT_PTE)];
	if (entry)
		*entry = *pte;
	return pte_present(*pte) && !(*pte & MMSIM_PTE_SPECIAL) ? pte_pfn(*pte) : MMSIM_NONE;
}

/* the PTE for addr, or NULL if a table on the way is missing (or a PMD leaf maps it) */
uint64_t *walk_pte(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr)
{
	uint64_t *t = table_of_pfn(sim, mm->pgd);
	uint64_t e;

	for (int level = MMSIM_PGT_PGD; level < MMSIM_PGT_PTE; level++) {
		e = t[pgt_level_index(addr, level)];
		if (!(e & MMSIM_PTE_PRESENT) || (e & MMSIM_PTE_PSE))
			return NULL;
		t = table_of_entry(sim, e);
	}
	return &t[pgt_level_index(addr, MMSIM_PGT_PTE)];
}

/*
 * The MMU's walk, with the model's own one-entry paging-structure cache per
 * mm (hardware has one too: the PDE cache): sequential touches stay within
 * one PTE table for 512 pages. Invalidated whenever a table is freed or a
 * leaf split. A PMD leaf (a THP) ends the walk: the entry returned is the
 * PMD itself, whose P/RW/A/D bits the MMU reads and sets as a PTE's.
 */
static uint64_t *mmu_walk(const struct mmsim *sim, struct mm_struct *mm, uint64_t addr)
{
	uint64_t base = addr & ~(PMD_SIZE - 1);
	uint64_t *t, e;

	if (likely(mm->ptc_addr == base))
		return &pgt_table(sim, mm->ptc_table)[pgt_level_index(addr, MMSIM_PGT_PTE)];
	if (mm->pmc_addr == (addr & ~(PUD_SIZE - 1))) {
		t = pgt_table(sim, mm->pmc_table);
		e = t[pgt_level_index(addr, MMSIM_PGT_PMD)];
		if (!(e & MMSIM_PTE_PRESENT))
			return NULL;
		if (e & MMSIM_PTE_PSE)
			return &t[pgt_level_index(addr, MMSIM_PGT_PMD)];
	} else {
		t = table_of_pfn(sim, mm->pgd);
		for (int level = MMSIM_PGT_PGD;; level++) {
			e = t[pgt_level_index(addr, level)];
			if (!(e & MMSIM_PTE_PRESENT))
				return NULL;
			if (level == MMSIM_PGT_PMD) {
				if (e & MMSIM_PTE_PSE)
					return &t[pgt_level_index(addr, MMSIM_PGT_PMD)];
				break;
			}
			if (e & MMSIM_PTE_PSE)
				return NULL; /* PUD leaves: not modelled */
			if (level == MMSIM_PGT_PUD) {
				mm->pmc_addr = addr & ~(PUD_SIZE - 1);
				mm->pmc_table = pfn_to_page(sim, pte_pfn(e))->private;
			}
			t = table_of_entry(sim, e);
		}
	}
	mm->ptc_addr = base;
	mm->ptc_table = pfn_to_page(sim, pte_pfn(e))->private;
	return &pgt_table(sim, mm->ptc_table)[pgt_level_index(addr, MMSIM_PGT_PTE)];
}

/* pud_alloc + pmd_alloc: the PMD entry for addr, allocating the tables above it */
static uint64_t *pmd_alloc_walk(struct mmsim *sim, struct mm_struct *mm, uint64_t addr)
{
	uint64_t base = addr & ~(PUD_SIZE - 1);
	uint32_t tid;

	if (likely(mm->pmc_addr == base))
		return &pgt_table(sim, mm->pmc_table)[pgt_level_index(addr, MMSIM_PGT_PMD)];
	tid = pfn_to_page(sim, mm->pgd)->private;
	for (int level = MMSIM_PGT_PGD; level < MMSIM_PGT_PMD; level++) {
		uint64_t *e = &pgt_table(sim, tid)[pgt_level_index(addr, level)];

		if (!*e && !table_alloc(sim, mm, level + 1, addr, e))
			return NULL;
		tid = pfn_to_page(sim, pte_pfn(*e))->private;
	}
	mm->pmc_addr = base;
	mm->pmc_table = tid;
	return &pgt_table(sim, tid)[pgt_level_index(addr, MMSIM_PGT_PMD)];
}

uint64_t *pmd_alloc(struct mmsim *sim, struct mm_struct *mm, uint64_t addr)
{
	return pmd_alloc_walk(sim, mm, addr);
}

/* pte_alloc(): install the PTE table under vmf->pmd if missing; its table id, 0 on OOM */
uint32_t pte_alloc(struct mmsim *sim, struct vm_fault *vmf)
{
	if (!*vmf->pmd &&
	    !table_alloc(sim, mm_ptr(sim, vmf->mm), MMSIM_PGT_PTE, vmf->address, vmf->pmd))
		return 0;
	return pfn_to_page(sim, pte_pfn(*vmf->pmd))->private;
}

static uint64_t *vmf_pte(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t tid;

	if (vmf->ptep && *vmf->pmd)
		return vmf->ptep;
	tid = pte_alloc(sim, vmf);
	if (!tid)
		return NULL;
	vmf->ptep = &pgt_table(sim, tid)[pgt_level_index(vmf->address, MMSIM_PGT_PTE)];
	return vmf->ptep;
}

static inline uint64_t mk_pte(uint32_t pfn)
{
	return ((uint64_t)pfn << PAGE_SHIFT) | MMSIM_PTE_PRESENT | MMSIM_PTE_USER;
}

/*
 * vm_page_prot of a shared writable mapping is writable unless the mapping
 * wants write notifications (vma_wants_writenotify()): a disk file has
 * ->page_mkwrite, so its PTEs start read-only and the first write faults to
 * dirty the page; tmpfs has no ->page_mkwrite, so even a read fault maps the
 * page writable and a later write costs no fault (the CPU sets the dirty bit).
 */
static bool vma_page_prot_writable(const struct mmsim *sim, const struct vm_area_struct *vma)
{
	const uint32_t shared_write = MMSIM_VM_SHARED | MMSIM_VM_WRITE;

	return (vma->vm_flags & shared_write) == shared_write && vma_is_shmem(sim, vma);
}

/*
 * set_pte_range() for one page: young (x86 makes prefaulted PTEs young too),
 * writable and dirty for a write fault, writable if vm_page_prot is (above);
 * a private write maps a new anon folio, everything else a file folio. The
 * caller takes the reference and updates RSS.
 */
/*
 * The entry set_pte_range() gives a page of a read fault in this VMA, but
 * its pfn: fault-around's untraced batch (filemap.c) builds its PTEs from
 * it. A read fault never takes set_pte_range()'s anon branch.
 */
uint64_t read_fault_pte_bits(const struct mmsim *sim, const struct vm_area_struct *vma)
{
	return mk_pte(0) | MMSIM_PTE_ACCESSED |
	       (vma_page_prot_writable(sim, vma) ? MMSIM_PTE_RW : 0);
}

void set_pte_range(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn, uint64_t addr,
		   uint64_t *pte, uint32_t how)
{
	bool write = vmf->flags & MMSIM_FAULT_FLAG_WRITE;
	uint64_t entry = mk_pte(pfn) | MMSIM_PTE_ACCESSED;

	if (write)
		entry |= MMSIM_PTE_RW | MMSIM_PTE_DIRTY;
	else if (vma_page_prot_writable(sim, vmf->vma))
		entry |= MMSIM_PTE_RW;
	if (write && !(vmf->vma->vm_flags & MMSIM_VM_SHARED)) {
		folio_add_new_anon_rmap(sim, pfn, vmf->vma, addr, false);
		lru_cache_add_lru(sim, pfn,
				  MMSIM_LRU_ACTIVE_ANON); /* page_add_new_anon_rmap(), 2.6.39 */
	} else {
		folio_add_file_rmap_pte(sim, pfn);
	}
	*pte = entry;
	vmf->mapped++;
	trace_mm_set_pte(sim, addr, pfn, pfn_to_page(sim, pfn)->index, how, (entry & 0xfff));
}

/* ------------------------------------------------------------- anonymous */

/* a read of anonymous memory maps the shared zero page: read-only, no struct page reference, no RSS */
void set_zero_pte(struct mmsim *sim, struct vm_fault *vmf, uint64_t addr, uint64_t *pte)
{
	uint64_t entry = mk_pte(0) | MMSIM_PTE_ACCESSED | MMSIM_PTE_SPECIAL;

	*pte = entry;
	vmf->mapped++;
	trace_mm_set_pte(sim, addr, 0, linear_page_index(vmf->vma, addr), MMSIM_SET_ZERO,
			 (entry & 0xfff));
}

/*
 * alloc_anon_folio() (6.8+, docs/kernel.md, "Large folios"): of the enabled mTHP
 * orders (kernel.mthp; PMD order is THP's), those whose naturally aligned
 * block around the fault lies inside the VMA; from the highest, the first
 * whose PTEs are all none; then allocate from that order down, counting
 * anon_fault_fallback for each order that fails, and order 0 last. Returns
 * the order allocated (its pfn in *pfn), -1 when even order 0 failed.
 * pte is the faulting address's PTE.
 */
static int alloc_anon_folio(struct mmsim *sim, struct vm_fault *vmf, const uint64_t *pte,
			    uint32_t *pfn)
{
	const struct vm_area_struct *vma = vmf->vma;
	uint32_t orders = sim->s.hdr.mthp_orders & ((1u << (PMD_SHIFT - PAGE_SHIFT)) - 1) & ~1u,
		 suitable = 0;
	int order, top = 0;

	if (!orders) /* no mTHP size enabled (the default): the one-page fault, at once */
		return alloc_page(sim, pfn, MMSIM_USE_ANON) ? -1 : 0;
	/* thp_vma_suitable_orders(): the naturally aligned block around the fault lies in the VMA */
	for (order = 1; orders >> order; order++) {
		uint64_t size = PAGE_SIZE << order, addr = vmf->address & ~(size - 1);

		if ((orders >> order & 1) && addr >= vma->vm_start && addr + size <= vma->vm_end)
			suitable |= 1u << order;
	}
	/* pte_range_none(): the highest suitable order whose PTEs are all none */
	for (order = PMD_SHIFT - PAGE_SHIFT - 1; order > 0 && !top; order--) {
		const uint64_t *first =
			pte - ((vmf->address & ((PAGE_SIZE << order) - 1)) >> PAGE_SHIFT);
		uint32_t i;

		if (!(suitable >> order & 1))
			continue;
		for (i = 0; i < (1u << order) && !first[i]; i++)
			;
		if (i == (1u << order))
			top = order;
	}
	/* allocate from there down, through the suitable orders; order 0 last */
	for (order = top; order > 0; order--) {
		if (!(suitable >> order & 1))
			continue;
		if (!alloc_pages(sim, (unsigned)order, pfn, MMSIM_USE_ANON)) {
			count_vm_event(sim, MMSIM_ANON_FAULT_ALLOC);
			return order;
		}
		count_vm_event(sim, MMSIM_ANON_FAULT_FALLBACK);
	}
	return alloc_page(sim, pfn, MMSIM_USE_ANON) ? -1 : 0;
}

static uint32_t do_anonymous_page(struct mmsim *sim, struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	uint64_t *pte = vmf_pte(sim, vmf);
	uint64_t entry, addr;
	uint32_t pfn, nr;
	int order;

	if (!pte)
		return MMSIM_VM_FAULT_OOM;
	if (unlikely(sim->s.hdr.anon_prefault == MMSIM_PREFAULT_ANTICIPATORY)) {
		/* the 2004 anticipatory prefault (prefault.c): a predicted fault maps a batch; a miss goes on below */
		uint32_t ret = do_anon_prefault(sim, vmf, pte);

		if (ret != PREFAULT_MISS)
			return ret;
	}
	if (!(vmf->flags & MMSIM_FAULT_FLAG_WRITE)) {
		set_zero_pte(sim, vmf, vmf->address, pte);
		vmf->kind = MMSIM_FK_ANON_ZERO;
		return 0;
	}
	anon_vma_prepare(sim, vmf->vma_id);
	order = alloc_anon_folio(sim, vmf, pte, &pfn);
	if (order < 0)
		return MMSIM_VM_FAULT_OOM;
	nr = 1u << order;
	addr = vmf->address & ~((PAGE_SIZE << order) - 1);
	pte -= (vmf->address - addr) >> PAGE_SHIFT;
	pfn_to_page(sim, pfn)->_refcount +=
		(int32_t)nr - 1; /* folio_ref_add(folio, nr_pages - 1): a reference per PTE */
	folio_add_new_anon_rmap(sim, pfn, vma, addr, false);
	lru_cache_add_lru(sim, pfn, MMSIM_LRU_ACTIVE_ANON); /* page_add_new_anon_rmap(), 2.6.39 */
	mm_ptr(sim, vmf->mm)->rss[MMSIM_MM_ANONPAGES] += nr;
	/* set_ptes(): the folio's 2^order PTEs in one fault */
	for (uint32_t i = 0; i < nr; i++) {
		entry = mk_pte(pfn + i) | MMSIM_PTE_ACCESSED | MMSIM_PTE_RW | MMSIM_PTE_DIRTY;
		pte[i] = entry;
		vmf->mapped++;
		trace_mm_set_pte(sim, addr + i * PAGE_SIZE, pfn + i,
				 pfn_to_page(sim, pfn)->index + i, MMSIM_SET_ANON, (entry & 0xfff));
	}
	vmf->kind = MMSIM_FK_ANON_NEW;
	return 0;
}

/* ------------------------------------------------------------- file faults */

/*
 * do_fault_around() - v6.4+ (v6.19 memory.c), in PTE-index space:
 *
 *   pte_off  = index of the faulting address in its page table
 *   vma_off  = page offset of the faulting address in the VMA
 *   from_pte = max(ALIGN_DOWN(pte_off, W), pte_off - min(pte_off, vma_off))
 *   to_pte   = min(from_pte + W, PTRS_PER_PTE, pte_off + vma_pages - vma_off) - 1
 *
 * i.e. the naturally aligned W-page block around the fault, clamped to the
 * VMA start (then W pages from there), the VMA end and the page table.
 */
static uint32_t do_fault_around(struct mmsim *sim, struct vm_fault *vmf)
{
	uint64_t nr_pages = sim->s.fault_around_pages;
	uint64_t pte_off = pgt_level_index(vmf->address, MMSIM_PGT_PTE);
	uint64_t vma_off = vmf->pgoff - vmf->vma->vm_pgoff;
	uint64_t from_pte, to_pte;

	from_pte = MAX(ALIGN_DOWN(pte_off, nr_pages), pte_off - MIN(pte_off, vma_off));
	to_pte = MIN(MIN(from_pte + nr_pages, (uint64_t)PTRS_PER_PTE),
		     pte_off + vma_pages(vmf->vma) - vma_off) -
		 1;
	return filemap_map_pages(sim, vmf, vmf->pgoff + from_pte - pte_off,
				 vmf->pgoff + to_pte - pte_off);
}

/* should_fault_around(): ->map_pages exists for every file here, no uffd */
static bool should_fault_around(const struct mmsim *sim)
{
	return sim->s.fault_around_pages > 1;
}

/*
 * finish_fault() of a large page-cache folio (6.18, "mm/fault: try to map
 * the entire file folio in finish_fault()"): every page of the folio, when
 * the folio lies inside the VMA and inside this page table and does not
 * reach past i_size (DIV_ROUND_UP(i_size) < folio_next_index: one page);
 * the folio's reference from ->fault becomes one per PTE. Returns false to
 * map the one page instead. Where some of the folio's PTEs are already
 * present the kernel answers VM_FAULT_NOPAGE and the access faults again;
 * the model maps the one page at once.
 */
static bool finish_fault_folio(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn, uint64_t *pte)
{
	const struct vm_area_struct *vma = vmf->vma;
	const struct file *f = file_ptr(sim, vma->vm_file - 1);
	uint32_t head = compound_head(sim, pfn), nr = 1u << folio_order(sim, head);
	struct page *folio = pfn_to_page(sim, head);
	uint64_t idx = pfn - head, vma_off = vmf->pgoff - vma->vm_pgoff,
		 pte_off = (vmf->address >> PAGE_SHIFT) & (PTRS_PER_PTE - 1), addr;
	uint64_t *first = pte - idx;

	if (!shmem_file(f) && DIV_ROUND_UP(f->i_size, PAGE_SIZE) < (uint64_t)folio->index + nr)
		return false;
	if (vma_off < idx || vma_off + (nr - idx) > ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT) ||
	    pte_off < idx || pte_off + (nr - idx) > PTRS_PER_PTE)
		return false;
	for (uint32_t i = 0; i < nr; i++)
		if (!pte_none(first[i]))
			return false;
	addr = vmf->address - idx * PAGE_SIZE;
	folio->_refcount += (int32_t)nr - 1; /* folio_ref_add(folio, nr_pages - 1) */
	for (uint32_t i = 0; i < nr; i++)
		set_pte_range(sim, vmf, head + i, addr + (uint64_t)i * PAGE_SIZE, first + i,
			      MMSIM_SET_FAULT);
	mm_ptr(sim, vmf->mm)->rss[mm_counter_file(folio)] += nr;
	return true;
}

/*
 * finish_fault(): map vmf->page (or the COW copy) at the faulting address.
 * vmf->page comes referenced from ->fault; mapped, that reference is the
 * PTE's; not mapped, the caller puts it.
 */
static uint32_t finish_fault(struct mmsim *sim, struct vm_fault *vmf, bool cow)
{
	uint64_t *pte = vmf_pte(sim, vmf);
	uint32_t pfn = cow ? vmf->cow_page : vmf->page;
	struct mm_struct *mm = mm_ptr(sim, vmf->mm);

	if (!pte)
		return MMSIM_VM_FAULT_OOM;
	if (!pte_none(*pte))
		return MMSIM_VM_FAULT_NOPAGE; /* somebody else mapped it meanwhile */
	if (!cow && folio_test_large(pfn_to_page(sim, compound_head(sim, pfn))) &&
	    finish_fault_folio(sim, vmf, pfn, pte))
		return 0;
	set_pte_range(sim, vmf, pfn, vmf->address, pte, cow ? MMSIM_SET_COW : MMSIM_SET_FAULT);
	if (cow)
		mm->rss[MMSIM_MM_ANONPAGES]++;
	else
		mm->rss[mm_counter_file(pfn_to_page(sim, pfn))]++;
	return 0;
}

/* __do_fault(): vma->vm_ops->fault, filemap_fault or shmem_fault */
static uint32_t __do_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	if (vma_is_shmem(sim, vmf->vma))
		return shmem_fault(sim, vmf);
	return filemap_fault(sim, vmf);
}

static uint32_t do_read_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t ret;

	if (should_fault_around(sim)) {
		ret = do_fault_around(sim, vmf);
		if (ret) {
			vmf->kind = MMSIM_FK_FILE_AROUND;
			return ret;
		}
	}
	ret = __do_fault(sim, vmf);
	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE | MMSIM_VM_FAULT_RETRY))
		return ret;
	vmf->kind = MMSIM_FK_FILE_READ;
	ret |= finish_fault(sim, vmf, false);
	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE))
		folio_put(sim, compound_head(sim, vmf->page));
	return ret;
}

/* do_cow_fault(): a private copy of the page-cache page; no fault-around */
static uint32_t do_cow_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t ret;

	anon_vma_prepare(sim, vmf->vma_id);
	if (alloc_page(sim, &vmf->cow_page, MMSIM_USE_ANON))
		return MMSIM_VM_FAULT_OOM;
	ret = __do_fault(sim, vmf);
	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE | MMSIM_VM_FAULT_RETRY)) {
		folio_put(sim, vmf->cow_page);
		vmf->cow_page = 0;
		return ret;
	}
	/* copy_mc_user_highpage(): the model keeps no page contents; then put_page(vmf->page) */
	folio_set(pfn_to_page(sim, vmf->cow_page), uptodate);
	folio_put(sim, compound_head(sim, vmf->page));
	vmf->kind = MMSIM_FK_FILE_COW;
	ret |= finish_fault(sim, vmf, true);
	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE))
		folio_put(sim, vmf->cow_page);
	return ret;
}

/*
 * do_shared_fault(): ->fault, ->page_mkwrite (a disk file: dirty it), map
 * writable, fault_dirty_shared_page() (tmpfs, which has no ->page_mkwrite:
 * dirty it there); the effect is the same. No fault-around.
 */
static uint32_t do_shared_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t ret = __do_fault(sim, vmf);

	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE | MMSIM_VM_FAULT_RETRY))
		return ret;
	filemap_page_mkwrite(sim, vmf->page);
	vmf->kind = MMSIM_FK_FILE_SHARED;
	ret |= finish_fault(sim, vmf, false);
	if (ret & (MMSIM_VM_FAULT_ERROR | MMSIM_VM_FAULT_NOPAGE))
		folio_put(sim, compound_head(sim, vmf->page));
	return ret;
}

static uint32_t do_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	if (!(vmf->flags & MMSIM_FAULT_FLAG_WRITE))
		return do_read_fault(sim, vmf);
	if (!(vmf->vma->vm_flags & MMSIM_VM_SHARED))
		return do_cow_fault(sim, vmf);
	return do_shared_fault(sim, vmf);
}

/* ------------------------------------------------------------- write-protect */

static uint32_t wp_page_reuse(struct mmsim *sim, struct vm_fault *vmf, uint32_t kind)
{
	uint64_t *pte = vmf->pte;

	*pte |= MMSIM_PTE_RW | MMSIM_PTE_DIRTY | MMSIM_PTE_ACCESSED;
	vmf->mapped++;
	vmf->kind = kind;
	if (kind == MMSIM_FK_WP_REUSE)
		count_vm_event(sim, MMSIM_PGREUSE);
	trace_mm_set_pte(sim, vmf->address, pte_pfn(*pte), pfn_to_page(sim, pte_pfn(*pte))->index,
			 MMSIM_SET_REUSE, (*pte & 0xfff));
	return 0;
}

/* wp_page_copy(): a new anon page replaces the zero page, a file page or a shared anon page */
static uint32_t wp_page_copy(struct mmsim *sim, struct vm_fault *vmf)
{
	struct mm_struct *mm = mm_ptr(sim, vmf->mm);
	uint64_t old = *vmf->pte;
	uint32_t old_pfn = pte_pfn(old), pfn;
	bool zero = old & MMSIM_PTE_SPECIAL;

	anon_vma_prepare(sim, vmf->vma_id);
	/* the old page is held across the allocation, which may reclaim (and unmap it: then retry) */
	if (!zero)
		folio_get(sim, compound_head(sim, old_pfn));
	if (alloc_page(sim, &pfn, MMSIM_USE_ANON)) {
		if (!zero)
			folio_put(sim, compound_head(sim, old_pfn));
		return MMSIM_VM_FAULT_OOM;
	}
	if (*vmf->pte != old) {
		/* !pte_same(): reclaim took the page out meanwhile; the CPU will fault again */
		folio_put(sim, pfn);
		if (!zero)
			folio_put(sim, compound_head(sim, old_pfn));
		return 0;
	}
	if (!zero)
		folio_put(sim, compound_head(sim, old_pfn));
	folio_set(pfn_to_page(sim, pfn), uptodate);
	mm->rss[MMSIM_MM_ANONPAGES]++;
	/* ptep_clear_flush() + set_pte_at(): replaced in place, no one sees it none */
	set_pte_range(sim, vmf, pfn, vmf->address, vmf->pte, MMSIM_SET_COW);
	/* then the old page's mapping and reference go, as wp_page_copy() does after set_pte_at() */
	if (!zero) {
		struct page *old_folio = pfn_to_page(sim, compound_head(sim, old_pfn));

		mm->rss[folio_test_anon(old_folio) ? MMSIM_MM_ANONPAGES :
						     mm_counter_file(old_folio)]--;
		folio_remove_rmap_pte(sim, old_pfn);
		folio_put(sim, compound_head(sim, old_pfn));
	}
	vmf->kind = MMSIM_FK_WP_COPY;
	return 0;
}

/*
 * __wp_can_reuse_large_anon_folio() (6.15+, CONFIG_MM_ID): a large anon
 * folio whose every reference is a mapping, and every mapping in this mm's
 * page tables, is exclusive to this mm and is reused in place: no copy, the
 * folio stays whole (6.10 to 6.14 copy the page, leaving the folio partly
 * mapped and queued for a deferred split). The kernel knows "every mapping
 * in this mm" from the folio's _mm_ids; the model counts this mm's PTEs that
 * map the folio's pages where the faulting VMA would have them. A single
 * mapping is not reused ("just free up a large folio if only a single page
 * is mapped").
 */
static bool wp_can_reuse_large_anon_folio(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn)
{
	uint32_t head = compound_head(sim, pfn), nr = 1u << folio_order(sim, head), here = 0;
	int mapcount = folio_mapcount(sim, head);
	const struct mm_struct *mm = mm_ptr(sim, vmf->mm);
	uint64_t start =
		(vmf->address & ~(uint64_t)(PAGE_SIZE - 1)) - (uint64_t)(pfn - head) * PAGE_SIZE;

	if (!sim->s.hdr.large_folio_reuse || mapcount <= 1)
		return false;
	if (pfn_to_page(sim, head)->_refcount > mapcount &&
	    !folio_test(pfn_to_page(sim, head), lru))
		lru_add_drain(sim);
	if (pfn_to_page(sim, head)->_refcount != mapcount)
		return false;
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t addr = start + (uint64_t)i * PAGE_SIZE;
		const uint64_t *pte;

		if (addr < vmf->vma->vm_start || addr >= vmf->vma->vm_end)
			continue;
		pte = walk_pte(sim, mm, addr);
		if (pte && pte_present(*pte) && !(*pte & MMSIM_PTE_SPECIAL) &&
		    pte_pfn(*pte) == head + i)
			here++;
	}
	return (int)here == mapcount;
}

/* do_wp_page(): a write to a present, read-only PTE */
static uint32_t do_wp_page(struct mmsim *sim, struct vm_fault *vmf)
{
	uint64_t pte = *vmf->pte;
	uint32_t pfn = pte_pfn(pte);

	if (vmf->vma->vm_flags & MMSIM_VM_SHARED) {
		/* wp_page_shared(): ->page_mkwrite then reuse (a large page-cache folio split first) */
		if (folio_test_large(pfn_to_page(sim, compound_head(sim, pfn))) &&
		    !folio_test_anon(pfn_to_page(sim, compound_head(sim, pfn))))
			filemap_split_folio(sim, compound_head(sim, pfn));
		filemap_page_mkwrite(sim, compound_head(sim, pfn));
		return wp_page_reuse(sim, vmf, MMSIM_FK_WP_SHARED);
	}
	if (!(pte & MMSIM_PTE_SPECIAL)) {
		uint32_t head = compound_head(sim, pfn);
		struct page *folio = pfn_to_page(sim, head);

		/*
		 * wp_can_reuse_anon_folio() for a small folio: we hold the only
		 * reference. A folio not yet on an LRU list may be held by a
		 * pagevec: lru_add_drain() first, as the kernel does.
		 */
		if (folio_test_anon(folio) && !folio_test_large(folio) && folio->_refcount > 1 &&
		    !folio_test(folio, lru))
			lru_add_drain(sim);
		if (folio_test_anon(folio) && !folio_test_large(folio) && folio->_refcount == 1) {
			folio->flags |= PF(anon_exclusive);
			return wp_page_reuse(sim, vmf, MMSIM_FK_WP_REUSE);
		}
		if (folio_test_anon(folio) && folio_test_large(folio) &&
		    wp_can_reuse_large_anon_folio(sim, vmf, pfn)) {
			pfn_to_page(sim, pfn)->flags |= PF(anon_exclusive);
			return wp_page_reuse(sim, vmf, MMSIM_FK_WP_REUSE);
		}
	}
	return wp_page_copy(sim, vmf);
}

/* ------------------------------------------------------------- the fault */

static uint32_t handle_pte_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	if (!*vmf->pmd) {
		vmf->pte = vmf->ptep = NULL;
	} else {
		vmf->pte = vmf->ptep = &table_of_entry(
			sim, *vmf->pmd)[pgt_level_index(vmf->address, MMSIM_PGT_PTE)];
		vmf->orig_pte = *vmf->pte;
		if (pte_none(vmf->orig_pte))
			vmf->pte = NULL;
	}
	if (!vmf->pte)
		return vmf->vma->vm_file ? do_fault(sim, vmf) : do_anonymous_page(sim, vmf);
	if ((vmf->flags & MMSIM_FAULT_FLAG_WRITE) && !pte_write(vmf->orig_pte))
		return do_wp_page(sim, vmf);
	/* spurious: the access would not have faulted */
	*vmf->pte |= MMSIM_PTE_ACCESSED;
	return 0;
}

static uint32_t handle_mm_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	struct mm_struct *mm = mm_ptr(sim, vmf->mm);

	uint32_t ret;

	/* __handle_mm_fault(): pud_alloc, pmd_alloc (p4d is folded) */
	vmf->pmd = pmd_alloc_walk(sim, mm, vmf->address);
	if (!vmf->pmd)
		return MMSIM_VM_FAULT_OOM;
	if (!*vmf->pmd && thp_vma_allowable(sim, vmf->vma, vmf->address)) {
		/* create_huge_pmd() */
		ret = do_huge_pmd_anonymous_page(sim, vmf);
		if (!(ret & MMSIM_VM_FAULT_FALLBACK))
			return ret;
	} else if (*vmf->pmd & MMSIM_PTE_PSE) {
		if (!(vmf->flags & MMSIM_FAULT_FLAG_WRITE) || pte_write(*vmf->pmd)) {
			*vmf->pmd |= MMSIM_PTE_ACCESSED; /* huge_pmd_set_accessed(): spurious */
			return 0;
		}
		/* wp_huge_pmd(); a fallback split the leaf: the PTE path copies the one page */
		ret = do_huge_pmd_wp_page(sim, vmf);
		if (!(ret & MMSIM_VM_FAULT_FALLBACK))
			return ret;
	}
	return handle_pte_fault(sim, vmf);
}

/*
 * mm_account_fault() (v5.9+): PGFAULT for every completed fault, failed ones
 * included; the task's maj_flt/min_flt only for successful ones. The task's
 * pgfault is the model's name for maj_flt + min_flt, what getrusage(2) and
 * /usr/bin/time report: a fault that ends in SIGBUS is not in it.
 */
static void mm_account_fault(struct mmsim *sim, uint32_t task, uint32_t flags, uint32_t ret)
{
	if (ret & MMSIM_VM_FAULT_RETRY)
		return;
	count_vm_event(sim, MMSIM_PGFAULT);
	if (ret & MMSIM_VM_FAULT_ERROR)
		return;
	count_task_event(sim, task, MMSIM_T_PGFAULT);
	if ((ret & MMSIM_VM_FAULT_MAJOR) || (flags & MMSIM_FAULT_FLAG_TRIED))
		count_task_event(sim, task, MMSIM_T_MAJ_FLT);
	else
		count_task_event(sim, task, MMSIM_T_MIN_FLT);
}

/*
 * do_user_addr_fault() (arch/x86/mm/fault.c, 6.4+), returns 0 or an mmsim
 * error. The first attempt runs under the per-VMA lock (lock_vma_under_rcu);
 * if it must retry, the retry under mmap_lock carries FAULT_FLAG_TRIED only
 * if that attempt was VM_FAULT_MAJOR. So a fault retried after starting
 * async readahead at a PG_readahead page, or after waiting for a page under
 * read I/O, is still a minor fault for the task; one retried after a cache
 * miss is major (as is any fault retried a second time). Locks themselves
 * are not modelled: the VMA lock attempt and the mmap_lock attempt run the
 * same code here (the kernel's extra retry of a first anonymous fault
 * without an anon_vma, which changes no counter, is not modelled).
 */
static int do_user_addr_fault(struct mmsim *sim, uint32_t task, uint64_t addr, bool write,
			      bool present)
{
	bool vma_locked = true;
	uint32_t attempt = 0;
	struct task_struct *t = task_ptr(sim, task);

	uint32_t flags = MMSIM_FAULT_FLAG_ALLOW_RETRY | MMSIM_FAULT_FLAG_USER |
			 (write ? MMSIM_FAULT_FLAG_WRITE : 0);
	uint32_t error_code = 4u | (write ? 2u : 0u) | (present ? 1u : 0u);
	uint32_t ret;

	for (;;) {
		/* the trace point fires as the CPU traps, before any lookup (c: unused, 0) */
		trace_page_fault_user(sim, addr, error_code, flags, attempt);

		/* 3.15's __do_page_fault: find_vma() at every attempt (a retry goes back to `retry:`) */
		uint32_t vma_id = find_vma(sim, task, addr);
		struct vm_area_struct *vma = vma_id ? vma_ptr(sim, vma_id) : NULL;

		/* bad_area / access_error: SIGSEGV, not a completed fault */
		if (!vma || vma->vm_start > addr)
			return sim_error(sim, MMSIM_ESEGV, addr, 0);
		if (write && !(vma->vm_flags & MMSIM_VM_WRITE))
			return sim_error(sim, MMSIM_ESEGV, addr, 1);

		struct vm_fault vmf = {
			.vma = vma,
			.vma_id = vma_id,
			.mm = t->mm,
			.task = task,
			.flags = flags,
			.address = addr & PAGE_MASK,
			.pgoff = linear_page_index(vma, addr & PAGE_MASK),
		};

		ret = handle_mm_fault(sim, &vmf);
		mm_account_fault(sim, task, flags, ret);
		if (ret & MMSIM_VM_FAULT_RETRY) {
			count_vm_event(sim, MMSIM_MODEL_FAULT_RETRIES);
			trace_mm_fault_done(sim, addr, ret, MMSIM_FK_RETRY, vmf.mapped);
			if (!vma_locked || (ret & MMSIM_VM_FAULT_MAJOR))
				flags |= MMSIM_FAULT_FLAG_TRIED;
			vma_locked = false;
			attempt++;
			continue;
		}
		if (ret & MMSIM_VM_FAULT_ERROR) {
			trace_mm_fault_done(sim, addr, ret, MMSIM_FK_ERROR, vmf.mapped);
			if (ret & MMSIM_VM_FAULT_OOM)
				return sim_error(sim, MMSIM_EOOM, addr, 1);
			if (ret & MMSIM_VM_FAULT_SIGBUS)
				return sim_error(sim, MMSIM_ESIGBUS, addr, 0);
			return sim_error(sim, MMSIM_ESEGV, addr, 2);
		}
		trace_mm_fault_done(sim, addr, ret, vmf.kind, vmf.mapped);
		return 0;
	}
}

/* the MMU lets the access through this PTE without a fault */
static inline bool pte_allows(const uint64_t *pte, bool write)
{
	return pte && pte_present(*pte) && (!write || pte_write(*pte));
}

/* would a touch of addr by task go through a present PTE without a fault? (no side effects but the walk caches) */
bool user_access_would_hit(struct mmsim *sim, uint32_t task, uint64_t addr, bool write)
{
	return pte_allows(mmu_walk(sim, mm_ptr(sim, task_ptr(sim, task)->mm), addr), write);
}

/*
 * Touches a few ahead, in a random order: bring their PTEs into the cache
 * now, so that their walks, when they come, do not wait for memory (a
 * random touch of a large mapping otherwise spends most of its time on
 * that one load). The walk goes only as far as the cached PMD table leads;
 * nothing is written, not even the walk caches: the machine's state is the
 * same with or without it. wasm has no prefetch instruction: there the PTE
 * is loaded and returned, and the caller loads several before it uses any
 * (their waits overlap) and folds them into a field that is never read.
 */
uint64_t mmu_prefetch(const struct mmsim *sim, uint32_t task, uint64_t addr)
{
	const struct mm_struct *mm = mm_ptr(sim, task_ptr(sim, task)->mm);
	const uint64_t *pte;
	uint64_t e;

	if (mm->pmc_addr != (addr & ~(PUD_SIZE - 1)))
		return 0;
	e = pgt_table(sim, mm->pmc_table)[pgt_level_index(addr, MMSIM_PGT_PMD)];
	if (!(e & MMSIM_PTE_PRESENT) || (e & MMSIM_PTE_PSE))
		return 0;
	pte = &table_of_entry(sim, e)[pgt_level_index(addr, MMSIM_PGT_PTE)];
#ifdef __wasm__
	return *pte;
#else
	__builtin_prefetch(pte, 1);
	return 0;
#endif
}

/*
 * One touch by a user thread: one byte at addr, as the MMU sees it. A touch
 * through a present PTE with enough permission is the common case and costs
 * a page-table walk: it sets the accessed (and dirty) bit and returns true.
 * Otherwise it returns false: the CPU raises a page fault, handle_user_fault().
 * Every touch is a tick of the model's clock (sim_tick: read and write I/O
 * complete by it, kswapd and the flusher work on it).
 */
bool user_access(struct mmsim *sim, uint32_t task, uint64_t addr, bool write)
{
	struct task_struct *t = task_ptr(sim, task);
	struct mmsim_state *s = &sim->s;
	uint64_t *pte;

	sim_tick(sim);
	s->counters[MMSIM_MODEL_TOUCHES]++;
	t->counters[MMSIM_T_TOUCHES]++;

	pte = mmu_walk(sim, mm_ptr(sim, t->mm), addr);
	if (likely(pte_allows(pte, write))) {
		*pte |= MMSIM_PTE_ACCESSED | (write ? MMSIM_PTE_DIRTY : 0);
		return true;
	}
	return false;
}

/*
 * The page fault a touch raised (user_access() returned false), then the
 * CPU's retry of the access. Returns 0 or an mmsim error (SIGSEGV, SIGBUS,
 * OOM).
 */
int handle_user_fault(struct mmsim *sim, uint32_t task, uint64_t addr, bool write)
{
	struct mm_struct *mm = mm_ptr(sim, task_ptr(sim, task)->mm);
	uint64_t *pte = mmu_walk(sim, mm, addr);

	/*
	 * The CPU retries the access after each fault. A fault can end
	 * without mapping the page (a COW whose old page reclaim took out of
	 * the page table meanwhile): the access faults again. Never more than
	 * a few times: the model would be wrong.
	 */
	for (int n = 0; n < 4; n++) {
		int err = do_user_addr_fault(sim, task, addr, write, pte && pte_present(*pte));

		if (err)
			return err;
		pte = mmu_walk(sim, mm, addr);
		if (pte_allows(pte, write)) {
			*pte |= MMSIM_PTE_ACCESSED | (write ? MMSIM_PTE_DIRTY : 0);
			return 0;
		}
	}
	return sim_error(sim, MMSIM_EINVAL, addr, 3); /* the faults did not resolve it */
}

/* ------------------------------------------------------------- unmapping */

static bool vma_has_recency(const struct vm_area_struct *vma)
{
	return !(vma->vm_flags & (MMSIM_VM_SEQ_READ | MMSIM_VM_RAND_READ));
}

/*
 * folio_pte_batch() (6.9+): how many PTEs from *pte on, up to max, map the
 * consecutive pages of one large folio starting at pfn; the bits that may
 * differ (dirty, young, writable) are ignored, as the kernel's
 * FPB_IGNORE_DIRTY and pte_wrprotect(pte_mkold()) ignore them. 1 for a
 * small folio.
 */
static uint32_t folio_pte_batch(const struct mmsim *sim, const uint64_t *pte, uint32_t pfn,
				uint32_t max)
{
	uint32_t head = compound_head(sim, pfn), end, nr = 1;

	if (!folio_test_large(pfn_to_page(sim, head)))
		return 1;
	end = head + (1u << folio_order(sim, head));
	while (nr < max && pfn + nr < end && pte_present(pte[nr]) &&
	       !(pte[nr] & MMSIM_PTE_SPECIAL) && pte_pfn(pte[nr]) == pfn + nr)
		nr++;
	return nr;
}

/* one zap of [start, end): the VMA, and what it cleared and freed */
struct zap_details {
	struct vm_area_struct *vma;
	uint64_t cleared, freed;
};

/*
 * zap_pte_range() under one PMD table: clear the PTEs (an
 * MMSIM_EV_PTE_CLEAR each), carry the dirty and young bits to the folio
 * (file pages), drop the mapcount and the reference. A PMD leaf (a THP)
 * the range covers whole goes at once (zap_huge_pmd, counting one entry
 * cleared); one it covers in part is split first (zap_pmd_range's
 * __split_huge_pmd), then zapped as PTEs.
 */
static int zap_pmd_entry(uint64_t *pmd, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	struct mmsim *sim = walk->sim;
	struct zap_details *z = walk->private;
	struct vm_area_struct *vma = z->vma;
	struct mm_struct *mm = walk->mm;
	uint64_t *t;

	if (*pmd & MMSIM_PTE_PSE) {
		if (!(addr & (PMD_SIZE - 1)) && end - addr == PMD_SIZE) {
			z->cleared++;
			z->freed += zap_huge_pmd(sim, vma, pmd, addr);
			walk->action = ACTION_CONTINUE;
			return 0;
		}
		__split_huge_pmd(sim, vma, pmd, addr & ~(PMD_SIZE - 1), MMSIM_SPLITPMD_ZAP);
	}
	t = walk_pte_table(walk, pmd);
	for (; addr < end; addr += PAGE_SIZE) {
		uint64_t *pte = &t[pgt_level_index(addr, MMSIM_PGT_PTE)];
		uint64_t ptent;
		uint32_t pfn, head, nr;
		struct page *folio;

		if (!pte_present(*pte))
			continue;
		z->cleared++;
		if (*pte & MMSIM_PTE_SPECIAL) {
			ptep_get_and_clear(sim, vma->vm_mm, addr, pte); /* the zero page */
			continue;
		}
		pfn = pte_pfn(*pte);
		head = compound_head(sim, pfn);
		folio = pfn_to_page(sim, head);
		/* zap_present_folio_ptes(): a large folio's consecutive PTEs as one batch (one rmap call) */
		nr = folio_pte_batch(sim, pte, pfn, (uint32_t)((end - addr) >> PAGE_SHIFT));
		z->cleared += nr - 1;
		/*
		 * The kernel's order: the PTEs cleared (get_and_clear_full_ptes),
		 * then RSS and the mapcounts (folio_remove_rmap_ptes), then the
		 * references. Between the batch's mmsim_pte_clear events and its
		 * rmap a host sees the pages gone from the page tables with their
		 * mapcounts not yet dropped, as a CPU could.
		 */
		for (uint32_t i = 0; i < nr; i++) {
			ptent = ptep_get_and_clear(sim, vma->vm_mm, addr + i * PAGE_SIZE, pte + i);
			if (!folio_test_anon(folio)) {
				if (ptent & MMSIM_PTE_DIRTY)
					folio_mark_dirty(sim, head);
				if ((ptent & MMSIM_PTE_ACCESSED) && vma_has_recency(vma))
					folio_mark_accessed(sim, head);
			}
		}
		if (folio_test_anon(folio))
			mm->rss[MMSIM_MM_ANONPAGES] -= nr;
		else
			mm->rss[mm_counter_file(folio)] -= nr;
		folio_remove_rmap_ptes(sim, pfn, nr);
		/* the batch's references (folio_put_refs): the folio is freed with the last */
		VM_BUG_ON(folio->_refcount < (int32_t)nr);
		folio->_refcount -= (int32_t)nr - 1;
		if (folio->_refcount == 1)
			z->freed++;
		folio_put(sim, head);
		addr += (nr - 1) * PAGE_SIZE;
	}
	return 0;
}

static const struct mm_walk_ops zap_walk_ops = { .pmd_entry = zap_pmd_entry };

/*
 * zap_page_range() over [start, end) of one VMA (unmap_page_range: the
 * walk above), then one MMSIM_EV_ZAP sums the range up. Returns the PTEs
 * cleared; *freed counts folios freed.
 */
uint64_t zap_page_range(struct mmsim *sim, struct vm_area_struct *vma, uint64_t start, uint64_t end,
			uint64_t *freed)
{
	struct zap_details z = { .vma = vma };

	walk_page_range(sim, mm_ptr(sim, vma->vm_mm), start, end, &zap_walk_ops, &z);
	if (z.cleared)
		trace_mmsim_zap_range(sim, start, z.cleared, z.freed, end);
	if (freed)
		*freed += z.freed;
	return z.cleared;
}

static bool span_has_vma(const struct mmsim *sim, const struct mm_struct *mm, uint64_t s,
			 uint64_t size)
{
	uint32_t id = find_vma_noacct(sim, mm, s);

	return id && vma_ptr(sim, id)->vm_start < s + size;
}

/*
 * free_pgtables() after [start, end) was unmapped: free every page table
 * whose whole span is now free of VMAs (the effect of free_pgd_range() with
 * the neighbouring VMAs as floor and ceiling), bottom-up.
 */
static void free_level(struct mmsim *sim, struct mm_struct *mm, uint64_t *t, int level,
		       uint64_t base, uint64_t start, uint64_t end)
{
	static const uint64_t span[4] = { PGDIR_SIZE, PUD_SIZE, PMD_SIZE, PAGE_SIZE };
	uint64_t size = span[level];

	for (uint32_t i = 0; i < PTRS_PER_PTE; i++) {
		uint64_t s = base + i * size;
		uint64_t *e = &t[i];

		if (s >= TASK_SIZE)
			break;
		if (s + size <= start || s >= end || !(*e & MMSIM_PTE_PRESENT))
			continue;
		if (*e & MMSIM_PTE_PSE) {
			/* a leaf (a THP) left in a range being freed: the zap missed it; never free its frame as a table */
			sim_error(sim, MMSIM_EINVARIANT, s, (uint64_t)level);
			continue;
		}
		if (level < MMSIM_PGT_PMD)
			free_level(sim, mm, table_of_entry(sim, *e), level + 1, s, start, end);
		if (!span_has_vma(sim, mm, s, size)) {
			uint32_t pfn = pte_pfn(*e);

			*e = 0; /* unhooked before mm_pgtable_free: no walk reaches a freed table */
			table_free(sim, mm, pfn, level + 1, s);
		}
	}
}

void free_pgtables(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	if (!mm->pgd)
		return;
	free_level(sim, mm, table_of_pfn(sim, mm->pgd), MMSIM_PGT_PGD, 0, start, end);
	mm_flush_walk_cache(mm);
}

/* fork's copy of one VMA: the child's VMA and whether private writable pages become COW */
struct copy_details {
	struct vm_area_struct *dst;
	bool cow;
};

/*
 * copy_pte_range() under one PMD table of the parent: each present PTE
 * (copy_present_ptes) to the child's table, allocated as needed. A PMD
 * leaf (a THP, only ever in a private anonymous VMA) is copied whole:
 * copy_huge_pmd().
 */
static int copy_pmd_entry(uint64_t *spmd, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	struct mmsim *sim = walk->sim;
	struct copy_details *c = walk->private;
	struct mm_struct *dst_mm = mm_ptr(sim, c->dst->vm_mm);
	uint64_t *stable;

	if (*spmd & MMSIM_PTE_PSE) {
		walk->action = ACTION_CONTINUE;
		return copy_huge_pmd(sim, c->dst, spmd, addr & ~(PMD_SIZE - 1));
	}
	stable = walk_pte_table(walk, spmd);
	if (!stable)
		return 0;
	for (; addr < end; addr += PAGE_SIZE) {
		uint64_t *spte = &stable[pgt_level_index(addr, MMSIM_PGT_PTE)], *dpmd, *dpte;
		uint64_t ptent = *spte;
		uint32_t pfn, head, nr;

		if (!pte_present(ptent))
			continue;
		dpmd = pmd_alloc_walk(sim, dst_mm, addr);
		if (!dpmd || (!*dpmd && !table_alloc(sim, dst_mm, MMSIM_PGT_PTE, addr, dpmd)))
			return MMSIM_EOOM;
		dpte = &table_of_entry(sim, *dpmd)[pgt_level_index(addr, MMSIM_PGT_PTE)];
		/* the allocations may have reclaimed: the parent's PTE as it is now */
		ptent = *spte;
		if (!pte_present(ptent))
			continue;
		if (ptent & MMSIM_PTE_SPECIAL) {
			*dpte = ptent & ~MMSIM_PTE_ACCESSED;
			continue;
		}
		pfn = pte_pfn(ptent);
		head = compound_head(sim, pfn);
		/* copy_present_ptes(): a large folio's consecutive PTEs as one batch (folio_pte_batch) */
		nr = folio_pte_batch(sim, spte, pfn, (uint32_t)((end - addr) >> PAGE_SHIFT));
		for (uint32_t i = 0; i < nr; i++) {
			ptent = spte[i];
			if (c->cow && pte_write(ptent)) {
				ptent &= ~MMSIM_PTE_RW;
				spte[i] = ptent;
			}
			dpte[i] = ptent & ~MMSIM_PTE_ACCESSED;
		}
		/*
		 * The references and mapcounts of the batch (the kernel takes
		 * them just before set_ptes(), with the page table locked: no one
		 * looks in between); after, so that a host stopped at the
		 * batch's mmsim_folio_rmap finds the child's PTEs in place.
		 */
		pfn_to_page(sim, head)->_refcount += (int32_t)nr; /* folio_ref_add() */
		dst_mm->rss[folio_test_anon(pfn_to_page(sim, head)) ?
				    MMSIM_MM_ANONPAGES :
				    mm_counter_file(pfn_to_page(sim, head))] += nr;
		folio_dup_rmap_ptes(sim, pfn, nr);
		addr += (nr - 1) * PAGE_SIZE;
	}
	return 0;
}

static const struct mm_walk_ops copy_walk_ops = { .pmd_entry = copy_pmd_entry };

/*
 * copy_page_range() at fork (v6.x copy_pte_range / copy_present_ptes): only
 * for VMAs that need it (vma_needs_copy: here, those with an anon_vma; file
 * pages of other VMAs are refaulted by the child). Private anon pages become
 * shared and write-protected in both; the child's PTEs are old.
 */
int copy_page_range(struct mmsim *sim, struct vm_area_struct *dst, struct vm_area_struct *src)
{
	struct copy_details c = {
		.dst = dst,
		.cow = (src->vm_flags & (MMSIM_VM_SHARED | MMSIM_VM_MAYWRITE)) == MMSIM_VM_MAYWRITE,
	};

	if (!src->anon_vma)
		return 0;
	return walk_page_range(sim, mm_ptr(sim, src->vm_mm), src->vm_start, src->vm_end,
			       &copy_walk_ops, &c);
}

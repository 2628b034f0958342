/*
 * huge_memory.c - anonymous THP mapped by one PMD (mm/huge_memory.c, 6.10),
 * and the deferred split of partly unmapped large folios.
 *
 * With kernel.thp `always` (or `madvise` in a MADV_HUGEPAGE range), a fault
 * on a none PMD whose 2 MiB-aligned block lies wholly inside a private
 * anonymous VMA takes the huge path first (__handle_mm_fault ->
 * create_huge_pmd):
 *
 *   write -> do_huge_pmd_anonymous_page: an order-9 folio mapped by one
 *            PMD leaf (PSE), with a PTE table deposited beside it
 *            (pgtable_trans_huge_deposit) for a later remap; thp_fault_alloc
 *   read  -> the huge zero page, one read-only PMD leaf (use_zero_page is
 *            on by default), also with a deposited table; thp_zero_page_alloc
 *            the first time
 *   no free order-9 block -> thp_fault_fallback, and the fault goes on down
 *            the PTE path (the mTHP orders, then 4 KiB)
 *
 * The folio of a PMD leaf holds one _entire_mapcount, one _large_mapcount
 * and ENTIRELY_MAPPED in _nr_pages_mapped; its pages' _mapcount stay -1
 * (rmap.c). The MMU walks through the leaf (memory.c, mmu_walk), so no
 * touch of the 2 MiB faults again.
 *
 * What happens to a PMD mapping later:
 *
 *   fork   copy_huge_pmd: the child gets the same leaf, old, both
 *          write-protected, one more entire mapping and a reference (the
 *          huge zero page is copied as is); the child deposits a table too
 *   a write to a write-protected leaf: do_huge_pmd_wp_page makes the only
 *          user's leaf writable in place (the head page AnonExclusive, or
 *          refcount 1); otherwise - still shared after fork - it splits the
 *          PMD and falls back to the PTE path, which copies the one 4 KiB
 *          page (6.10-6.14 never reuse a large folio:
 *          wp_can_reuse_anon_folio). A write to the huge zero page
 *          allocates a THP in its place (6.13+ do_huge_zero_wp_pmd, as
 *          this machine's 6.18 does; the zero PMD is split only when no
 *          THP can be had)
 *   zap of all 2 MiB (munmap, MADV_DONTNEED, exit): zap_huge_pmd clears
 *          the leaf, frees the deposited table, drops the entire mapping
 *   zap of part of it, or a VMA edge inside it (munmap, madvise of part):
 *          __split_huge_pmd first, then the PTEs as usual
 *
 *   __split_huge_pmd_locked(), the PMD->PTE remap (the last row of the mapcount table):
 *
 *       PMD leaf ----------------------.        PMD -> PTE table (the deposited one)
 *       _entire_mapcount+1 = 1          |              PTE 0   -> page 0
 *       _large_mapcount+1  = 1          |   ====>      ...        (_mapcount+1 = 1 each)
 *       _nr_pages_mapped = ENTIRELY_MAPPED             PTE 511 -> page 511
 *
 *     folio_ref_add(511); folio_add_anon_rmap_ptes(512): 512 page atomics,
 *     one _nr_pages_mapped, one _large_mapcount (6.10); the 512 PTEs with
 *     the leaf's bits (writable, dirty, young); folio_remove_rmap_pmd():
 *     one _large_mapcount, one _entire_mapcount, one _nr_pages_mapped
 *     (ENTIRELY_MAPPED off); the table hooked where the leaf was. The folio
 *     stays one order-9 folio, now mapped by PTEs.
 *
 * An anon large folio that loses some but not all of its PTE mappings is
 * queued for a deferred split (rmap.c). deferred_split_scan(), the
 * kernel's shrinker, splits each queued folio into order-0 folios and
 * frees the pages no PTE maps; it runs after each reclaim pass (the
 * kernel's shrink_slab) and at no other time. Exit unmaps folios whole:
 * they are freed and leave the queue then.
 *
 * Deposited tables hang off the mm (mm->pmd_huge_pte, chained through the
 * table page's ->index): the kernel's arrangement without split PMD
 * locks. Each PMD leaf has one, counted in the mm's page tables
 * (mm_inc_nr_ptes) as the kernel counts it, so the remap never allocates.
 *
 * Not modelled: khugepaged (no collapse), THP for files and shmem,
 * compaction; defrag is the default `madvise`: a THP fault in a
 * MADV_HUGEPAGE range may reclaim to get its block, any other takes one
 * only above the low watermark (GFP_TRANSHUGE_LIGHT); memcg; PUD leaves;
 * the shrinker's scan batches (each pass scans the whole queue).
 */
#include "internal.h"
#include "huge_mm.h"
#include "memory.h"
#include "page_alloc.h"
#include "rmap.h"
#include "swap.h"
#include "vmscan.h"

#define HPAGE_PMD_ORDER (PMD_SHIFT - PAGE_SHIFT)
#define HPAGE_PMD_NR (1u << HPAGE_PMD_ORDER)

static inline bool is_huge_zero_pmd(uint64_t pmd)
{
	return pmd & MMSIM_PTE_SPECIAL;
}

/* ------------------------------------------------------------- deposited tables */

static void pgtable_trans_huge_deposit(struct mmsim *sim, struct mm_struct *mm, uint32_t table)
{
	pfn_to_page(sim, table)->index = mm->pmd_huge_pte;
	mm->pmd_huge_pte = table;
}

static uint32_t pgtable_trans_huge_withdraw(struct mmsim *sim, struct mm_struct *mm)
{
	uint32_t table = mm->pmd_huge_pte;

	VM_BUG_ON(!table);
	mm->pmd_huge_pte = pfn_to_page(sim, table)->index;
	pfn_to_page(sim, table)->index = 0;
	return table;
}

/* ------------------------------------------------------------- the fault */

/*
 * thp_vma_allowable_order() + thp_vma_suitable_order() for PMD order, on
 * an anonymous fault: the global setting (always, or madvise and
 * VM_HUGEPAGE), not VM_NOHUGEPAGE, a private anonymous VMA, and the
 * aligned 2 MiB around addr inside it.
 */
bool thp_vma_allowable(const struct mmsim *sim, const struct vm_area_struct *vma, uint64_t addr)
{
	uint64_t haddr = addr & ~(PMD_SIZE - 1);
	uint32_t mode = sim->s.hdr.thp;

	if (mode == MMSIM_THP_NEVER || (vma->vm_flags & MMSIM_VM_NOHUGEPAGE))
		return false;
	if (mode == MMSIM_THP_MADVISE && !(vma->vm_flags & MMSIM_VM_HUGEPAGE))
		return false;
	if (vma->vm_file || (vma->vm_flags & MMSIM_VM_SHARED))
		return false;
	return haddr >= vma->vm_start && haddr + PMD_SIZE <= vma->vm_end;
}

static void set_pmd_leaf(struct mmsim *sim, uint32_t mmid, uint64_t *pmd, uint64_t haddr,
			 uint64_t entry, uint32_t how)
{
	*pmd = entry;
	trace_mmsim_set_pmd(sim, haddr, pte_pfn(entry), mmid, how, (entry & 0xfff));
}

/*
 * vma_alloc_anon_folio_pmd(): an order-9 anon folio for vmf's 2 MiB, with
 * vma_thp_gfp_mask()'s defrag=madvise rule: direct reclaim only for
 * MADV_HUGEPAGE, any other takes a block only above the low watermark.
 * Counts thp_fault_alloc or thp_fault_fallback (and the PMD size's mTHP
 * stats). 0 and *pfn, or an error.
 */
static int vma_alloc_anon_folio_pmd(struct mmsim *sim, const struct vm_area_struct *vma,
				    uint32_t *pfn)
{
	int err;

	if (vma->vm_flags & MMSIM_VM_HUGEPAGE)
		err = alloc_pages(sim, HPAGE_PMD_ORDER, pfn, MMSIM_USE_ANON);
	else
		err = zone_watermark_ok(sim, HPAGE_PMD_ORDER, sim->s.wmark[1]) ?
			      alloc_pages_nowmark(sim, HPAGE_PMD_ORDER, pfn, MMSIM_USE_ANON) :
			      MMSIM_EOOM;
	if (err) {
		count_vm_event(sim, MMSIM_THP_FAULT_FALLBACK);
		count_vm_event(sim, MMSIM_ANON_FAULT_FALLBACK);
		return err;
	}
	count_vm_event(sim, MMSIM_THP_FAULT_ALLOC);
	count_vm_event(sim, MMSIM_ANON_FAULT_ALLOC);
	folio_set(pfn_to_page(sim, *pfn), uptodate);
	return 0;
}

/* map_anon_folio_pmd(): a new THP in the rmap, on the LRU, in RSS, and its writable PMD */
static void map_anon_folio_pmd(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn,
			       uint64_t haddr)
{
	folio_add_new_anon_rmap(sim, pfn, vmf->vma, haddr, true);
	lru_cache_add_lru(sim, pfn, MMSIM_LRU_ACTIVE_ANON);
	mm_ptr(sim, vmf->mm)->rss[MMSIM_MM_ANONPAGES] += HPAGE_PMD_NR;
	set_pmd_leaf(sim, vmf->mm, vmf->pmd, haddr,
		     ((uint64_t)pfn << PAGE_SHIFT) | MMSIM_PTE_PRESENT | MMSIM_PTE_USER |
			     MMSIM_PTE_PSE | MMSIM_PTE_RW | MMSIM_PTE_DIRTY | MMSIM_PTE_ACCESSED,
		     MMSIM_SET_ANON);
	vmf->mapped += HPAGE_PMD_NR;
	vmf->kind = MMSIM_FK_HUGE_ANON;
}

/*
 * do_huge_pmd_anonymous_page(): 0 (mapped), VM_FAULT_OOM, or
 * VM_FAULT_FALLBACK with *vmf->pmd still none.
 */
uint32_t do_huge_pmd_anonymous_page(struct mmsim *sim, struct vm_fault *vmf)
{
	struct mm_struct *mm = mm_ptr(sim, vmf->mm);
	uint64_t haddr = vmf->address & ~(PMD_SIZE - 1);
	uint32_t table, pfn;

	if (anon_vma_prepare(sim, vmf->vma_id))
		return MMSIM_VM_FAULT_OOM;
	if (!(vmf->flags & MMSIM_FAULT_FLAG_WRITE)) {
		/* the huge zero page (use_zero_page): a read-only leaf, no folio, no RSS */
		table = pte_alloc_one(sim, mm, haddr);
		if (!table)
			return MMSIM_VM_FAULT_OOM;
		if (!sim->s.huge_zero_page) {
			sim->s.huge_zero_page = 1;
			count_vm_event(sim, MMSIM_THP_ZERO_PAGE_ALLOC);
		}
		pgtable_trans_huge_deposit(sim, mm, table);
		set_pmd_leaf(sim, vmf->mm, vmf->pmd, haddr,
			     MMSIM_PTE_PRESENT | MMSIM_PTE_USER | MMSIM_PTE_PSE |
				     MMSIM_PTE_SPECIAL | MMSIM_PTE_ACCESSED,
			     MMSIM_SET_ZERO);
		vmf->mapped += HPAGE_PMD_NR;
		vmf->kind = MMSIM_FK_HUGE_ZERO;
		return 0;
	}
	if (vma_alloc_anon_folio_pmd(sim, vmf->vma, &pfn))
		return MMSIM_VM_FAULT_FALLBACK;
	table = pte_alloc_one(sim, mm, haddr);
	if (!table) {
		folio_put(sim, pfn);
		return MMSIM_VM_FAULT_OOM;
	}
	pgtable_trans_huge_deposit(sim, mm, table);
	map_anon_folio_pmd(sim, vmf, pfn, haddr);
	return 0;
}

/*
 * do_huge_pmd_wp_page(): a write to a write-protected leaf.
 *  - the huge zero page: do_huge_zero_wp_pmd() (6.13+; this machine's 6.18
 *    does it): a new THP takes its place, the deposited table stays;
 *    only if no THP can be had is the zero PMD split (6.10-6.12 always
 *    split, and the PTE path copied one 4 KiB page);
 *  - a THP: reuse when the head page is AnonExclusive or the folio's only
 *    reference is this mapping (folio_ref_count() == 1); otherwise split
 *    and fall back to the PTE path, which copies one page.
 */
uint32_t do_huge_pmd_wp_page(struct mmsim *sim, struct vm_fault *vmf)
{
	uint64_t pmd = *vmf->pmd, haddr = vmf->address & ~(PMD_SIZE - 1);
	struct page *folio;
	uint32_t pfn;
	int err;

	if (is_huge_zero_pmd(pmd)) {
		if (!vma_alloc_anon_folio_pmd(sim, vmf->vma, &pfn)) {
			map_anon_folio_pmd(
				sim, vmf, pfn,
				haddr); /* pmdp_huge_clear_flush + set_pmd_at: in place */
			return 0;
		}
	} else {
		folio = pfn_to_page(sim, pte_pfn(pmd));
		if (folio_test(folio, anon_exclusive) || folio->_refcount == 1) {
			folio->flags |= PF(anon_exclusive);
			*vmf->pmd |= MMSIM_PTE_RW | MMSIM_PTE_DIRTY | MMSIM_PTE_ACCESSED;
			trace_mmsim_set_pmd(sim, haddr, pte_pfn(pmd), vmf->mm, MMSIM_SET_REUSE,
					    (*vmf->pmd & 0xfff));
			vmf->mapped += HPAGE_PMD_NR;
			vmf->kind = MMSIM_FK_HUGE_WP_REUSE;
			return 0;
		}
	}
	err = __split_huge_pmd(sim, vmf->vma, vmf->pmd, haddr, MMSIM_SPLITPMD_COW);
	return err ? MMSIM_VM_FAULT_OOM : MMSIM_VM_FAULT_FALLBACK;
}

/* ------------------------------------------------------------- the PMD->PTE remap */

/*
 * __split_huge_pmd() of the leaf *pmd at haddr in vma's mm: the deposited
 * table takes its place, with 512 PTEs (the huge zero page: 512 read-only
 * zero-page PTEs, no rmap). Returns 0 (the deposit makes it infallible).
 */
int __split_huge_pmd(struct mmsim *sim, struct vm_area_struct *vma, uint64_t *pmd, uint64_t haddr,
		     uint32_t why)
{
	struct mm_struct *mm = mm_ptr(sim, vma->vm_mm);
	uint64_t old = *pmd, before = rmap_cost_total(rmap_cost_now(sim)), *t;
	uint32_t table, pfn = pte_pfn(old);

	VM_BUG_ON(!(old & MMSIM_PTE_PSE));
	count_vm_event(sim, MMSIM_THP_SPLIT_PMD);
	table = pgtable_trans_huge_withdraw(sim, mm);
	t = table_of_pfn(sim, table);
	if (is_huge_zero_pmd(old)) {
		for (uint32_t i = 0; i < HPAGE_PMD_NR; i++)
			t[i] = MMSIM_PTE_PRESENT | MMSIM_PTE_USER | MMSIM_PTE_SPECIAL |
			       (old & MMSIM_PTE_ACCESSED);
	} else {
		struct page *folio = pfn_to_page(sim, pfn);
		uint64_t bits = MMSIM_PTE_PRESENT | MMSIM_PTE_USER |
				(old & (MMSIM_PTE_RW | MMSIM_PTE_DIRTY | MMSIM_PTE_ACCESSED));

		folio->_refcount +=
			(int32_t)HPAGE_PMD_NR - 1; /* folio_ref_add(): a reference per PTE */
		folio_add_anon_rmap_ptes(sim, pfn, HPAGE_PMD_NR, folio_test(folio, anon_exclusive));
		for (uint32_t i = 0; i < HPAGE_PMD_NR; i++)
			t[i] = ((uint64_t)(pfn + i) << PAGE_SHIFT) | bits;
		folio_remove_rmap_pmd(sim, pfn);
	}
	/* pmd_populate(): the table where the leaf was */
	*pmd = ((uint64_t)table << PAGE_SHIFT) | MMSIM_PTE_PRESENT | MMSIM_PTE_RW | MMSIM_PTE_USER |
	       MMSIM_PTE_ACCESSED | MMSIM_PTE_DIRTY;
	mm_flush_walk_cache(mm);
	trace_mmsim_split_huge_pmd(sim, haddr, is_huge_zero_pmd(old) ? 0 : pfn, vma->vm_mm, why,
				   (rmap_cost_total(rmap_cost_now(sim)) - before));
	return 0;
}

/* vma_adjust_trans_huge(): a VMA edge about to move to addr splits the leaf around it */
void split_huge_pmd_address(struct mmsim *sim, struct vm_area_struct *vma, uint64_t addr)
{
	uint64_t *pmd;

	if (!(addr & (PMD_SIZE - 1)))
		return;
	pmd = mm_find_pmd(sim, mm_ptr(sim, vma->vm_mm), addr);
	if (pmd && (*pmd & MMSIM_PTE_PSE))
		__split_huge_pmd(sim, vma, pmd, addr & ~(PMD_SIZE - 1), MMSIM_SPLITPMD_VMA);
}

/* ------------------------------------------------------------- zap and fork */

/* zap_huge_pmd(): the whole leaf goes; returns 1 if its folio was freed */
uint32_t zap_huge_pmd(struct mmsim *sim, struct vm_area_struct *vma, uint64_t *pmd, uint64_t haddr)
{
	struct mm_struct *mm = mm_ptr(sim, vma->vm_mm);
	uint64_t old = *pmd;
	uint32_t pfn = pte_pfn(old), freed = 0;

	if (!is_huge_zero_pmd(old)) {
		struct page *folio = pfn_to_page(sim, pfn);

		mm->rss[MMSIM_MM_ANONPAGES] -= HPAGE_PMD_NR;
		folio_remove_rmap_pmd(sim, pfn);
		freed = folio->_refcount == 1;
	}
	*pmd = 0;
	trace_mmsim_pmd_clear(sim, haddr, is_huge_zero_pmd(old) ? 0 : pfn, vma->vm_mm, freed);
	pte_free(sim, mm, pgtable_trans_huge_withdraw(sim, mm), haddr); /* zap_deposited_table() */
	if (!is_huge_zero_pmd(old))
		folio_put(sim, pfn);
	return freed;
}

/*
 * copy_huge_pmd() at fork: the child's PMD entry gets the leaf (old,
 * write-protected, as the parent's now is) and a deposited table; the
 * folio one more entire mapping and reference. 0 or MMSIM_EOOM.
 */
int copy_huge_pmd(struct mmsim *sim, struct vm_area_struct *dst, uint64_t *spmd, uint64_t haddr)
{
	struct mm_struct *dst_mm = mm_ptr(sim, dst->vm_mm);
	uint64_t *dpmd = pmd_alloc(sim, dst_mm, haddr);
	uint32_t table, pfn;

	if (!dpmd)
		return MMSIM_EOOM;
	table = pte_alloc_one(sim, dst_mm, haddr);
	if (!table)
		return MMSIM_EOOM;
	pfn = pte_pfn(*spmd);
	pgtable_trans_huge_deposit(sim, dst_mm, table);
	*spmd &= ~MMSIM_PTE_RW; /* pmdp_set_wrprotect() */
	*dpmd = *spmd & ~MMSIM_PTE_ACCESSED;
	/* the reference and mapping, then the events (the entry in place for a host stopped at them) */
	if (!is_huge_zero_pmd(*spmd)) {
		folio_get(sim, pfn);
		dst_mm->rss[MMSIM_MM_ANONPAGES] += HPAGE_PMD_NR;
		folio_dup_rmap_pmd(sim, pfn);
	}
	trace_mmsim_set_pmd(sim, haddr, pte_pfn(*dpmd), dst->vm_mm, MMSIM_SET_FORK,
			    (*dpmd & 0xfff));
	return 0;
}

/* ------------------------------------------------------------- the deferred split */

/*
 * split_huge_page() of a queued anon folio mapped only by PTEs (the
 * deferred split shrinker's call): every page becomes an order-0 folio
 * with the head's flags, in the head's place on its LRU list in order
 * (lru_add_split_folio), holding one reference per PTE; the pages no PTE
 * maps are freed. The kernel unmaps the folio (migration entries) and
 * maps it again around the split: the PTEs end as they were, so the model
 * leaves them in place. Refused, as can_split_folio() refuses, while
 * anything but its mappings holds a reference (a pagevec) or a PMD maps
 * it. Returns the pages freed, or -1 when refused.
 */
static int split_huge_page(struct mmsim *sim, uint32_t head)
{
	struct page *folio = pfn_to_page(sim, head);
	const uint32_t keep = PF(anon) | PF(swapbacked) | PF(uptodate) | PF(active) |
			      PF(workingset) | PF(unevictable) | PF(dirty) | PF(lru);
	uint32_t order = folio_order(sim, head), nr = 1u << order, freed = 0, prev = head;
	bool on_lru = folio_test(folio, lru);

	if (pfn_to_page(sim, head + 1)->_entire_mapcount >= 0 ||
	    folio->_refcount != folio_mapcount(sim, head))
		return -1;
	folio_undo_deferred_split(sim, head);
	for (uint32_t i = 1; i < nr; i++) {
		struct page *p = pfn_to_page(sim, head + i);
		uint32_t flags = (p->flags & PF(anon_exclusive)) | (folio->flags & keep);

		p->flags = flags;
		p->private = 0;
		p->lru_next = p->lru_prev = 0;
		p->mapping = folio->mapping;
		p->index = folio->index + i;
		p->_refcount = p->_mapcount + 1;
		if (on_lru) {
			/* right after the previous page: the list keeps the folio's place */
			uint32_t next = pfn_to_page(sim, prev)->lru_next;

			pfn_list_add(sim, &next, head + i, false);
		}
		prev = head + i;
	}
	folio->flags &= ~PF(head);
	folio->_refcount = folio->_mapcount + 1;
	count_vm_event(sim, MMSIM_THP_SPLIT_PAGE);
	/* the unmapped ones: a reference for folio_put() to drop (it takes them off the LRU) */
	for (uint32_t i = 0; i < nr; i++) {
		struct page *p = pfn_to_page(sim, head + i);

		if (p->_refcount)
			continue;
		p->_refcount = 1;
		folio_put(sim, head + i);
		freed++;
	}
	trace_mmsim_split_huge_page(sim, head, order, freed, nr - freed);
	return (int)freed;
}

/*
 * deferred_split_scan(): the shrinker, after a reclaim pass. Each queued
 * folio that is still partly mapped is split; one that is mapped whole
 * again or refused stays queued. Returns the pages freed.
 */
uint64_t deferred_split_scan(struct mmsim *sim)
{
	uint32_t first = sim->s.deferred_split_head,
		 n = (uint32_t)sim->s.counters[MMSIM_NR_DEFERRED_SPLIT];
	uint64_t freed = 0;

	/* walk a snapshot of the queue's length: splits unlink their own node */
	for (uint32_t node = first, i = 0; node && i < n; i++) {
		uint32_t next = pfn_to_page(sim, node)->lru_next, head = node - 2;
		int r = split_huge_page(sim, head);

		if (r > 0)
			freed += (uint64_t)r;
		if (!sim->s.deferred_split_head)
			break;
		node = next;
	}
	return freed;
}

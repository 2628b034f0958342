/*
 * prefault.c - the anticipatory prefault of anonymous memory, as posted in
 * December 2004 (Christoph Lameter, "Anticipatory prefaulting in the page
 * fault handler V1", against 2.6.10-rc3; never merged:
 * docs/kernel.md, "Anticipatory prefault").
 *
 * Each task remembers where it expects its next anonymous fault
 * (task_struct's anon_fault_next_addr) and how far its guesses have been
 * right (anon_fault_order). In do_anonymous_page(), for a none PTE:
 *
 *   fault at next_addr (a hit):   order + 1, a batch of 2^order pages, at
 *                                 most the cap (PAGEVEC_SIZE, 14), clamped
 *                                 to the VMA's end and the page table's
 *                                 (a batch never crosses a PMD); the
 *                                 prediction - the batch's end - stored
 *                                 before allocating
 *   anywhere else (a miss):       next_addr = addr + one page, order 0, and
 *                                 the ordinary one-page fault
 *
 * A sequential toucher thus traps at 1, 2, 4, 8, then every 14 pages:
 *
 *   page   0  1 2  3 4 5 6  7 ... 14  15 ... 28  29 ...
 *   trap   ^  ^    ^        ^         ^         ^         (pgfault +1 each)
 *   batch  1  2    4        8         14        14
 *
 * and at each page table's end a short batch (512 = 14 * 36 + 8): 1 GiB
 * written from a 2 MiB-aligned start traps 18,947 times, not 262,144.
 *
 * A write allocates and zeroes one page per address (each a new anon page
 * on the active list, as the patch did); an allocation failing part way
 * shrinks the batch, and since the prediction was stored first, the next
 * fault will miss. A read maps the zero page. The patch mapped reads without
 * looking at the PTEs beyond the first and could overwrite present ones;
 * the model stops a batch at the first present PTE instead, as the later
 * postings did (a write batch drops a page whose PTE is present, as V1 did).
 *
 * The order is clamped at 30 (V1's 1 << order on an int is undefined past
 * 31; compilers fold the test so that the cap holds, which is what the
 * model does). The fields are copied at fork with the task_struct (run.c).
 *
 * Counters: every trap is still one pgfault (and min_flt); prefault_hits
 * counts the predicted faults, prefault_pages the pages mapped ahead,
 * globally and per task. With mTHP or THP enabled as well, the THP path
 * comes first (a PMD fault), and a predicted fault takes the prefault
 * batch instead of an mTHP folio: two eras' answers to one question,
 * never in one kernel.
 */
#include "internal.h"
#include "memory.h"
#include "page_alloc.h"
#include "prefault.h"
#include "rmap.h"

#define PREFAULT_MAX_ORDER 30

/* one page of a batch, into the none PTE *pte: a new anon page (write) or the zero page (read); counted in vmf->mapped */
static int prefault_one(struct mmsim *sim, struct vm_fault *vmf, uint64_t addr, uint64_t *pte,
			bool write)
{
	uint32_t pfn;

	if (!write) {
		set_zero_pte(sim, vmf, addr, pte);
		return 0;
	}
	if (alloc_page(sim, &pfn, MMSIM_USE_ANON))
		return MMSIM_EOOM;
	folio_set(pfn_to_page(sim, pfn), uptodate);
	mm_ptr(sim, vmf->mm)->rss[MMSIM_MM_ANONPAGES]++;
	/* set_pte_range(): a write fault's new anon page, in the rmap and on the active list, writable and dirty */
	set_pte_range(sim, vmf, pfn, addr, pte, MMSIM_SET_ANON);
	return 0;
}

/*
 * The prediction, for a none PTE in an anonymous VMA (pte: the faulting
 * address's). Returns PREFAULT_MISS after updating the prediction (the
 * caller takes the ordinary path), else the fault's vm_fault_t.
 */
uint32_t do_anon_prefault(struct mmsim *sim, struct vm_fault *vmf, uint64_t *pte)
{
	struct task_struct *t = task_ptr(sim, vmf->task);
	const struct vm_area_struct *vma = vmf->vma;
	bool write = vmf->flags & MMSIM_FAULT_FLAG_WRITE;
	uint64_t addr = vmf->address, end, pmd_end = (addr & ~(PMD_SIZE - 1)) + PMD_SIZE;
	uint32_t order, want, why, mapped = 0;

	if (t->anon_fault_next_addr != addr) {
		t->anon_fault_next_addr = addr + PAGE_SIZE;
		t->anon_fault_order = 0;
		trace_mmsim_anon_prefault(sim, addr, false, 0, 1, MMSIM_PFEND_MISS, 1);
		return PREFAULT_MISS;
	}
	order = MIN(t->anon_fault_order + 1, PREFAULT_MAX_ORDER);
	want = (1u << order) < sim->s.hdr.anon_prefault_cap ? 1u << order :
							      sim->s.hdr.anon_prefault_cap;
	why = (1u << order) < sim->s.hdr.anon_prefault_cap ? MMSIM_PFEND_ORDER : MMSIM_PFEND_CAP;
	end = addr + ((uint64_t)want << PAGE_SHIFT);
	if (end > vma->vm_end) {
		end = vma->vm_end;
		why = MMSIM_PFEND_VMA;
	}
	if (end > pmd_end) {
		end = pmd_end;
		why = MMSIM_PFEND_PMD;
	}
	/* the prediction before the allocations (V1) */
	t->anon_fault_next_addr = end;
	t->anon_fault_order = order;
	if (write && anon_vma_prepare(sim, vmf->vma_id))
		return MMSIM_VM_FAULT_OOM;
	for (uint64_t a = addr; a < end; a += PAGE_SIZE, mapped++) {
		uint64_t *p = pte + ((a - addr) >> PAGE_SHIFT);

		if (!pte_none(*p)) {
			why = MMSIM_PFEND_PRESENT; /* V1: a write drops the page; a read would overwrite: both stop here */
			break;
		}
		if (prefault_one(sim, vmf, a, p, write)) {
			if (!mapped)
				return MMSIM_VM_FAULT_OOM;
			why = MMSIM_PFEND_ALLOC;
			break;
		}
	}
	vmf->kind = MMSIM_FK_ANON_PREFAULT;
	count_vm_event(sim, MMSIM_MODEL_PREFAULT_HITS);
	count_vm_events(sim, MMSIM_MODEL_PREFAULT_PAGES, mapped - 1);
	count_task_event(sim, vmf->task, MMSIM_T_PREFAULT_HITS);
	t->counters[MMSIM_T_PREFAULT_PAGES] += mapped - 1;
	trace_mmsim_anon_prefault(sim, addr, true, order, mapped, why,
				  (uint32_t)((end - addr) >> PAGE_SHIFT));
	return 0;
}

int mmsim_prefault_state(const struct mmsim *sim, uint32_t task, struct mmsim_prefault_state *out)
{
	const struct task_struct *t;

	memset(out, 0, sizeof(*out));
	if (task >= sim->s.hdr.nr_tasks)
		return MMSIM_EINVAL;
	t = task_ptr(sim, task);
	out->next_addr = t->anon_fault_next_addr;
	out->order = t->anon_fault_order;
	out->alive = t->alive;
	return 0;
}

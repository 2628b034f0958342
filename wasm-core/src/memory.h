/* memory.h - memory.c: the fault path, page tables and PTEs */
#ifndef MMSIM_MEMORY_H
#define MMSIM_MEMORY_H

#include "internal.h"

/* memory.c */
struct vm_fault {
	struct vm_area_struct *vma;
	uint32_t vma_id;
	uint32_t mm;
	uint32_t task;
	uint32_t flags; /* FAULT_FLAG_* */
	uint64_t address; /* page aligned */
	uint64_t pgoff;
	uint64_t *pmd; /* the PMD entry */
	uint64_t *pte; /* the PTE, NULL if pte_none or no table */
	uint64_t *ptep; /* the PTE slot if the PTE table exists, else NULL */
	uint64_t orig_pte;
	uint32_t page; /* pfn from ->fault */
	uint32_t cow_page;
	uint32_t kind; /* enum mmsim_fault_kind */
	uint32_t mapped; /* PTEs set by this fault */
};
bool user_access(struct mmsim *sim, uint32_t task, uint64_t addr, bool write);
int handle_user_fault(struct mmsim *sim, uint32_t task, uint64_t addr, bool write);
bool user_access_would_hit(struct mmsim *sim, uint32_t task, uint64_t addr, bool write);
uint64_t mmu_prefetch(const struct mmsim *sim, uint32_t task, uint64_t addr);
int pgd_alloc(struct mmsim *sim, struct mm_struct *mm);
void pgd_free(struct mmsim *sim, struct mm_struct *mm);
uint64_t *walk_pte(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr);
uint64_t *mm_find_pmd(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr);
uint64_t *pmd_alloc(struct mmsim *sim, struct mm_struct *mm, uint64_t addr);
uint32_t pte_alloc_one(struct mmsim *sim, struct mm_struct *mm, uint64_t addr);
void pte_free(struct mmsim *sim, struct mm_struct *mm, uint32_t pfn, uint64_t addr);
uint32_t follow_page_pfn(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr,
			 uint64_t *entry);
uint32_t pte_alloc(struct mmsim *sim, struct vm_fault *vmf);
uint64_t zap_page_range(struct mmsim *sim, struct vm_area_struct *vma, uint64_t start, uint64_t end,
			uint64_t *freed);
void free_pgtables(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t end);
int copy_page_range(struct mmsim *sim, struct vm_area_struct *dst, struct vm_area_struct *src);
void set_zero_pte(struct mmsim *sim, struct vm_fault *vmf, uint64_t addr, uint64_t *pte);
uint64_t read_fault_pte_bits(const struct mmsim *sim, const struct vm_area_struct *vma);
void set_pte_range(struct mmsim *sim, struct vm_fault *vmf, uint32_t pfn, uint64_t addr,
		   uint64_t *pte, uint32_t how);
static inline uint32_t pte_pfn(uint64_t pte)
{
	return (uint32_t)((pte & MMSIM_PTE_PFN_MASK) >> PAGE_SHIFT);
}
static inline bool pte_none(uint64_t pte)
{
	return pte == 0;
}
static inline bool pte_present(uint64_t pte)
{
	return pte & MMSIM_PTE_PRESENT;
}

/* the 512 entries of the page-table page at pfn, or of the table an entry points at */
static inline uint64_t *table_of_pfn(const struct mmsim *sim, uint32_t pfn)
{
	return pgt_table(sim, pfn_to_page(sim, pfn)->private);
}

static inline uint64_t *table_of_entry(const struct mmsim *sim, uint64_t entry)
{
	return table_of_pfn(sim, pte_pfn(entry));
}
static inline bool pte_write(uint64_t pte)
{
	return pte & MMSIM_PTE_RW;
}

/*
 * ptep_get_and_clear(): every present PTE the model clears goes through
 * here (zap_pte_range: munmap, madvise(DONTNEED), exit), so that each one is
 * an MMSIM_EV_PTE_CLEAR event (addr, pfn, mm) and the hosts never have to
 * work out which pages went away. A PTE replaced in place (COW) is not
 * cleared: its MMSIM_EV_SET_PTE says what maps the address now.
 */
static inline uint64_t ptep_get_and_clear(struct mmsim *sim, uint32_t mm, uint64_t addr,
					  uint64_t *ptep)
{
	uint64_t pte = *ptep;

	*ptep = 0;
	trace_mmsim_pte_clear(sim, addr, pte_pfn(pte), mm);
	return pte;
}

#endif /* MMSIM_MEMORY_H */

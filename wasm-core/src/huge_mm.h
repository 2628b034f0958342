/* huge_mm.h - huge_memory.c: THP, PMD leaves, the remap, the deferred split */
#ifndef MMSIM_HUGE_MM_H
#define MMSIM_HUGE_MM_H

#include "internal.h"
#include "memory.h"

/* huge_memory.c */
bool thp_vma_allowable(const struct mmsim *sim, const struct vm_area_struct *vma, uint64_t addr);
uint32_t do_huge_pmd_anonymous_page(struct mmsim *sim, struct vm_fault *vmf);
uint32_t do_huge_pmd_wp_page(struct mmsim *sim, struct vm_fault *vmf);
int __split_huge_pmd(struct mmsim *sim, struct vm_area_struct *vma, uint64_t *pmd, uint64_t haddr,
		     uint32_t why);
void split_huge_pmd_address(struct mmsim *sim, struct vm_area_struct *vma, uint64_t addr);
uint32_t zap_huge_pmd(struct mmsim *sim, struct vm_area_struct *vma, uint64_t *pmd, uint64_t haddr);
int copy_huge_pmd(struct mmsim *sim, struct vm_area_struct *dst, uint64_t *spmd, uint64_t haddr);
uint64_t deferred_split_scan(struct mmsim *sim);

#endif /* MMSIM_HUGE_MM_H */

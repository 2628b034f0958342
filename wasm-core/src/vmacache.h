/* vmacache.h - vmacache.c: find_vma() and the VMA cache */
#ifndef MMSIM_VMACACHE_H
#define MMSIM_VMACACHE_H

#include "internal.h"

/* vmacache.c: find_vma() by `task` for its own mm, through the VMA cache */
uint32_t find_vma(struct mmsim *sim, uint32_t task, uint64_t addr);
void vmacache_unlinked(struct mmsim *sim, uint32_t mmid, uint32_t removed, uint32_t prev);
void vmacache_task_init(struct mmsim *sim, uint32_t task, uint32_t from);
uint32_t find_vma_noacct(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr);

/*
 * One step down find_vma()'s rb-tree walk from node: a node ending above
 * addr is the candidate so far (*vma), and the walk stops there if it also
 * contains addr, else goes left; otherwise right. Returns the next node, 0
 * when the walk is over.
 */
static inline uint32_t find_vma_step(const struct mmsim *sim, uint32_t node, uint64_t addr,
				     uint32_t *vma)
{
	const struct vm_area_struct *v = vma_ptr(sim, node);

	if (v->vm_end <= addr)
		return v->rb_right;
	*vma = node;
	return v->vm_start <= addr ? 0 : v->rb_left;
}

#endif /* MMSIM_VMACACHE_H */

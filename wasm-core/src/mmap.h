/* mmap.h - mmap.c, rbtree.c: VMAs, mmap, munmap, madvise, fork and exit */
#ifndef MMSIM_MMAP_H
#define MMSIM_MMAP_H

#include "internal.h"

/* mmap.c; do_mmap() takes mmap(2)'s prot and flags (include/uapi/asm-generic/mman*.h) */
#define PROT_READ 0x1u
#define PROT_WRITE 0x2u
#define MAP_SHARED 0x01u
#define MAP_PRIVATE 0x02u
#define MAP_FIXED 0x10u
int do_mmap(struct mmsim *sim, uint32_t mm, uint32_t file, uint64_t addr, uint64_t len,
	    uint32_t prot, uint32_t flags, uint64_t offset, uint32_t map);
int do_munmap(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t len);
int do_madvise(struct mmsim *sim, uint32_t mmid, uint64_t start, uint64_t len, uint32_t advice);
int dup_mm(struct mmsim *sim, uint32_t parent, uint32_t child);
void exit_mmap(struct mmsim *sim, uint32_t mm);
int mm_init_one(struct mmsim *sim, uint32_t mm);
uint64_t vma_pages(const struct vm_area_struct *vma);
const struct maprec *maprec_find(const struct mmsim *sim, uint32_t mm, uint32_t name);
static inline uint64_t linear_page_index(const struct vm_area_struct *vma, uint64_t addr)
{
	return ((addr - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff;
}

/* rbtree.c (VMAs) */
void vma_rb_insert(struct mmsim *sim, struct mm_struct *mm, uint32_t id);
void vma_rb_erase(struct mmsim *sim, struct mm_struct *mm, uint32_t id);
int vma_rb_check(const struct mmsim *sim, const struct mm_struct *mm, char *msg, uint32_t len);

#endif /* MMSIM_MMAP_H */

/* pagewalk.h - pagewalk.c: walk_page_range(), and the page-table geometry */
#ifndef MMSIM_PAGEWALK_H
#define MMSIM_PAGEWALK_H

#include "internal.h"

/* pagewalk.c: walk_page_range() over an mm's page tables (see its opening comment) */
struct mm_walk;
struct mm_walk_ops {
	/* a present PMD entry, a table or a leaf (MMSIM_PTE_PSE); set walk->action to ACTION_CONTINUE to skip its PTEs */
	int (*pmd_entry)(uint64_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk);
	/* each PTE of the range under a PMD table, present or not */
	int (*pte_entry)(uint64_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk);
	/* an empty entry at `level` covering [addr, next) */
	int (*pte_hole)(uint64_t addr, uint64_t next, int level, struct mm_walk *walk);
};
enum page_walk_action { ACTION_SUBTREE = 0, ACTION_CONTINUE = 1 };
struct mm_walk {
	const struct mm_walk_ops *ops;
	struct mmsim *sim;
	struct mm_struct *mm;
	void *private;
	enum page_walk_action action;
};
int walk_page_range(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t end,
		    const struct mm_walk_ops *ops, void *private);
uint64_t *walk_pte_table(struct mm_walk *walk, const uint64_t *pmd);

/* log2 of the span one entry of a table of `level` maps (MMSIM_PGT_PGD .. MMSIM_PGT_PTE) */
static inline int pgt_level_shift(int level)
{
	static const int shift[4] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };

	return shift[level];
}

/* the index of addr's entry in a table of `level` */
static inline uint32_t pgt_level_index(uint64_t addr, int level)
{
	return (uint32_t)(addr >> pgt_level_shift(level)) & (PTRS_PER_PTE - 1);
}

#endif /* MMSIM_PAGEWALK_H */

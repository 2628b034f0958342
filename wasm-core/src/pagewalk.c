/*
 * pagewalk.c - one walker over a range of an mm's page tables (the shape of
 * the kernel's mm/pagewalk.c, walk_page_range()).
 *
 *     PGD --> PUD --> PMD --+--> a PTE table --> PTEs        pte_entry() each
 *                           |                                 (or pmd_entry() takes the table)
 *                           +--> a leaf: PSE, one 2 MiB page  pmd_entry() must handle it
 *
 * For every PMD entry that is present in [start, end) the walker calls
 * ops->pmd_entry (if any) with the entry and the part of the range under
 * it. The callback says what comes next through walk->action:
 *
 *   ACTION_SUBTREE  (the default) go down to the PTEs, calling
 *                   ops->pte_entry for each PTE of the range, present or not
 *   ACTION_CONTINUE skip the PTEs under this entry (the callback did the
 *                   work itself: a leaf mapped at the PMD level, or a
 *                   whole PTE table walked in its own loop, which is how
 *                   the hot walkers - zap, fork's copy - avoid a call per PTE)
 *
 * A PMD leaf (MMSIM_PTE_PSE, a THP) has no table below it. A walker that
 * meets one and leaves the action at ACTION_SUBTREE expected a table: the
 * walk stops with MMSIM_EINVARIANT rather than read a 2 MiB page's first
 * frame as 512 entries (the kernel splits the PMD there, or the caller's
 * pmd_entry handles pmd_trans_huge(); every walker here must say which).
 * Leaves above the PMD (1 GiB PUD pages) are not modelled and stop the walk
 * the same way. Empty entries (none) call ops->pte_hole with the level they
 * were found at, as walk_page_range() does.
 *
 * A callback returns 0 to go on or an error code, which ends the walk and
 * is returned.
 */
#include "internal.h"
#include "memory.h"
#include "pagewalk.h"

static inline uint64_t level_end(uint64_t addr, int level, uint64_t end)
{
	uint64_t size = 1ull << pgt_level_shift(level);
	uint64_t next = (addr & ~(size - 1)) + size;

	return next < end && next > addr ? next : end;
}

/*
 * For a pmd_entry that walks the PTE table in its own loop: the table under
 * a PMD entry, the PTE level skipped (ACTION_CONTINUE); NULL for a leaf,
 * which stays the walker's to refuse until the caller handles leaves.
 */
uint64_t *walk_pte_table(struct mm_walk *walk, const uint64_t *pmd)
{
	if (*pmd & MMSIM_PTE_PSE)
		return NULL;
	walk->action = ACTION_CONTINUE;
	return table_of_entry(walk->sim, *pmd);
}

static int walk_pte_range(uint64_t *table, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	for (; addr < end; addr += PAGE_SIZE) {
		int err = walk->ops->pte_entry(&table[pgt_level_index(addr, MMSIM_PGT_PTE)], addr,
					       addr + PAGE_SIZE, walk);

		if (err)
			return err;
	}
	return 0;
}

static int walk_pmd_range(uint64_t *table, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	const struct mm_walk_ops *ops = walk->ops;

	for (uint64_t next; addr < end; addr = next) {
		uint64_t *pmd = &table[pgt_level_index(addr, MMSIM_PGT_PMD)];
		int err;

		next = level_end(addr, MMSIM_PGT_PMD, end);
		if (!pte_present(*pmd)) {
			if (ops->pte_hole && (err = ops->pte_hole(addr, next, MMSIM_PGT_PMD, walk)))
				return err;
			continue;
		}
		walk->action = ACTION_SUBTREE;
		if (ops->pmd_entry && (err = ops->pmd_entry(pmd, addr, next, walk)))
			return err;
		if (walk->action == ACTION_CONTINUE)
			continue;
		/* the callback may have cleared or replaced the entry (a remap, a zap of a leaf) */
		if (!pte_present(*pmd))
			continue;
		if (*pmd & MMSIM_PTE_PSE)
			return sim_error(walk->sim, MMSIM_EINVARIANT, addr,
					 2); /* a PMD leaf where a table was expected */
		if (ops->pte_entry &&
		    (err = walk_pte_range(table_of_entry(walk->sim, *pmd), addr, next, walk)))
			return err;
	}
	return 0;
}

static int walk_upper(uint64_t *table, int level, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	for (uint64_t next; addr < end; addr = next) {
		uint64_t e = table[pgt_level_index(addr, level)];
		int err;

		next = level_end(addr, level, end);
		if (!pte_present(e)) {
			if (walk->ops->pte_hole &&
			    (err = walk->ops->pte_hole(addr, next, level, walk)))
				return err;
			continue;
		}
		if (e & MMSIM_PTE_PSE)
			return sim_error(walk->sim, MMSIM_EINVARIANT, addr,
					 (uint64_t)level); /* PUD pages: not modelled */
		err = level + 1 == MMSIM_PGT_PMD ?
			      walk_pmd_range(table_of_entry(walk->sim, e), addr, next, walk) :
			      walk_upper(table_of_entry(walk->sim, e), level + 1, addr, next, walk);
		if (err)
			return err;
	}
	return 0;
}

int walk_page_range(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t end,
		    const struct mm_walk_ops *ops, void *private)
{
	struct mm_walk walk = {
		.ops = ops, .sim = sim, .mm = mm, .private = private, .action = ACTION_SUBTREE
	};

	if (!mm->pgd || start >= end)
		return 0;
	return walk_upper(pgt_table(sim, pfn_to_page(sim, mm->pgd)->private), MMSIM_PGT_PGD, start,
			  MIN(end, TASK_SIZE), &walk);
}

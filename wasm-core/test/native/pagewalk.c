/*
 * pagewalk.c - walk_page_range() (src/pagewalk.c): what it visits under
 * present PMD tables and holes, and that a PMD leaf (a 2 MiB page mapped at
 * the PMD level, MMSIM_PTE_PSE) is handed to pmd_entry and never read as a
 * table. Included by test_core.c. The model maps no PMD leaves yet (THP
 * comes with the folio issue): the tests put one in by hand, where a PTE
 * table was, and take it out again before the checker looks.
 *
 *   0x7f0000000000  PMD 0: a PTE table  [p0 . . . . ]      one present PTE
 *   0x7f0000200000  PMD 1: a PTE table  [ . . p600 . ]     one present PTE (page 600 of the VMA)
 *   0x7f0000400000  PMD 2: none                              a hole
 */

struct walk_count {
	uint32_t pmd_tables, pmd_leaves, ptes, present, holes;
	bool skip_leaves;
};

static int count_pmd(uint64_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct walk_count *c = walk->private;

	if (*pmd & MMSIM_PTE_PSE) {
		c->pmd_leaves++;
		if (c->skip_leaves)
			walk->action = ACTION_CONTINUE;
	} else {
		c->pmd_tables++;
	}
	return 0;
}

static int count_pte(uint64_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct walk_count *c = walk->private;

	c->ptes++;
	c->present += pte_present(*pte);
	return 0;
}

static int count_hole(uint64_t addr, uint64_t next, int level, struct mm_walk *walk)
{
	((struct walk_count *)walk->private)->holes++;
	return 0;
}

static const struct mm_walk_ops count_ops = { .pmd_entry = count_pmd,
					      .pte_entry = count_pte,
					      .pte_hole = count_hole };
static const struct mm_walk_ops count_ptes_only = { .pte_entry = count_pte };

/* a 6 MiB anonymous mapping, 2 MiB aligned, with pages 0 and 600 written */
static struct mmsim *two_tables(void)
{
	struct prog p;
	uint64_t pages[] = { 0, 600 };
	struct mmsim *sim;

	prog_init(&p, 64 * MiB);
	prog_proc(&p, 1, 0);
	prog_mmap(&p, 0, 0, -1, 0, 6 * MiB, 0, 1);
	prog_touch(&p, 0, 0, 1, pages, 2);
	sim = start(&p);
	CHECK_EQ(run_all(sim), MMSIM_RUN_DONE);
	return sim;
}

TEST(pagewalk_tables_and_holes)
{
	struct mmsim *sim = two_tables();
	struct mm_struct *mm = mm_ptr(sim, 0);
	const struct vm_area_struct *v = vma_ptr(sim, find_vma_noacct(sim, mm, MMAP_BASE));
	struct walk_count c = { 0 };

	CHECK_EQ(v->vm_start & (PMD_SIZE - 1), 0);
	CHECK_EQ(walk_page_range(sim, mm, v->vm_start, v->vm_end, &count_ops, &c), 0);
	/* PMD 0 and 1 are tables (512 PTEs each, one present in each), PMD 2 a hole */
	CHECK_EQ(c.pmd_tables, 2);
	CHECK_EQ(c.pmd_leaves, 0);
	CHECK_EQ(c.ptes, 1024);
	CHECK_EQ(c.present, 2);
	CHECK_EQ(c.holes, 1);
	/* a range that starts and ends inside tables: only its own PTEs */
	memset(&c, 0, sizeof(c));
	CHECK_EQ(walk_page_range(sim, mm, v->vm_start + 510 * PAGE_SIZE,
				 v->vm_start + 601 * PAGE_SIZE, &count_ops, &c),
		 0);
	CHECK_EQ(c.pmd_tables, 2);
	CHECK_EQ(c.ptes, 91);
	CHECK_EQ(c.present, 1);
	CHECK_EQ(c.holes, 0);
	mmsim_destroy(sim);
}

TEST(pagewalk_pmd_leaf)
{
	struct mmsim *sim = two_tables();
	struct mm_struct *mm = mm_ptr(sim, 0);
	uint64_t start = MMAP_BASE, *pmd, table;
	struct walk_count c = { .skip_leaves = true };

	/* PMD 0 becomes a leaf by hand (the PTE table it pointed at is put back below) */
	CHECK_EQ(find_vma_noacct(sim, mm, start) != 0, 1);
	{
		uint64_t *t = pgt_table(sim, pfn_to_page(sim, mm->pgd)->private);

		for (int level = MMSIM_PGT_PGD; level < MMSIM_PGT_PMD; level++)
			t = pgt_table(sim,
				      pfn_to_page(sim, pte_pfn(t[pgt_level_index(start, level)]))
					      ->private);
		pmd = &t[pgt_level_index(start, MMSIM_PGT_PMD)];
	}
	table = *pmd;
	*pmd = (table & MMSIM_PTE_PFN_MASK) | MMSIM_PTE_PRESENT | MMSIM_PTE_RW | MMSIM_PTE_USER |
	       MMSIM_PTE_PSE;
	mm_flush_walk_cache(mm);
	/* a walker that handles leaves: pmd_entry sees it, no PTE under it is visited */
	CHECK_EQ(walk_page_range(sim, mm, start, start + 4 * MiB, &count_ops, &c), 0);
	CHECK_EQ(c.pmd_leaves, 1);
	CHECK_EQ(c.pmd_tables, 1);
	CHECK_EQ(c.ptes, 512);
	CHECK_EQ(c.present, 1);
	/* the lookups that stop at a leaf: no PTE for an address under it */
	CHECK(walk_pte(sim, mm, start) == NULL);
	CHECK(walk_pte(sim, mm, start + PMD_SIZE) != NULL);
	/* a walker that expects tables (no pmd_entry) stops at the leaf: MMSIM_EINVARIANT, nothing visited past it */
	memset(&c, 0, sizeof(c));
	CHECK_EQ(walk_page_range(sim, mm, start, start + 4 * MiB, &count_ptes_only, &c),
		 MMSIM_EINVARIANT);
	CHECK_EQ(c.ptes, 0);
	CHECK_EQ(mmsim_last_error(sim)->code, MMSIM_EINVARIANT);
	CHECK_EQ(mmsim_last_error(sim)->addr, start);
	/* (zap and fork's copy handle real leaves, THPs: test/native/large-folios.c) */
	*pmd = table;
	mm_flush_walk_cache(mm);
	mmsim_destroy(sim);
}

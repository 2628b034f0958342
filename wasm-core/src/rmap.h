/* rmap.h - rmap.c: the reverse map, mapcounts and their atomics */
#ifndef MMSIM_RMAP_H
#define MMSIM_RMAP_H

#include "internal.h"

/* rmap.c */
typedef bool (*rmap_one_fn)(struct mmsim *sim, uint32_t pfn, struct vm_area_struct *vma,
			    uint64_t addr, uint64_t *pte, void *arg);
void rmap_walk(struct mmsim *sim, uint32_t pfn, rmap_one_fn one, void *arg);
uint32_t page_referenced(struct mmsim *sim, uint32_t pfn, uint32_t *vm_flags);
int try_to_unmap(struct mmsim *sim, uint32_t pfn);
uint32_t page_mkclean(struct mmsim *sim, uint32_t pfn);
void vma_link_rmap(struct mmsim *sim, uint32_t id);
void vma_link_anon(struct mmsim *sim, uint32_t id);
void vma_unlink_rmap(struct mmsim *sim, uint32_t id);
uint32_t anon_vma_fork(struct mmsim *sim, uint32_t parent_av, uint32_t child_vma);
void folio_add_file_rmap_pte(struct mmsim *sim, uint32_t pfn);
/* the rmap atomics counted so far, per field (rmap.c): what one operation made is a difference of two */
struct rmap_cost {
	uint64_t page, large, entire, nr;
};

static inline struct rmap_cost rmap_cost_now(const struct mmsim *sim)
{
	const uint64_t *c = sim->s.counters;

	return (struct rmap_cost){ c[MMSIM_MODEL_RMAP_ATOMIC_PAGE_MAPCOUNT],
				   c[MMSIM_MODEL_RMAP_ATOMIC_LARGE_MAPCOUNT],
				   c[MMSIM_MODEL_RMAP_ATOMIC_ENTIRE_MAPCOUNT],
				   c[MMSIM_MODEL_RMAP_ATOMIC_NR_PAGES_MAPPED] };
}

static inline uint64_t rmap_cost_total(struct rmap_cost c)
{
	return c.page + c.large + c.entire + c.nr;
}

#define ENTIRELY_MAPPED 0x800000
#define FOLIO_PAGES_MAPPED (ENTIRELY_MAPPED - 1)
void folio_add_anon_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr, bool exclusive);
void folio_remove_rmap_pmd(struct mmsim *sim, uint32_t head);
void folio_dup_rmap_pmd(struct mmsim *sim, uint32_t head);
void folio_add_new_anon_rmap(struct mmsim *sim, uint32_t pfn, const struct vm_area_struct *vma,
			     uint64_t addr, bool pmd);
void folio_remove_rmap_pte(struct mmsim *sim, uint32_t pfn);
void folio_dup_rmap_pte(struct mmsim *sim, uint32_t pfn);
/* the batched forms: pages pfn .. pfn + nr - 1 of one folio (one _large_mapcount atomic per batch) */
void folio_remove_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr);
void folio_dup_rmap_ptes(struct mmsim *sim, uint32_t pfn, uint32_t nr);
/* a large folio being freed leaves the deferred split queue */
void folio_undo_deferred_split(struct mmsim *sim, uint32_t head);
int folio_mapcount(const struct mmsim *sim, uint32_t pfn);
bool folio_likely_mapped_shared(const struct mmsim *sim, uint32_t pfn);
bool folio_likely_mapped_shared_rule(const struct mmsim *sim, uint32_t pfn, bool v610);
int anon_vma_prepare(struct mmsim *sim, uint32_t vma_id);

#endif /* MMSIM_RMAP_H */

/* xarray.h - xarray.c: the page cache's radix tree */
#ifndef MMSIM_XARRAY_H
#define MMSIM_XARRAY_H

#include "internal.h"

/* xarray.c */
uint32_t xa_load(const struct mmsim *sim, const struct xarray *xa, uint64_t index);
uint32_t xa_load_cached(const struct mmsim *sim, struct xarray *xa, uint64_t index);
int xa_store(struct mmsim *sim, struct xarray *xa, uint64_t index, uint32_t entry);
void xa_erase(struct mmsim *sim, struct xarray *xa, uint64_t index);
/* pointer to the slot for index if its leaf exists, and how many slots follow in that leaf */
uint32_t *xa_slot(const struct mmsim *sim, const struct xarray *xa, uint64_t index, uint32_t *run);
/* xa_slot(), and the leaf's dirty tags from there on: bit k is slot[k]'s (the checker reads them leaf by leaf) */
uint32_t *xa_slot_tagged(const struct mmsim *sim, const struct xarray *xa, uint64_t index,
			 uint32_t *run, uint64_t *tags);
bool xa_find_present(const struct mmsim *sim, const struct xarray *xa, uint64_t from,
		     uint64_t *index);
/* the dirty tag (PAGECACHE_TAG_DIRTY): set, cleared, and the first tagged index at or after from */
void xa_set_tag(struct mmsim *sim, struct xarray *xa, uint64_t index);
void xa_clear_tag(struct mmsim *sim, struct xarray *xa, uint64_t index);
bool xa_find_tagged(const struct mmsim *sim, const struct xarray *xa, uint64_t from,
		    uint64_t *index);

#endif /* MMSIM_XARRAY_H */

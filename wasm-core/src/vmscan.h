/* vmscan.h - vmscan.c, workingset.c, truncate.c: reclaim, refaults, invalidation */
#ifndef MMSIM_VMSCAN_H
#define MMSIM_VMSCAN_H

#include "internal.h"

/* vmscan.c: reclaim, kswapd, the watermarks */
void setup_per_zone_wmarks(struct mmsim *sim);
bool zone_watermark_ok(const struct mmsim *sim, unsigned order, uint64_t mark);
void wakeup_kswapd(struct mmsim *sim);
void kswapd_run(struct mmsim *sim);
uint64_t try_to_free_pages(struct mmsim *sim);
bool zone_reclaimable(const struct mmsim *sim);
uint64_t vmscan_shrink_file_inactive(struct mmsim *sim, uint32_t nr); /* the native tests' */
void vmscan_shrink_file_active(struct mmsim *sim, uint32_t nr);

/* workingset.c (3.15): shadow entries and refault detection */
uint32_t workingset_eviction(struct mmsim *sim);
void workingset_activation(struct mmsim *sim);
bool workingset_refault(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t shadow);

/* truncate.c: invalidate_mapping_pages() and fadvise(DONTNEED) */
int do_fadvise_dontneed(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len);

#endif /* MMSIM_VMSCAN_H */

/* writeback.h - writeback.c: dirty pages, write I/O, the flusher, fsync */
#ifndef MMSIM_WRITEBACK_H
#define MMSIM_WRITEBACK_H

#include "internal.h"

/* writeback.c: dirty accounting, write I/O, the flusher, balance_dirty_pages(), fsync */
void folio_mark_dirty(struct mmsim *sim, uint32_t pfn);
void folio_mark_dirty_buffers(struct mmsim *sim, uint32_t pfn);
void account_page_cleaned(struct mmsim *sim, uint32_t pfn);
bool clear_page_dirty_for_io(struct mmsim *sim, uint32_t pfn);
void writeback_submit(struct mmsim *sim, uint32_t file, uint64_t first, uint32_t nr,
		      uint32_t reason);
uint64_t write_cache_pages(struct mmsim *sim, uint32_t file, uint64_t nr_to_write, bool cyclic,
			   uint32_t reason);
uint64_t write_cache_range(struct mmsim *sim, uint32_t file, uint64_t first, uint64_t last,
			   uint64_t nr_to_write, bool cyclic, uint32_t reason);
uint64_t writeback_inodes(struct mmsim *sim, uint64_t nr_pages, uint32_t reason);
void writeback_advance(struct mmsim *sim);
void writeback_wait_page(struct mmsim *sim, uint32_t pfn);
bool writeback_wait_oldest(struct mmsim *sim);
void balance_dirty_pages_ratelimited(struct mmsim *sim);
void flusher_run(struct mmsim *sim);
int do_fsync(struct mmsim *sim, uint32_t file);
void global_dirty_limits(const struct mmsim *sim, uint64_t *bg, uint64_t *dirty);
void writeback_init(struct mmsim *sim);

#endif /* MMSIM_WRITEBACK_H */

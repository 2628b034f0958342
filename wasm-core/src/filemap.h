/* filemap.h - filemap.c, shmem.c, readahead.c: the page cache and its I/O */
#ifndef MMSIM_FILEMAP_H
#define MMSIM_FILEMAP_H

#include "internal.h"
#include "memory.h"

/* filemap.c */
int filemap_add_folio(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t *pfn);
void filemap_remove_folio(struct mmsim *sim, uint32_t file, uint32_t pfn, uint32_t shadow);
int generic_file_read(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len);
int generic_file_write(struct mmsim *sim, uint32_t file, uint64_t offset, uint64_t len);
uint32_t filemap_get_folio(const struct mmsim *sim, uint32_t file, uint64_t index);
uint32_t filemap_get_page(const struct mmsim *sim, uint32_t file, uint64_t index);
uint32_t filemap_get_small_folio(struct mmsim *sim, uint32_t file, uint64_t index);
void filemap_split_folio(struct mmsim *sim, uint32_t head);
int filemap_add_folio_order(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t order,
			    uint32_t *pfn);
uint32_t filemap_map_pages(struct mmsim *sim, struct vm_fault *vmf, uint64_t start_pgoff,
			   uint64_t end_pgoff);
uint32_t filemap_fault(struct mmsim *sim, struct vm_fault *vmf);
void filemap_page_mkwrite(struct mmsim *sim, uint32_t pfn);
int file_preload(struct mmsim *sim, uint32_t file, uint64_t from, uint32_t n);
uint32_t shmem_fault(struct mmsim *sim, struct vm_fault *vmf);
void io_advance(struct mmsim *sim);
void io_wait_folio(struct mmsim *sim, uint32_t file, uint32_t pfn);
void io_submit_read(struct mmsim *sim, uint32_t file, uint64_t start, uint32_t nr);

/* readahead.c */
void page_cache_sync_ra(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t req_count);
void page_cache_async_ra(struct mmsim *sim, uint32_t file, uint32_t pfn, uint64_t index,
			 uint32_t req_count);
void page_cache_ra_order(struct mmsim *sim, uint32_t file);
void do_page_cache_ra(struct mmsim *sim, uint32_t file, uint64_t index, uint64_t nr_to_read,
		      uint64_t lookahead_size);

#endif /* MMSIM_FILEMAP_H */

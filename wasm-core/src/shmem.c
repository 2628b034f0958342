/*
 * shmem.c - tmpfs files (mm/shmem.c, v6.19), order-0 folios (huge=never).
 *
 * A tmpfs file has no disk behind it: its pages exist in the page cache
 * once written, and a page that was never written is a hole. So:
 *
 *  - shmem_fault() never reads and never sleeps here: a cached page is
 *    returned at once; a hole inside i_size gets a new zeroed folio
 *    (shmem_get_folio_gfp(SGP_CACHE) -> shmem_alloc_and_add_folio()); beyond
 *    i_size it is SIGBUS. No fault on tmpfs is major (only a swap-in is,
 *    and there is no swap here); there is no readahead and no mmap_miss.
 *
 *  - fault-around works as for any file: shmem_vm_ops.map_pages is
 *    filemap_map_pages ("mm: implement ->map_pages for shmem/tmpfs", 3.15).
 *
 *        read fault at 5, W = 16:  [0 ......... 15]  cached pages mapped,
 *                                                     holes skipped
 *
 *  - shmem_vm_ops has no ->page_mkwrite, so a shared writable mapping does
 *    not want write notifications: its PTEs are writable from the first
 *    (read) fault, and a write after a read costs no fault at all
 *    (memory.c, vma_page_prot_writable()).
 *
 *  - tmpfs folios are swap-backed: they sit on the anon LRU lists, count in
 *    nr_shmem as well as nr_file_pages and in the mm's MM_SHMEMPAGES, and
 *    their dirtying is not accounted (noop_dirty_folio: not in nr_dirty).
 *
 *  - mmap places a tmpfs mapping page-aligned (mmap.c), so its first
 *    fault-around window is usually clamped by the VMA start.
 */
#include "internal.h"
#include "filemap.h"
#include "memory.h"
#include "page_alloc.h"

uint32_t shmem_fault(struct mmsim *sim, struct vm_fault *vmf)
{
	uint32_t file = vmf->vma->vm_file - 1;
	struct file *f = file_ptr(sim, file);
	uint64_t index = vmf->pgoff;
	uint32_t pfn;

	if (index >= DIV_ROUND_UP(f->i_size, PAGE_SIZE))
		return MMSIM_VM_FAULT_SIGBUS;
	pfn = filemap_get_folio(sim, file, index);
	trace_mmsim_shmem_fault(sim, vmf->address, file, index, pfn != 0);
	if (!pfn) {
		/* a hole: a new folio, zeroed (clear_highpage) and uptodate */
		if (filemap_add_folio(sim, file, index, &pfn))
			return MMSIM_VM_FAULT_OOM;
		folio_set(pfn_to_page(sim, pfn), uptodate);
		folio_clear(pfn_to_page(sim, pfn), locked);
	}
	folio_get(sim, pfn); /* referenced, as filemap_fault() returns it */
	vmf->page = pfn;
	return MMSIM_VM_FAULT_LOCKED;
}

/*
 * mmap.c - VMAs: find_vma, mmap, munmap, split, merge, madvise, fork, exit
 * (3.15-era mm/mmap.c semantics, which the vmacache mechanism needs).
 *
 * find_vma(mm, addr) returns the first VMA with vm_end > addr, which may not
 * contain addr. A scenario's map name is bound to the range its mmap
 * created (a maprec); VMAs may later merge with neighbours or split under
 * munmap and madvise, but the name keeps meaning that range.
 *
 * mmap without an address places the mapping bottom-up from mm->mmap_base
 * at the first gap (the kernel's legacy layout), 2 MiB aligned for disk
 * files and anonymous memory (THP alignment; the first such gap is at
 * 0x7f0000000000 or above, so those addresses read well), page aligned for
 * tmpfs files, as the kernel places them (shmem_get_unmapped_area() aligns
 * only when tmpfs may use huge pages). mmap_base is 0x7f0000000000 less a
 * random 1..511 pages drawn from the seed (the kernel randomises it too,
 * arch_mmap_rnd()), so a tmpfs mapping usually starts inside a 64 KiB block,
 * as it does on the real kernel, and identically in every run.
 *
 * find_vma() itself, with the VMA cache in front of the tree, is in
 * vmacache.c; here, vmacache_unlinked() is called where 3.15 invalidates
 * the cache: once per munmap (detach_vmas_to_be_unmapped) and for each VMA
 * a merge unlinks (__vma_unlink), never for a split.
 */
#include "internal.h"
#include "huge_mm.h"
#include "memory.h"
#include "mmap.h"
#include "prng.h"
#include "rmap.h"
#include "swap.h"
#include "vmacache.h"

#define MAX_MAP_COUNT MMSIM_MAX_MAP_COUNT /* the kernel's default vm.max_map_count */

/* 64-bit: a 16 TiB mapping has 2^32 pages (a 32-bit count made it 0, and fault-around looped) */
uint64_t vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

uint32_t find_vma_noacct(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr)
{
	uint32_t vma = 0;

	for (uint32_t node = mm->mm_rb; node; node = find_vma_step(sim, node, addr, &vma))
		;
	return vma;
}

static uint32_t vma_new(struct mmsim *sim, uint32_t mmid, uint64_t start, uint64_t end,
			uint64_t pgoff, uint32_t flags, uint32_t file, uint32_t map)
{
	uint32_t id = pool_alloc(sim, POOL_VMA);
	struct vm_area_struct *v;

	if (!id)
		return 0;
	v = vma_ptr(sim, id);
	v->vm_start = start;
	v->vm_end = end;
	v->vm_pgoff = pgoff;
	v->vm_flags = flags;
	v->vm_mm = mmid;
	v->vm_file = file;
	v->map = map;
	v->alive = 1;
	return id;
}

static void vma_remove(struct mmsim *sim, struct mm_struct *mm, uint32_t id)
{
	struct vm_area_struct *v = vma_ptr(sim, id);
	uint64_t start = v->vm_start, end = v->vm_end;
	uint32_t mmid = v->vm_mm;

	vma_rb_erase(sim, mm, id);
	vma_unlink_rmap(sim, id);
	/* a gap opened: get_unmapped_area() must look below its cache again */
	for (int c = 0; c < 2; c++)
		if (start < mm->free_area_cache[c])
			mm->free_area_cache[c] = mm->cached_hole_size[c] = 0;
	pool_free(sim, POOL_VMA, id);
	/* once it is gone (trace.c) */
	trace_mmsim_vma_remove(sim, start, mmid, id, end);
}

/*
 * __split_vma(): [vm_start, addr) stays in vma, the new VMA (returned) gets
 * [addr, vm_end). Splits do not invalidate the VMA cache (rule VC-6).
 */
static uint32_t split_vma(struct mmsim *sim, struct mm_struct *mm, uint32_t id, uint64_t addr)
{
	struct vm_area_struct *v = vma_ptr(sim, id), *n;
	uint32_t nid;

	if (mm->map_count >= MAX_MAP_COUNT)
		return 0;
	split_huge_pmd_address(sim, v, addr); /* vma_adjust_trans_huge() */
	nid = vma_new(sim, v->vm_mm, addr, v->vm_end,
		      v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT), v->vm_flags, v->vm_file,
		      v->map);
	if (!nid)
		return 0;
	v = vma_ptr(sim, id);
	n = vma_ptr(sim, nid);
	n->anon_vma = v->anon_vma;
	v->vm_end = addr;
	vma_link_rmap(sim, nid);
	vma_rb_insert(sim, mm, nid);
	trace_mmsim_vma_split(sim, v->vm_start, v->vm_mm, nid, addr);
	return nid;
}

/* is_mergeable_vma() + is_mergeable_anon_vma(), for a followed by b */
static bool can_merge(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return a->vm_end == b->vm_start && a->vm_flags == b->vm_flags && a->vm_file == b->vm_file &&
	       a->vm_pgoff + ((a->vm_end - a->vm_start) >> PAGE_SHIFT) == b->vm_pgoff &&
	       (!a->anon_vma || !b->anon_vma || a->anon_vma == b->anon_vma);
}

/*
 * a absorbs its successor b (vma_merge: b is unlinked and the cache
 * invalidated). unlinked false: b is the VMA mmap is creating, which the
 * kernel never allocates when it merges (vma_merge expands prev before
 * any new VMA exists), so nothing was unlinked and no lookup can hold it.
 */
static void merge_next(struct mmsim *sim, struct mm_struct *mm, uint32_t a, uint32_t b,
		       bool unlinked)
{
	struct vm_area_struct *va = vma_ptr(sim, a), *vb = vma_ptr(sim, b);
	uint64_t end = vb->vm_end;

	vma_unlink_rmap(sim, b);
	if (!va->anon_vma && vb->anon_vma) {
		va->anon_vma = vb->anon_vma;
		vma_link_anon(sim, a);
	}
	vma_rb_erase(sim, mm, b);
	if (unlinked)
		vmacache_unlinked(sim, va->vm_mm, b, a);
	pool_free(sim, POOL_VMA, b);
	va = vma_ptr(sim, a);
	va->vm_end = end;
	trace_mmsim_vma_merge(sim, va->vm_start, va->vm_mm, a, end);
}

/*
 * merge id with its neighbours where the rules allow; returns the surviving
 * id. fresh: id is the VMA mmap just made, and vma_merge's cases apply as
 * the kernel runs them before allocating one: prev expands over it (no
 * unlink), or next expands down over it (next survives, no unlink), or
 * prev expands over both and next is unlinked.
 */
static uint32_t vma_try_merge(struct mmsim *sim, struct mm_struct *mm, uint32_t id, bool fresh)
{
	struct vm_area_struct *v = vma_ptr(sim, id);
	uint32_t prev = v->vm_prev, next = v->vm_next;
	bool with_prev = prev && can_merge(vma_ptr(sim, prev), v);
	bool with_next = next && can_merge(v, vma_ptr(sim, next));

	/*
	 * vma_merge(): prev and next may each merge with the new range, but all
	 * three only if their anon_vmas may be one (is_mergeable_anon_vma(prev,
	 * next)); otherwise prev alone expands (cases 2, 5, 7). Merging all three
	 * would leave next's pages under an anon_vma rmap no longer reaches.
	 */
	if (fresh && with_prev && with_next) {
		const struct vm_area_struct *p = vma_ptr(sim, prev), *n = vma_ptr(sim, next);

		if (p->anon_vma && n->anon_vma && p->anon_vma != n->anon_vma)
			with_next = false;
	}
	if (fresh && with_next && !with_prev) {
		/* vma_adjust(next, addr, ...): next grows down, keeping its identity */
		struct vm_area_struct *n = vma_ptr(sim, next);
		uint64_t start = v->vm_start, pgoff = v->vm_pgoff;

		vma_unlink_rmap(sim, id);
		if (!n->anon_vma && v->anon_vma) {
			n->anon_vma = v->anon_vma;
			vma_link_anon(sim, next);
		}
		vma_rb_erase(sim, mm, id);
		pool_free(sim, POOL_VMA, id);
		vma_rb_erase(sim, mm, next);
		n = vma_ptr(sim, next);
		n->vm_start = start;
		n->vm_pgoff = pgoff;
		vma_rb_insert(sim, mm, next);
		n = vma_ptr(sim, next);
		trace_mmsim_vma_merge(sim, n->vm_start, n->vm_mm, next, n->vm_end);
		return next;
	}
	if (with_prev && with_next && fresh) {
		merge_next(sim, mm, prev, id, false);
		merge_next(sim, mm, prev, next, true);
		return prev;
	}
	if (with_next)
		merge_next(sim, mm, id, next, true);
	if (prev && can_merge(vma_ptr(sim, prev), vma_ptr(sim, id))) {
		merge_next(sim, mm, prev, id, !fresh);
		id = prev;
	}
	return id;
}

/*
 * Bottom-up from base, first fit, aligned to align: the lowest aligned
 * address at or above base where len fits below TASK_SIZE. *hole gets the
 * largest usable (aligned) gap passed over. Starts at find_vma(base), so
 * the walk covers only the VMAs above base.
 */
static uint64_t first_fit(struct mmsim *sim, struct mm_struct *mm, uint64_t base, uint64_t len,
			  uint64_t align, uint64_t *hole)
{
	uint64_t addr = ALIGN_UP(base, align);

	for (uint32_t id = find_vma_noacct(sim, mm, addr); id; id = vma_ptr(sim, id)->vm_next) {
		const struct vm_area_struct *v = vma_ptr(sim, id);

		if (addr + len <= v->vm_start)
			break;
		if (v->vm_start > addr)
			*hole = MAX(*hole, v->vm_start - addr);
		addr = ALIGN_UP(v->vm_end, align);
	}
	if (addr + len > TASK_SIZE || addr + len < addr)
		return 0;
	return addr;
}

/*
 * get_unmapped_area(): bottom-up from mm->mmap_base, first fit, aligned to
 * align. The search resumes where the last one ended (free_area_cache)
 * unless a gap below it could hold len (cached_hole_size), as the kernel's
 * legacy allocator did before 3.8's gap-augmented rbtree; vma_remove()
 * resets the cache when a gap opens below it. Either way the result is the
 * first fit, so 60,000 mmaps cost 60,000 short searches, not 1.8 billion
 * steps. When nothing fits above mmap_base (a 1 TiB file), the search
 * falls back to TASK_UNMAPPED_BASE (a third of user space), as the kernel's
 * top-down allocator falls back to the bottom-up one.
 */
static uint64_t get_unmapped_area(struct mmsim *sim, struct mm_struct *mm, uint64_t len,
				  uint64_t align)
{
	int c = align == PMD_SIZE;
	uint64_t base = mm->mmap_base, hole = 0, addr;

	if (mm->free_area_cache[c] && len > mm->cached_hole_size[c]) {
		base = mm->free_area_cache[c];
		hole = mm->cached_hole_size[c];
	}
	addr = first_fit(sim, mm, base, len, align, &hole);
	if (addr) {
		mm->free_area_cache[c] = addr + len;
		mm->cached_hole_size[c] = hole;
		return addr;
	}
	hole = 0;
	return first_fit(sim, mm, TASK_UNMAPPED_BASE, len, align, &hole);
}

/* ------------------------------------------------------------- map names */

static uint32_t maprec_prio(uint32_t id)
{
	uint32_t h = id * 0x9e3779b1u;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	return h;
}

/* the treap's order: by name (unique in a process), or by (start, id) */
static bool maprec_before(const struct mmsim *sim, int t, uint32_t a, uint64_t k1, uint32_t k2)
{
	const struct maprec *m = maprec_ptr(sim, a);

	if (t == MAPREC_BY_NAME)
		return m->name < k1;
	return m->start < k1 || (m->start == k1 && a < k2);
}

/* split the treap at r into the nodes before key (*l) and the others (*g) */
static void maprec_split(struct mmsim *sim, int t, uint32_t r, uint64_t k1, uint32_t k2,
			 uint32_t *l, uint32_t *g)
{
	if (!r) {
		*l = *g = 0;
		return;
	}
	if (maprec_before(sim, t, r, k1, k2)) {
		*l = r;
		maprec_split(sim, t, maprec_ptr(sim, r)->link[t][1], k1, k2,
			     &maprec_ptr(sim, r)->link[t][1], g);
	} else {
		*g = r;
		maprec_split(sim, t, maprec_ptr(sim, r)->link[t][0], k1, k2, l,
			     &maprec_ptr(sim, r)->link[t][0]);
	}
}

static uint32_t maprec_merge(struct mmsim *sim, int t, uint32_t a, uint32_t b)
{
	if (!a || !b)
		return a ? a : b;
	if (maprec_ptr(sim, a)->prio > maprec_ptr(sim, b)->prio) {
		uint32_t *right = &maprec_ptr(sim, a)->link[t][1];

		*right = maprec_merge(sim, t, *right, b);
		return a;
	} else {
		uint32_t *left = &maprec_ptr(sim, b)->link[t][0];

		*left = maprec_merge(sim, t, a, *left);
		return b;
	}
}

static uint64_t maprec_k1(const struct mmsim *sim, int t, uint32_t r)
{
	return t == MAPREC_BY_NAME ? maprec_ptr(sim, r)->name : maprec_ptr(sim, r)->start;
}

static void maprec_insert(struct mmsim *sim, int t, uint32_t *root, uint32_t r)
{
	uint32_t a, b;

	maprec_split(sim, t, *root, maprec_k1(sim, t, r), r, &a, &b);
	*root = maprec_merge(sim, t, maprec_merge(sim, t, a, r), b);
}

static void maprec_erase(struct mmsim *sim, int t, uint32_t *root, uint32_t r)
{
	uint64_t k1 = maprec_k1(sim, t, r);
	uint32_t a, b, m, c;

	maprec_split(sim, t, *root, k1, r, &a, &b);
	maprec_split(sim, t, b, t == MAPREC_BY_NAME ? k1 + 1 : k1, r + 1, &m, &c);
	maprec_ptr(sim, r)->link[t][0] = maprec_ptr(sim, r)->link[t][1] = 0;
	*root = maprec_merge(sim, t, a, c);
}

const struct maprec *maprec_find(const struct mmsim *sim, uint32_t mm, uint32_t name)
{
	uint32_t r = mm_ptr(sim, mm)->maps[MAPREC_BY_NAME];

	while (r) {
		const struct maprec *m = maprec_ptr(sim, r);

		if (m->name == name)
			return m;
		r = m->link[MAPREC_BY_NAME][m->name < name];
	}
	return NULL;
}

static int maprec_add(struct mmsim *sim, uint32_t mmid, uint32_t name, uint64_t start, uint64_t len,
		      uint32_t file, uint64_t pgoff)
{
	uint32_t r = pool_alloc(sim, POOL_MAPREC);
	struct maprec *m;
	struct mm_struct *mm = mm_ptr(sim, mmid);

	if (!r)
		return MMSIM_ENOMEM;
	m = maprec_ptr(sim, r);
	m->mm = mmid;
	m->name = name;
	m->start = start;
	m->len = len;
	m->file = file;
	m->pgoff = pgoff;
	m->prio = maprec_prio(r);
	maprec_insert(sim, MAPREC_BY_NAME, &mm->maps[MAPREC_BY_NAME], r);
	maprec_insert(sim, MAPREC_BY_START, &mm->maps[MAPREC_BY_START], r);
	return 0;
}

/* in the start-ordered subtree r, drop the names whose range ends by end; returns the new subtree */
static uint32_t maprec_prune(struct mmsim *sim, struct mm_struct *mm, uint32_t r, uint64_t end)
{
	struct maprec *m;
	uint32_t l, g;

	if (!r)
		return 0;
	m = maprec_ptr(sim, r);
	l = maprec_prune(sim, mm, m->link[MAPREC_BY_START][0], end);
	g = maprec_prune(sim, mm, m->link[MAPREC_BY_START][1], end);
	m = maprec_ptr(sim, r);
	if (m->start + m->len <= end) {
		maprec_erase(sim, MAPREC_BY_NAME, &mm->maps[MAPREC_BY_NAME], r);
		pool_free(sim, POOL_MAPREC, r);
		return maprec_merge(sim, MAPREC_BY_START, l, g);
	}
	m->link[MAPREC_BY_START][0] = l;
	m->link[MAPREC_BY_START][1] = g;
	return r;
}

/* drop the names whose whole range lies inside [start, end) */
static void maprec_unmap(struct mmsim *sim, uint32_t mmid, uint64_t start, uint64_t end)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);
	uint32_t a, b, m, c;

	maprec_split(sim, MAPREC_BY_START, mm->maps[MAPREC_BY_START], start, 0, &a, &b);
	maprec_split(sim, MAPREC_BY_START, b, end, 0, &m, &c);
	m = maprec_prune(sim, mm, m, end);
	mm->maps[MAPREC_BY_START] =
		maprec_merge(sim, MAPREC_BY_START, a, maprec_merge(sim, MAPREC_BY_START, m, c));
}

/* copy the names of the subtree r (a parent's) to the process child, in address order */
static int maprec_each(struct mmsim *sim, uint32_t r, uint32_t child)
{
	struct maprec m;
	int err;

	if (!r)
		return 0;
	m = *maprec_ptr(sim, r);
	err = maprec_each(sim, m.link[MAPREC_BY_START][0], child);
	if (!err)
		err = maprec_add(sim, child, m.name, m.start, m.len, m.file, m.pgoff);
	if (!err)
		err = maprec_each(sim, m.link[MAPREC_BY_START][1], child);
	return err;
}

/* find_vma_links()'s question: does any VMA overlap [addr, addr + len)? */
static bool span_overlaps(const struct mmsim *sim, const struct mm_struct *mm, uint64_t addr,
			  uint64_t len)
{
	uint32_t id = find_vma_noacct(sim, mm, addr);

	return id && vma_ptr(sim, id)->vm_start < addr + len;
}

/*
 * do_mmap() + mmap_region(): map [offset, offset + len) of file (file id + 1,
 * 0 anonymous) into mm, at addr if MAP_FIXED. map is the scenario's name for
 * the range (the caller has checked that the process does not use it yet).
 */
int do_mmap(struct mmsim *sim, uint32_t mmid, uint32_t file, uint64_t addr, uint64_t len,
	    uint32_t prot, uint32_t flags, uint64_t offset, uint32_t map)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);
	uint32_t vm_flags = MMSIM_VM_READ | MMSIM_VM_MAYREAD | MMSIM_VM_MAYWRITE;
	uint64_t pgoff;
	uint32_t id;
	int err;

	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len)
		return sim_error(sim, MMSIM_EINVAL, 0, 0);
	if (prot & PROT_WRITE)
		vm_flags |= MMSIM_VM_WRITE;
	if (flags & MAP_SHARED) {
		if (!file)
			return sim_error(sim, MMSIM_ENOTIMPL, 0, 1); /* shared anonymous = shmem */
		vm_flags |= MMSIM_VM_SHARED | MMSIM_VM_MAYSHARE;
	}
	/*
	 * do_mmap(): "Too many mappings?" is map_count > max_map_count, so a
	 * process reaches max_map_count + 1 VMAs (65,531 on this machine's
	 * kernel, counted in /proc/self/maps); a split refuses at >= (split_vma).
	 */
	if (mm->map_count > MAX_MAP_COUNT)
		return sim_error(sim, MMSIM_ELIMIT, 0, MAX_MAP_COUNT);
	if (flags & MAP_FIXED) {
		if (addr + len > TASK_SIZE || addr + len < addr)
			return sim_error(sim, MMSIM_EINVAL, addr, len);
		/*
		 * MAP_FIXED replaces whatever was mapped there. 3.15's
		 * mmap_region() asks find_vma_links() (a plain tree walk, not
		 * find_vma, so not counted) whether anything overlaps, and only
		 * then calls do_munmap() - whose find_vma() calls are counted and
		 * whose detach invalidates the VMA cache. get_unmapped_area()
		 * returns a MAP_FIXED address without looking (no find_vma).
		 */
		if (span_overlaps(sim, mm, addr, len)) {
			err = do_munmap(sim, mm, addr, len);
			if (err)
				return err;
		}
	} else {
		bool tmpfs = file && shmem_file(file_ptr(sim, file - 1));

		addr = get_unmapped_area(sim, mm, len, tmpfs ? PAGE_SIZE : PMD_SIZE);
		if (!addr)
			return sim_error(sim, MMSIM_ELIMIT, 0, len);
	}
	pgoff = file ? offset >> PAGE_SHIFT : addr >> PAGE_SHIFT;
	id = vma_new(sim, mmid, addr, addr + len, pgoff, vm_flags, file, map);
	if (!id)
		return sim_error(sim, MMSIM_ENOMEM, 0, 0);
	vma_link_rmap(sim, id);
	vma_rb_insert(sim, mm, id);
	trace_mmsim_vma_add(sim, addr, mmid, id, (addr + len));
	vma_try_merge(sim, mm, id, true);
	err = maprec_add(sim, mmid, map, addr, len, file, pgoff);
	if (err)
		return sim_error(sim, err, 0, 0);
	return 0;
}

/*
 * do_munmap() as 3.15 runs it: find_vma(start) (through the cache, by the
 * current task), split at start, find_vma(end) and split there, then
 * detach the VMAs (the cache invalidated once: "Kill the cache"), zap,
 * free page tables.
 */
int do_munmap(struct mmsim *sim, struct mm_struct *mm, uint64_t start, uint64_t len)
{
	uint64_t end = start + len, cleared = 0;
	uint32_t id = find_vma(sim, sim->s.cur_task, start), mmid, last;

	if (!id || vma_ptr(sim, id)->vm_start >= end)
		return 0;
	mmid = vma_ptr(sim, id)->vm_mm;
	if (vma_ptr(sim, id)->vm_start < start) {
		id = split_vma(sim, mm, id, start);
		if (!id)
			return sim_error(sim, MMSIM_ELIMIT, start, MAX_MAP_COUNT);
	}
	/* "Does it split the last one?" */
	last = find_vma(sim, sim->s.cur_task, end);
	if (last && end > vma_ptr(sim, last)->vm_start && !split_vma(sim, mm, last, end))
		return sim_error(sim, MMSIM_ELIMIT, end, MAX_MAP_COUNT);
	/* detach_vmas_to_be_unmapped(): the cache goes before anything is freed */
	vmacache_unlinked(sim, mmid, 0, 0);
	if (sim->s.hdr.unmap_drain == MMSIM_UNMAP_DRAIN_BEFORE)
		lru_add_drain(sim); /* unmap_region() */
	while (id && vma_ptr(sim, id)->vm_start < end) {
		struct vm_area_struct *v = vma_ptr(sim, id);
		uint32_t next = v->vm_next;

		cleared += zap_page_range(sim, v, v->vm_start, v->vm_end, NULL);
		vma_remove(sim, mm, id);
		id = next;
	}
	/*
	 * 6.12+ (vms_clear_ptes(), no drain before the zap): tlb_finish_mmu() frees
	 * the gathered pages through free_pages_and_swap_cache(), which drains this
	 * CPU's batches first: a folio queued while it was mapped is moved now that
	 * it is not
	 */
	if (cleared && sim->s.hdr.unmap_drain == MMSIM_UNMAP_DRAIN_AFTER)
		lru_add_drain(sim);
	free_pgtables(sim, mm, start, end);
	maprec_unmap(sim, mmid, start, end);
	return 0;
}

/* madvise(): dontneed zaps; the others change vm_flags (split, set, merge) */
int do_madvise(struct mmsim *sim, uint32_t mmid, uint64_t start, uint64_t len, uint32_t advice)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);
	uint64_t end = start + len;
	/* sys_madvise(): find_vma_prev(), which is find_vma() (through the cache) */
	uint32_t id = find_vma(sim, sim->s.cur_task, start);
	uint32_t set = 0, clear = 0;

	switch (advice) {
	case MMSIM_ADV_HUGEPAGE:
		set = MMSIM_VM_HUGEPAGE;
		clear = MMSIM_VM_NOHUGEPAGE;
		break;
	case MMSIM_ADV_NOHUGEPAGE:
		set = MMSIM_VM_NOHUGEPAGE;
		clear = MMSIM_VM_HUGEPAGE;
		break;
	case MMSIM_ADV_RANDOM:
		set = MMSIM_VM_RAND_READ;
		clear = MMSIM_VM_SEQ_READ;
		break;
	case MMSIM_ADV_SEQUENTIAL:
		set = MMSIM_VM_SEQ_READ;
		clear = MMSIM_VM_RAND_READ;
		break;
	case MMSIM_ADV_DONTNEED:
		lru_add_drain(sim); /* zap_page_range() */
		for (; id && vma_ptr(sim, id)->vm_start < end; id = vma_ptr(sim, id)->vm_next) {
			struct vm_area_struct *v = vma_ptr(sim, id);

			zap_page_range(sim, v, MAX(start, v->vm_start), MIN(end, v->vm_end), NULL);
		}
		return 0;
	default:
		return sim_error(sim, MMSIM_EINVAL, 0, advice);
	}
	while (id && vma_ptr(sim, id)->vm_start < end) {
		struct vm_area_struct *v = vma_ptr(sim, id);
		uint32_t flags = (v->vm_flags & ~clear) | set;

		if (flags == v->vm_flags) {
			id = v->vm_next;
			continue;
		}
		if (v->vm_start < start) {
			id = split_vma(sim, mm, id, start);
			if (!id)
				return sim_error(sim, MMSIM_ELIMIT, start, MAX_MAP_COUNT);
			v = vma_ptr(sim, id);
		}
		if (v->vm_end > end && !split_vma(sim, mm, id, end))
			return sim_error(sim, MMSIM_ELIMIT, end, MAX_MAP_COUNT);
		v = vma_ptr(sim, id);
		v->vm_flags = flags;
		trace_mmsim_vma_flags(sim, v->vm_start, v->vm_mm, id, flags);
		id = vma_try_merge(sim, mm, id, false);
		id = vma_ptr(sim, id)->vm_next;
	}
	return 0;
}

int mm_init_one(struct mmsim *sim, uint32_t mmid)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);

	mm->alive = 1;
	mm->exited = 0;
	/* arch_pick_mmap_layout(): the base less a random page offset (ASLR) */
	mm->mmap_base =
		MMAP_BASE -
		(1 + random_index(sim->s.hdr.seed ^ 0x6d6d61705f726e64ull, mmid, 511)) * PAGE_SIZE;
	mm_flush_walk_cache(mm);
	return pgd_alloc(sim, mm);
}

/* dup_mm() / dup_mmap(): the child gets copies of the VMAs, names and (some) PTEs */
int dup_mm(struct mmsim *sim, uint32_t parent, uint32_t child)
{
	struct mm_struct *pmm = mm_ptr(sim, parent), *cmm;
	int err = mm_init_one(sim, child);

	if (err)
		return err;
	cmm = mm_ptr(sim, child);
	cmm->vmacache_seqnum = 0; /* VC-7: dup_mmap() */
	cmm->mmap_cache = 0;
	cmm->mmap_base = pmm->mmap_base; /* the child keeps the parent's layout */
	for (uint32_t id = pmm->mmap; id; id = vma_ptr(sim, id)->vm_next) {
		struct vm_area_struct *v = vma_ptr(sim, id);
		uint32_t nid = vma_new(sim, child, v->vm_start, v->vm_end, v->vm_pgoff, v->vm_flags,
				       v->vm_file, v->map);

		if (!nid)
			return MMSIM_ENOMEM;
		v = vma_ptr(sim, id);
		vma_link_rmap(sim, nid);
		if (v->anon_vma && !anon_vma_fork(sim, v->anon_vma, nid))
			return MMSIM_ENOMEM;
		vma_rb_insert(sim, cmm, nid);
		err = copy_page_range(sim, vma_ptr(sim, nid), v);
		if (err)
			return err;
	}
	return maprec_each(sim, pmm->maps[MAPREC_BY_START], child);
}

/* exit_mmap(): unmap everything, free every page table and the PGD */
void exit_mmap(struct mmsim *sim, uint32_t mmid)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);
	uint32_t id = mm->mmap;

	lru_add_drain(sim);
	while (id) {
		struct vm_area_struct *v = vma_ptr(sim, id);
		uint32_t next = v->vm_next;

		zap_page_range(sim, v, v->vm_start, v->vm_end, NULL);
		vma_remove(sim, mm, id);
		id = next;
	}
	free_pgtables(sim, mm, 0, TASK_SIZE);
	pgd_free(sim, mm);
	maprec_unmap(sim, mmid, 0, UINT64_MAX);
	mm->alive = 0;
	mm->exited = 1;
}

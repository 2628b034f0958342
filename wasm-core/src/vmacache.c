/*
 * vmacache.c - the cache in front of find_vma(): 3.15's per-thread VMA
 * cache (Davidlohr Bueso) and, for comparison, 3.14's single
 * mm->mmap_cache.
 *
 * find_vma(mm, addr) returns the first VMA with vm_end > addr (it may not
 * contain addr). Every page fault calls it, as do munmap (and a MAP_FIXED
 * mmap over a mapping, through do_munmap) and madvise, so a tree walk per
 * call is the thing to avoid.
 *
 * Up to 3.14 one pointer per address space, mm->mmap_cache, remembered the
 * last VMA found (docs/kernel.md, "The VMA cache"): a hit iff it contains
 * addr; on a miss the rb-tree walk's result replaces it, even when that VMA
 * does not contain addr. Threads of one process share the pointer, so
 * threads working in different VMAs evict each other's entry on every
 * lookup: the seed's ebizzy run hit 1.06% of the time.
 *
 * 3.15 moved the cache into the task: four slots per thread
 * (VMACACHE_SIZE), written at slot VMACACHE_HASH(addr) = page number & 3 and
 * searched in order 0..3 (VC-3, VC-4). Nothing tracks which slot holds what;
 * instead a sequence number says whether any of them may still be trusted:
 * the mm's vmacache_seqnum is bumped whenever a VMA leaves the tree
 * (vmacache_invalidate(): every munmap, and a merge that unlinks a VMA;
 * not a split, since the cached pointers stay valid and lookups test the
 * live vm_start/vm_end), and a thread whose own copy differs flushes its
 * four slots on its next lookup (VC-2), which is then a miss. The count
 * is 32 bits; when it wraps to 0, vmacache_flush_all() clears the slots
 * of every thread of that mm, since a thread last seen 2^32 bumps ago
 * would otherwise trust stale pointers (VC-6).
 *
 * What the model leaves out, and why: VC-1 (current->mm == mm, not a
 * kernel thread) always holds, since every lookup here is made by a task of
 * that mm for itself (there is no GUP on a foreign mm, ptrace or aio); and
 * the cache stores VMA ids, which are reused after a free like the kernel's
 * slab reuses vm_area_structs, so an id in a slot is trusted exactly when
 * the kernel would trust the pointer.
 *
 * Counting (vmacache_find_calls and _hits, global and per task): the >= 4.9
 * placement, calls on every lookup, before the validity check, and hits
 * when a slot answered (3.16 counted calls only after the check); 3.14 had
 * no such counters, and the mm-wide mode counts the same way, so the two
 * compare. vmacache_full_flushes counts vmacache_flush_all() calls.
 *
 * Events: mmsim_vmacache_find for each lookup, then on a miss one
 * mmsim_find_vma_walk per VMA the rb-tree walk visits and
 * mmsim_vmacache_update when it found one; mmsim_vmacache_invalidate and
 * mmsim_vmacache_flush_all as the cache is invalidated.
 */
#include "internal.h"
#include "vmacache.h"

#define VMACACHE_HASH(addr) ((uint32_t)((addr) >> PAGE_SHIFT) & (VMACACHE_SIZE - 1))

static bool mm_wide(const struct mmsim *sim)
{
	return sim->s.hdr.vmacache == MMSIM_VMACACHE_MM_WIDE;
}

/* vmacache: off, no cache at all: every lookup misses and walks (the baseline the letter's gains are against) */
static bool no_cache(const struct mmsim *sim)
{
	return sim->s.hdr.vmacache == MMSIM_VMACACHE_OFF;
}

static bool vma_contains(const struct mmsim *sim, uint32_t id, uint64_t addr)
{
	const struct vm_area_struct *v = vma_ptr(sim, id);

	return v->vm_start <= addr && addr < v->vm_end;
}

/* vmacache_flush(): the task's four slots emptied (its seqnum stays) */
static void vmacache_flush(struct task_struct *t)
{
	for (int i = 0; i < VMACACHE_SIZE; i++)
		t->vmacache[i] = 0;
}

/* VC-2 vmacache_valid(): a task whose seqnum is behind flushes its slots, and this lookup misses */
static bool vmacache_valid(struct task_struct *t, const struct mm_struct *mm)
{
	if (mm->vmacache_seqnum != t->vmacache_seqnum) {
		t->vmacache_seqnum = mm->vmacache_seqnum;
		vmacache_flush(t);
		return false;
	}
	return true;
}

/* the rb-tree walk (the kernel's loop in find_vma), each VMA visited an event */
static uint32_t find_vma_rb(struct mmsim *sim, const struct mm_struct *mm, uint32_t mmid,
			    uint64_t addr)
{
	uint32_t node = mm->mm_rb, vma = 0, depth = 0;

	while (node) {
		trace_mmsim_find_vma_walk(sim, addr, node, depth++,
					  vma_ptr(sim, node)->vm_end > addr, mmid);
		node = find_vma_step(sim, node, addr, &vma);
	}
	count_vm_events(sim, MMSIM_MODEL_FIND_VMA_NODES, depth);
	return vma;
}

/*
 * A lookup the cache answered: counted (hits), checked under debug_vm (a
 * hit is what the tree would have answered: CONFIG_DEBUG_VM_VMACACHE's
 * spirit), traced.
 */
static inline __attribute__((always_inline)) uint32_t
vmacache_hit(struct mmsim *sim, struct task_struct *t, const struct mm_struct *mm, uint32_t vma,
	     uint32_t slot, uint64_t addr)
{
	if (unlikely(sim->debug_vm) && vma != find_vma_noacct(sim, mm, addr))
		sim_error(sim, MMSIM_EINVARIANT, addr, vma);
	count_vm_event(sim, MMSIM_VMACACHE_FIND_HITS);
	t->counters[MMSIM_T_VMACACHE_FIND_HITS]++;
	trace_mmsim_vmacache_find(sim, addr, vma, slot, 0, t->mm);
	return vma;
}

/*
 * Everything but a per-thread hit (out of line, so that the fault path's
 * find_vma() stays a few instructions): 3.14's mm->mmap_cache, VC-2's
 * flush on a seqnum mismatch, and a miss: the tree walk and the update.
 */
static __attribute__((noinline)) uint32_t find_vma_slow(struct mmsim *sim, struct task_struct *t,
							struct mm_struct *mm, uint64_t addr)
{
	uint32_t mmid = t->mm, vma, slot, why = 1, old;

	if (mm_wide(sim)) {
		if (mm->mmap_cache && vma_contains(sim, mm->mmap_cache, addr))
			return vmacache_hit(sim, t, mm, mm->mmap_cache, 0, addr);
	} else if (!no_cache(sim) && !vmacache_valid(t, mm)) {
		why = 2;
	}
	trace_mmsim_vmacache_find(sim, addr, 0, MMSIM_NONE, why, mmid);
	vma = find_vma_rb(sim, mm, mmid, addr);
	if (!vma || no_cache(sim))
		return vma;
	/* VC-4 vmacache_update(), or 3.14's mm->mmap_cache = vma (even if it does not contain addr) */
	if (mm_wide(sim)) {
		slot = 0;
		old = mm->mmap_cache;
		mm->mmap_cache = vma;
	} else {
		slot = VMACACHE_HASH(addr);
		old = t->vmacache[slot];
		t->vmacache[slot] = vma;
	}
	trace_mmsim_vmacache_update(sim, addr, vma, slot, old, mmid);
	return vma;
}

/*
 * find_vma() of 3.15 (VC-5) or 3.14 (VC-0) as task `task` calls it for
 * its own mm: the cache, then on a miss the tree and the cache updated.
 * Every fault runs it: the per-thread hit is the inlined path, the rest
 * find_vma_slow().
 */
uint32_t find_vma(struct mmsim *sim, uint32_t task, uint64_t addr)
{
	struct task_struct *t = task_ptr(sim, task);
	struct mm_struct *mm = mm_ptr(sim, t->mm);

#ifdef MMSIM_BENCH_NO_VMACACHE
	/* npm run bench's baseline (make bench-baseline): no cache, the tree every time, nothing counted */
	return find_vma_noacct(sim, mm, addr);
#endif
	count_vm_event(sim, MMSIM_VMACACHE_FIND_CALLS);
	t->counters[MMSIM_T_VMACACHE_FIND_CALLS]++;
	/* VC-2 (the seqnums agree) and VC-3: every slot, in order; the hash only chose where each was written */
	if (likely(!mm_wide(sim) && mm->vmacache_seqnum == t->vmacache_seqnum))
		for (uint32_t i = 0; i < VMACACHE_SIZE; i++)
			if (t->vmacache[i] && vma_contains(sim, t->vmacache[i], addr))
				return vmacache_hit(sim, t, mm, t->vmacache[i], i, addr);
	return find_vma_slow(sim, t, mm, addr);
}

/* vmacache_flush_all(): every thread of the mm (the model's tasks are all threads there are) */
static void vmacache_flush_all(struct mmsim *sim, uint32_t mmid)
{
	uint32_t n = 0;

	count_vm_event(sim, MMSIM_VMACACHE_FULL_FLUSHES);
	for (uint32_t i = 0; i < sim->s.hdr.nr_tasks; i++) {
		struct task_struct *t = task_ptr(sim, i);

		if (t->alive && t->mm == mmid) {
			vmacache_flush(t);
			n++;
		}
	}
	trace_mmsim_vmacache_flush_all(sim, mmid, n);
}

/*
 * A VMA left the tree: 3.15's vmacache_invalidate() (VC-6), or 3.14's
 * cache maintenance: __vma_unlink() hands the cache to prev when it held
 * the VMA unlinked by a merge (prev: the VMA that absorbed it), and
 * detach_vmas_to_be_unmapped() kills it (prev 0).
 */
void vmacache_unlinked(struct mmsim *sim, uint32_t mmid, uint32_t removed, uint32_t prev)
{
	struct mm_struct *mm = mm_ptr(sim, mmid);

	if (mm_wide(sim)) {
		if (!removed || mm->mmap_cache == removed) {
			mm->mmap_cache = prev;
			trace_mmsim_vmacache_invalidate(sim, mmid, prev, 2);
		}
		return;
	}
	mm->vmacache_seqnum++;
	trace_mmsim_vmacache_invalidate(sim, mmid, mm->vmacache_seqnum, mm->vmacache_seqnum == 0);
	if (unlikely(mm->vmacache_seqnum == 0))
		vmacache_flush_all(sim, mmid);
}

/* VC-7: a new task (fork's copy_mm, or a thread) starts with empty slots; its seqnum is copied from `from` */
void vmacache_task_init(struct mmsim *sim, uint32_t task, uint32_t from)
{
	struct task_struct *t = task_ptr(sim, task);

	t->vmacache_seqnum = from == MMSIM_NONE ? 0 : task_ptr(sim, from)->vmacache_seqnum;
	vmacache_flush(t);
}

/* ------------------------------------------------------------- queries (the view's) */

int mmsim_vmacache_info(const struct mmsim *sim, uint32_t task, struct mmsim_vmacache_info *out)
{
	const struct task_struct *t;
	const struct mm_struct *mm;

	memset(out, 0, sizeof(*out));
	if (task >= sim->s.hdr.nr_tasks)
		return MMSIM_EINVAL;
	t = task_ptr(sim, task);
	mm = mm_ptr(sim, t->mm);
	out->mm = t->mm;
	out->seqnum = t->vmacache_seqnum;
	out->mm_seqnum = mm->vmacache_seqnum;
	out->mmap_cache = mm->mmap_cache;
	for (int i = 0; i < VMACACHE_SIZE; i++)
		out->slot[i] = t->vmacache[i];
	return 0;
}

/*
 * The tree breadth first, down to max_depth: the view draws the top of the
 * tree and a miss's path (mmsim_find_vma_walk), which never goes deeper
 * than the tree's height (2 log2(n + 1) for a red-black tree).
 */
uint32_t mmsim_vma_tree(const struct mmsim *sim, uint32_t mm, uint32_t max_depth,
			struct mmsim_vma_node *out, uint32_t max)
{
	uint32_t n = 0, head = 0;

	if (mm >= sim->s.hdr.nr_procs || !mm_ptr(sim, mm)->alive || !mm_ptr(sim, mm)->mm_rb || !max)
		return 0;
	out[n++] = (struct mmsim_vma_node){ .id = mm_ptr(sim, mm)->mm_rb };
	/* the output array is the queue */
	while (head < n) {
		struct mmsim_vma_node *x = &out[head++];
		const struct vm_area_struct *v = vma_ptr(sim, x->id);
		uint32_t kid[2] = { v->rb_left, v->rb_right };

		x->left = v->rb_left;
		x->right = v->rb_right;
		x->red = v->rb_color == RB_RED;
		for (int k = 0; k < 2; k++)
			if (kid[k] && x->depth < max_depth && n < max)
				out[n++] = (struct mmsim_vma_node){
					.id = kid[k], .depth = (uint16_t)(x->depth + 1)
				};
	}
	return n;
}

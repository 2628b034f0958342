/*
 * rbtree.c - the VMA red-black tree (mm->mm_rb, 3.15-era mm/mmap.c on top of
 * lib/rbtree.c), keyed by vm_start, plus the sorted vm_next/vm_prev list.
 *
 * Nodes are VMA ids; id 0 is the black NIL sentinel (CLRS style), so the
 * fix-ups may write its parent field. The kernel's 3.15 tree is augmented
 * with rb_subtree_gap for get_unmapped_area; the model searches gaps on the
 * list instead.
 */
#include <stdio.h>

#include "internal.h"
#include "mmap.h"

#define V(id) vma_ptr(sim, (id))

static void rotate_left(struct mmsim *sim, struct mm_struct *mm, uint32_t x)
{
	uint32_t y = V(x)->rb_right;

	V(x)->rb_right = V(y)->rb_left;
	if (V(y)->rb_left)
		V(V(y)->rb_left)->rb_parent = x;
	V(y)->rb_parent = V(x)->rb_parent;
	if (!V(x)->rb_parent)
		mm->mm_rb = y;
	else if (x == V(V(x)->rb_parent)->rb_left)
		V(V(x)->rb_parent)->rb_left = y;
	else
		V(V(x)->rb_parent)->rb_right = y;
	V(y)->rb_left = x;
	V(x)->rb_parent = y;
}

static void rotate_right(struct mmsim *sim, struct mm_struct *mm, uint32_t x)
{
	uint32_t y = V(x)->rb_left;

	V(x)->rb_left = V(y)->rb_right;
	if (V(y)->rb_right)
		V(V(y)->rb_right)->rb_parent = x;
	V(y)->rb_parent = V(x)->rb_parent;
	if (!V(x)->rb_parent)
		mm->mm_rb = y;
	else if (x == V(V(x)->rb_parent)->rb_right)
		V(V(x)->rb_parent)->rb_right = y;
	else
		V(V(x)->rb_parent)->rb_left = y;
	V(y)->rb_right = x;
	V(x)->rb_parent = y;
}

static void insert_fixup(struct mmsim *sim, struct mm_struct *mm, uint32_t z)
{
	while (V(V(z)->rb_parent)->rb_color == RB_RED) {
		uint32_t p = V(z)->rb_parent, g = V(p)->rb_parent;

		if (p == V(g)->rb_left) {
			uint32_t y = V(g)->rb_right;

			if (V(y)->rb_color == RB_RED) {
				V(p)->rb_color = RB_BLACK;
				V(y)->rb_color = RB_BLACK;
				V(g)->rb_color = RB_RED;
				z = g;
			} else {
				if (z == V(p)->rb_right) {
					z = p;
					rotate_left(sim, mm, z);
					p = V(z)->rb_parent;
					g = V(p)->rb_parent;
				}
				V(p)->rb_color = RB_BLACK;
				V(g)->rb_color = RB_RED;
				rotate_right(sim, mm, g);
			}
		} else {
			uint32_t y = V(g)->rb_left;

			if (V(y)->rb_color == RB_RED) {
				V(p)->rb_color = RB_BLACK;
				V(y)->rb_color = RB_BLACK;
				V(g)->rb_color = RB_RED;
				z = g;
			} else {
				if (z == V(p)->rb_left) {
					z = p;
					rotate_right(sim, mm, z);
					p = V(z)->rb_parent;
					g = V(p)->rb_parent;
				}
				V(p)->rb_color = RB_BLACK;
				V(g)->rb_color = RB_RED;
				rotate_left(sim, mm, g);
			}
		}
	}
	V(mm->mm_rb)->rb_color = RB_BLACK;
	V(0)->rb_color = RB_BLACK;
}

/* insert into the tree and the sorted list (__vma_link) */
void vma_rb_insert(struct mmsim *sim, struct mm_struct *mm, uint32_t z)
{
	uint32_t y = 0, x = mm->mm_rb, prev = 0, next;
	uint64_t key = V(z)->vm_start;

	while (x) {
		y = x;
		if (key < V(x)->vm_start) {
			x = V(x)->rb_left;
		} else {
			prev = x;
			x = V(x)->rb_right;
		}
	}
	V(z)->rb_parent = y;
	if (!y)
		mm->mm_rb = z;
	else if (key < V(y)->vm_start)
		V(y)->rb_left = z;
	else
		V(y)->rb_right = z;
	V(z)->rb_left = V(z)->rb_right = 0;
	V(z)->rb_color = RB_RED;
	insert_fixup(sim, mm, z);

	next = prev ? V(prev)->vm_next : mm->mmap;
	V(z)->vm_prev = prev;
	V(z)->vm_next = next;
	if (prev)
		V(prev)->vm_next = z;
	else
		mm->mmap = z;
	if (next)
		V(next)->vm_prev = z;
	mm->map_count++;
}

static void transplant(struct mmsim *sim, struct mm_struct *mm, uint32_t u, uint32_t v)
{
	uint32_t up = V(u)->rb_parent;

	if (!up)
		mm->mm_rb = v;
	else if (u == V(up)->rb_left)
		V(up)->rb_left = v;
	else
		V(up)->rb_right = v;
	V(v)->rb_parent = up; /* may write the NIL sentinel's parent, on purpose */
}

static void erase_fixup(struct mmsim *sim, struct mm_struct *mm, uint32_t x)
{
	while (x != mm->mm_rb && V(x)->rb_color == RB_BLACK) {
		uint32_t p = V(x)->rb_parent;

		if (x == V(p)->rb_left) {
			uint32_t w = V(p)->rb_right;

			if (V(w)->rb_color == RB_RED) {
				V(w)->rb_color = RB_BLACK;
				V(p)->rb_color = RB_RED;
				rotate_left(sim, mm, p);
				w = V(p)->rb_right;
			}
			if (V(V(w)->rb_left)->rb_color == RB_BLACK &&
			    V(V(w)->rb_right)->rb_color == RB_BLACK) {
				V(w)->rb_color = RB_RED;
				x = p;
			} else {
				if (V(V(w)->rb_right)->rb_color == RB_BLACK) {
					V(V(w)->rb_left)->rb_color = RB_BLACK;
					V(w)->rb_color = RB_RED;
					rotate_right(sim, mm, w);
					w = V(p)->rb_right;
				}
				V(w)->rb_color = V(p)->rb_color;
				V(p)->rb_color = RB_BLACK;
				V(V(w)->rb_right)->rb_color = RB_BLACK;
				rotate_left(sim, mm, p);
				x = mm->mm_rb;
			}
		} else {
			uint32_t w = V(p)->rb_left;

			if (V(w)->rb_color == RB_RED) {
				V(w)->rb_color = RB_BLACK;
				V(p)->rb_color = RB_RED;
				rotate_right(sim, mm, p);
				w = V(p)->rb_left;
			}
			if (V(V(w)->rb_right)->rb_color == RB_BLACK &&
			    V(V(w)->rb_left)->rb_color == RB_BLACK) {
				V(w)->rb_color = RB_RED;
				x = p;
			} else {
				if (V(V(w)->rb_left)->rb_color == RB_BLACK) {
					V(V(w)->rb_right)->rb_color = RB_BLACK;
					V(w)->rb_color = RB_RED;
					rotate_left(sim, mm, w);
					w = V(p)->rb_left;
				}
				V(w)->rb_color = V(p)->rb_color;
				V(p)->rb_color = RB_BLACK;
				V(V(w)->rb_left)->rb_color = RB_BLACK;
				rotate_right(sim, mm, p);
				x = mm->mm_rb;
			}
		}
	}
	V(x)->rb_color = RB_BLACK;
}

/* remove from the tree and the list (__vma_unlink) */
void vma_rb_erase(struct mmsim *sim, struct mm_struct *mm, uint32_t z)
{
	uint32_t y = z, x;
	uint32_t y_color = V(y)->rb_color;

	if (!V(z)->rb_left) {
		x = V(z)->rb_right;
		transplant(sim, mm, z, x);
	} else if (!V(z)->rb_right) {
		x = V(z)->rb_left;
		transplant(sim, mm, z, x);
	} else {
		y = V(z)->rb_right;
		while (V(y)->rb_left)
			y = V(y)->rb_left;
		y_color = V(y)->rb_color;
		x = V(y)->rb_right;
		if (V(y)->rb_parent == z) {
			V(x)->rb_parent = y;
		} else {
			transplant(sim, mm, y, x);
			V(y)->rb_right = V(z)->rb_right;
			V(V(y)->rb_right)->rb_parent = y;
		}
		transplant(sim, mm, z, y);
		V(y)->rb_left = V(z)->rb_left;
		V(V(y)->rb_left)->rb_parent = y;
		V(y)->rb_color = V(z)->rb_color;
	}
	if (y_color == RB_BLACK)
		erase_fixup(sim, mm, x);
	V(0)->rb_parent = 0;
	V(0)->rb_color = RB_BLACK;

	if (V(z)->vm_prev)
		V(V(z)->vm_prev)->vm_next = V(z)->vm_next;
	else
		mm->mmap = V(z)->vm_next;
	if (V(z)->vm_next)
		V(V(z)->vm_next)->vm_prev = V(z)->vm_prev;
	V(z)->rb_parent = V(z)->rb_left = V(z)->rb_right = 0;
	V(z)->vm_next = V(z)->vm_prev = 0;
	mm->map_count--;
}

/* black height of the subtree, or -1 if a rule is broken */
static int check_node(const struct mmsim *sim, uint32_t n, uint64_t lo, uint64_t hi,
		      uint32_t *count)
{
	const struct vm_area_struct *v;
	int lh, rh;

	if (!n)
		return 1;
	v = vma_ptr(sim, n);
	if (v->vm_start < lo || v->vm_start >= hi)
		return -1;
	if (v->rb_left && vma_ptr(sim, v->rb_left)->rb_parent != n)
		return -1;
	if (v->rb_right && vma_ptr(sim, v->rb_right)->rb_parent != n)
		return -1;
	if (v->rb_color == RB_RED &&
	    ((v->rb_left && vma_ptr(sim, v->rb_left)->rb_color == RB_RED) ||
	     (v->rb_right && vma_ptr(sim, v->rb_right)->rb_color == RB_RED)))
		return -1;
	(*count)++;
	lh = check_node(sim, v->rb_left, lo, v->vm_start, count);
	rh = check_node(sim, v->rb_right, v->vm_start + 1, hi, count);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	return lh + (v->rb_color == RB_BLACK);
}

int vma_rb_check(const struct mmsim *sim, const struct mm_struct *mm, char *msg, uint32_t len)
{
	uint32_t count = 0, listed = 0, prev = 0;
	uint64_t end = 0;

	if (mm->mm_rb && vma_ptr(sim, mm->mm_rb)->rb_parent) {
		snprintf(msg, len, "rb root has a parent");
		return -1;
	}
	if (mm->mm_rb && vma_ptr(sim, mm->mm_rb)->rb_color != RB_BLACK) {
		snprintf(msg, len, "rb root is red");
		return -1;
	}
	if (check_node(sim, mm->mm_rb, 0, UINT64_MAX, &count) < 0) {
		snprintf(msg, len, "VMA rb-tree breaks a red-black or ordering rule");
		return -1;
	}
	for (uint32_t id = mm->mmap; id; id = vma_ptr(sim, id)->vm_next) {
		const struct vm_area_struct *v = vma_ptr(sim, id);

		if (v->vm_prev != prev || v->vm_start < end || v->vm_start >= v->vm_end ||
		    (v->vm_start | v->vm_end) & (PAGE_SIZE - 1)) {
			snprintf(msg, len, "VMA list broken at vma %u [%#llx, %#llx)", id,
				 (unsigned long long)v->vm_start, (unsigned long long)v->vm_end);
			return -1;
		}
		prev = id;
		end = v->vm_end;
		if (++listed > count)
			break;
	}
	if (listed != count || count != mm->map_count) {
		snprintf(msg, len, "VMA count mismatch: tree %u, list %u, map_count %u", count,
			 listed, mm->map_count);
		return -1;
	}
	return 0;
}

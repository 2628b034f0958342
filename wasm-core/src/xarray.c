/*
 * xarray.c - the page cache's index (lib/xarray.c, much reduced).
 *
 * A radix tree of 64-slot nodes (XA_CHUNK_SHIFT 6), like the kernel's XArray.
 * Slots hold 32-bit entries: 0 is empty, a folio is its pfn << 1, and a value
 * entry (a workingset shadow, later) is v << 1 | 1, mirroring xa_mk_value().
 * The tree grows in height as larger indices are stored and nodes are freed
 * when they empty. Multi-index entries (large folios) store the head pfn in
 * every slot the folio covers, as the kernel does.
 *
 * One tag, PAGECACHE_TAG_DIRTY (writeback.c sets it with PG_dirty): a bit
 * per leaf slot, and per interior slot a bit saying the subtree holds a
 * tagged entry, so that writeback finds a file's dirty pages without
 * visiting its clean ones (xa_find_tagged).
 */
#include "internal.h"
#include "xarray.h"

static uint64_t xa_max(uint32_t height)
{
	return height >= 11 ? UINT64_MAX : (1ull << (XA_CHUNK_SHIFT * height)) - 1;
}

uint32_t xa_load(const struct mmsim *sim, const struct xarray *xa, uint64_t index)
{
	const struct xa_node *node;

	if (!xa->head || index > xa_max(xa->height))
		return 0;
	node = xa_node(sim, xa->head);
	for (;;) {
		uint32_t e = node->slots[(index >> node->shift) & XA_CHUNK_MASK];

		if (!node->shift || !e)
			return e;
		node = xa_node(sim, e);
	}
}

/* xa_load() for a run of nearby lookups: keeps the last leaf */
uint32_t xa_load_cached(const struct mmsim *sim, struct xarray *xa, uint64_t index)
{
	const struct xa_node *node;

	if (likely(xa->leaf && (index & ~(uint64_t)XA_CHUNK_MASK) == xa->leaf_base))
		return xa_node(sim, xa->leaf)->slots[index & XA_CHUNK_MASK];
	if (!xa->head || index > xa_max(xa->height))
		return 0;
	node = xa_node(sim, xa->head);
	for (uint32_t id = xa->head;;) {
		uint32_t e = node->slots[(index >> node->shift) & XA_CHUNK_MASK];

		if (!node->shift) {
			xa->leaf_base = index & ~(uint64_t)XA_CHUNK_MASK;
			xa->leaf = id;
			return e;
		}
		if (!e)
			return 0;
		id = e;
		node = xa_node(sim, id);
	}
}

static uint32_t xa_alloc_node(struct mmsim *sim, uint32_t shift, uint32_t parent, uint32_t offset)
{
	uint32_t id = pool_alloc(sim, POOL_XA);
	struct xa_node *n;

	if (!id)
		return 0;
	n = xa_node(sim, id);
	n->shift = (uint8_t)shift;
	n->parent = parent;
	n->offset = (uint8_t)offset;
	return id;
}

int xa_store(struct mmsim *sim, struct xarray *xa, uint64_t index, uint32_t entry)
{
	struct xa_node *node;
	uint32_t id, off, old;

	VM_BUG_ON(!entry);
	if (!xa->head) {
		id = xa_alloc_node(sim, 0, 0, 0);
		if (!id)
			return MMSIM_ENOMEM;
		xa->head = id;
		xa->height = 1;
	}
	while (index > xa_max(xa->height)) {
		struct xa_node *old_head;

		id = xa_alloc_node(sim, XA_CHUNK_SHIFT * xa->height, 0, 0);

		if (!id)
			return MMSIM_ENOMEM;
		old_head = xa_node(sim, xa->head);
		old_head->parent = id;
		old_head->offset = 0;
		node = xa_node(sim, id);
		node->slots[0] = xa->head;
		node->count = 1;
		node->tagged = old_head->tagged ? 1 : 0;
		xa->head = id;
		xa->height++;
	}
	id = xa->head;
	node = xa_node(sim, id);
	while (node->shift) {
		uint32_t child;

		off = (index >> node->shift) & XA_CHUNK_MASK;
		child = node->slots[off];
		if (!child) {
			child = xa_alloc_node(sim, node->shift - XA_CHUNK_SHIFT, id, off);
			if (!child)
				return MMSIM_ENOMEM;
			node->slots[off] = child;
			node->count++;
		}
		id = child;
		node = xa_node(sim, id);
	}
	off = index & XA_CHUNK_MASK;
	old = node->slots[off];
	if (!old)
		node->count++;
	else if (xa_is_value(old))
		node->nr_values--;
	if (xa_is_value(entry))
		node->nr_values++;
	node->slots[off] = entry;
	return 0;
}

void xa_erase(struct mmsim *sim, struct xarray *xa, uint64_t index)
{
	struct xa_node *node;
	uint32_t id, off;

	if (!xa->head || index > xa_max(xa->height))
		return;
	id = xa->head;
	node = xa_node(sim, id);
	while (node->shift) {
		id = node->slots[(index >> node->shift) & XA_CHUNK_MASK];
		if (!id)
			return;
		node = xa_node(sim, id);
	}
	off = index & XA_CHUNK_MASK;
	if (!node->slots[off])
		return;
	if (xa_is_value(node->slots[off]))
		node->nr_values--;
	node->slots[off] = 0;
	node->count--;
	/* free emptied nodes bottom-up */
	if (node->count == 0)
		xa->leaf = 0;
	while (node->count == 0) {
		uint32_t parent = node->parent;
		uint32_t poff = node->offset;

		pool_free(sim, POOL_XA, id);
		if (!parent) {
			xa->head = 0;
			xa->height = 0;
			return;
		}
		id = parent;
		node = xa_node(sim, id);
		node->slots[poff] = 0;
		node->count--;
	}
}

/* the leaf holding index, or NULL */
static struct xa_node *xa_leaf_of(const struct mmsim *sim, const struct xarray *xa, uint64_t index)
{
	struct xa_node *node;

	if (!xa->head || index > xa_max(xa->height))
		return NULL;
	node = xa_node(sim, xa->head);
	while (node->shift) {
		uint32_t child = node->slots[(index >> node->shift) & XA_CHUNK_MASK];

		if (!child)
			return NULL;
		node = xa_node(sim, child);
	}
	return node;
}

uint32_t *xa_slot(const struct mmsim *sim, const struct xarray *xa, uint64_t index, uint32_t *run)
{
	struct xa_node *node = xa_leaf_of(sim, xa, index);

	*run = XA_CHUNK_SIZE - (uint32_t)(index & XA_CHUNK_MASK);
	return node ? &node->slots[index & XA_CHUNK_MASK] : NULL;
}

uint32_t *xa_slot_tagged(const struct mmsim *sim, const struct xarray *xa, uint64_t index,
			 uint32_t *run, uint64_t *tags)
{
	struct xa_node *node = xa_leaf_of(sim, xa, index);
	uint32_t off = index & XA_CHUNK_MASK;

	*run = XA_CHUNK_SIZE - off;
	*tags = node ? node->tagged >> off : 0;
	return node ? &node->slots[off] : NULL;
}

void xa_set_tag(struct mmsim *sim, struct xarray *xa, uint64_t index)
{
	struct xa_node *node = xa_leaf_of(sim, xa, index);
	uint32_t off = index & XA_CHUNK_MASK;

	VM_BUG_ON(!node);
	for (;;) {
		bool was = node->tagged != 0;

		node->tagged |= 1ull << off;
		if (was || !node->parent)
			return;
		off = node->offset;
		node = xa_node(sim, node->parent);
	}
}

void xa_clear_tag(struct mmsim *sim, struct xarray *xa, uint64_t index)
{
	struct xa_node *node = xa_leaf_of(sim, xa, index);
	uint32_t off = index & XA_CHUNK_MASK;

	if (!node)
		return;
	for (;;) {
		node->tagged &= ~(1ull << off);
		if (node->tagged || !node->parent)
			return;
		off = node->offset;
		node = xa_node(sim, node->parent);
	}
}

/* the first tagged index >= from under node id, whose first index is base */
static bool find_tagged(const struct mmsim *sim, uint32_t id, uint64_t base, uint64_t from,
			uint64_t *out)
{
	const struct xa_node *n = xa_node(sim, id);
	uint32_t i = from > base ? (uint32_t)((from - base) >> n->shift) : 0;

	for (; i < XA_CHUNK_SIZE; i++) {
		uint64_t b = base + ((uint64_t)i << n->shift);

		if (!(n->tagged >> i & 1))
			continue;
		if (!n->shift) {
			*out = b;
			return true;
		}
		if (find_tagged(sim, n->slots[i], b, MAX(from, b), out))
			return true;
	}
	return false;
}

/* the first index >= from under node id (first index base) holding a folio: empty subtrees are skipped */
static bool find_present(const struct mmsim *sim, uint32_t id, uint64_t base, uint64_t from,
			 uint64_t *out)
{
	const struct xa_node *n = xa_node(sim, id);
	uint32_t i = from > base ? (uint32_t)((from - base) >> n->shift) : 0;

	for (; i < XA_CHUNK_SIZE; i++) {
		uint64_t b = base + ((uint64_t)i << n->shift);
		uint32_t e = n->slots[i];

		if (!e)
			continue;
		if (!n->shift) {
			if (xa_is_value(e) || b < from)
				continue;
			*out = b;
			return true;
		}
		if (find_present(sim, e, b, MAX(from, b), out))
			return true;
	}
	return false;
}

/* the first index >= from that holds a folio (not a shadow entry): a walk of the present entries only */
bool xa_find_present(const struct mmsim *sim, const struct xarray *xa, uint64_t from,
		     uint64_t *index)
{
	if (!xa->head || from > xa_max(xa->height))
		return false;
	return find_present(sim, xa->head, 0, from, index);
}

bool xa_find_tagged(const struct mmsim *sim, const struct xarray *xa, uint64_t from,
		    uint64_t *index)
{
	if (!xa->head || from > xa_max(xa->height))
		return false;
	return find_tagged(sim, xa->head, 0, from, index);
}

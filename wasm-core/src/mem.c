/*
 * mem.c - the core's own memory: pools of fixed-size elements in chunks that
 * never move, and snapshots of the whole simulated state.
 *
 * All host memory goes through sim_alloc(), which enforces
 * mmsim_config.max_bytes so that a scenario too big for the host is refused
 * with MMSIM_ENOMEM instead of taking the browser tab down.
 *
 * A snapshot is taken between two operations, where the interpreter can
 * resume. A *capture* is the same bytes taken inside one (trace.c saves it
 * when the event count reaches the armed number): it lets a host show the
 * state between any two events, but only to look at, since half an
 * operation's progress lives on the C stack, not in the state. Restoring
 * it freezes the machine until a snapshot is restored.
 */
#include <stdlib.h>

#include "internal.h"

#ifdef __wasm__
void *sbrk(intptr_t increment); /* emscripten's libc; hidden by -std=c11 */

/*
 * WebAssembly: malloc's sbrk grows linear memory by exactly what it lacks,
 * and every memory.grow costs the engine a major garbage collection (V8
 * re-accounts external memory): filling a 16 GiB page cache grew memory 145
 * times and the fresh CLI run was 4x slower than it needs to be. Grow ahead,
 * geometrically (by half of what there is, at least 16 MiB), so that a run
 * takes a handful of growths; sbrk then finds the room already there. Past
 * the engine's limit the growth falls back to sbrk's exact one.
 */
static void wasm_grow_ahead(size_t size)
{
	const size_t page = 65536, limit = (size_t)65536 * page - page; /* 4 GiB */
	size_t have = __builtin_wasm_memory_size(0) * page;
	size_t brk = (size_t)sbrk(0), want, more;

	if (have >= limit || size > limit || brk > limit - size - page || brk + size + page <= have)
		return;
	more = MAX(have / 2, (size_t)16 << 20);
	want = MAX(brk + size + page, have + MIN(more, limit - have));
	(void)__builtin_wasm_memory_grow(0, (want - have + page - 1) / page);
}
#endif

static void *default_alloc(size_t size, void *ctx)
{
	(void)ctx;
#ifdef __wasm__
	wasm_grow_ahead(size);
#endif
	return malloc(size); /* sim_alloc() zeroes it */
}

static void default_free(void *p, void *ctx)
{
	(void)ctx;
	free(p);
}

void mmsim_config_default(struct mmsim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->trace = 0;
	cfg->debug_vm = 0;
	cfg->event_capacity = 65536;
	cfg->max_bytes = (uint64_t)3 << 30; /* wasm32 holds 4 GiB; leave room for the host */
	cfg->alloc = default_alloc;
	cfg->free = default_free;
}

void *sim_alloc(struct mmsim *sim, size_t size)
{
	void *p;

	if (sim->mem_bytes + size > sim->cfg.max_bytes) {
		sim->host_refused = 1;
		return NULL;
	}
	p = sim->cfg.alloc(size, sim->cfg.alloc_ctx);
	if (!p) {
		sim->host_refused = 1;
		return NULL;
	}
	memset(p, 0, size);
	sim->mem_bytes += size;
	if (sim->mem_bytes > sim->mem_peak)
		sim->mem_peak = sim->mem_bytes;
	return p;
}

void sim_free(struct mmsim *sim, void *p, size_t size)
{
	if (!p)
		return;
	sim->cfg.free(p, sim->cfg.alloc_ctx);
	sim->mem_bytes -= size;
}

int pool_init(struct mmsim *sim, int pool, uint32_t elem_size, uint32_t shift)
{
	struct pool_mem *pm = &sim->pm[pool];

	pm->elem_size = elem_size;
	pm->shift = shift;
	pm->nr_chunks = 0;
	pm->max_chunks = 0;
	pm->chunk = NULL;
	sim->s.pools[pool].nr = 0;
	sim->s.pools[pool].free = 0;
	sim->s.pools[pool].nr_free = 0;
	return 0;
}

static size_t chunk_bytes(const struct pool_mem *pm)
{
	return (size_t)pm->elem_size << pm->shift;
}

/* make elements [0, nr) addressable */
int pool_reserve(struct mmsim *sim, int pool, uint32_t nr)
{
	struct pool_mem *pm = &sim->pm[pool];
	uint32_t need = (uint32_t)(((uint64_t)nr + (1u << pm->shift) - 1) >> pm->shift);

	if (need <= pm->nr_chunks)
		return 0;
	if (need > pm->max_chunks) {
		uint32_t max = pm->max_chunks ? pm->max_chunks : 8;
		uint8_t **chunk;

		while (max < need)
			max *= 2;
		chunk = sim_alloc(sim, (size_t)max * sizeof(*chunk));
		if (!chunk)
			return MMSIM_ENOMEM;
		if (pm->chunk)
			memcpy(chunk, pm->chunk, (size_t)pm->nr_chunks * sizeof(*chunk));
		sim_free(sim, pm->chunk, (size_t)pm->max_chunks * sizeof(*chunk));
		pm->chunk = chunk;
		pm->max_chunks = max;
	}
	while (pm->nr_chunks < need) {
		uint8_t *c = sim_alloc(sim, chunk_bytes(pm));

		if (!c)
			return MMSIM_ENOMEM;
		pm->chunk[pm->nr_chunks++] = c;
	}
	return 0;
}

/* a zeroed element; 0 if the host refused memory */
uint32_t pool_alloc(struct mmsim *sim, int pool)
{
	struct pool_state *ps = &sim->s.pools[pool];
	uint32_t idx;

	if (ps->nr == 0) {
		if (pool_reserve(sim, pool, 1))
			return 0;
		ps->nr = 1; /* element 0 is reserved */
	}
	if (ps->free) {
		idx = ps->free;
		ps->free = *(uint32_t *)pool_ptr(sim, pool, idx);
		ps->nr_free--;
	} else {
		if (ps->nr == UINT32_MAX || pool_reserve(sim, pool, ps->nr + 1))
			return 0;
		idx = ps->nr++;
	}
	memset(pool_ptr(sim, pool, idx), 0, sim->pm[pool].elem_size);
	return idx;
}

void pool_free(struct mmsim *sim, int pool, uint32_t idx)
{
	struct pool_state *ps = &sim->s.pools[pool];
	void *p = pool_ptr(sim, pool, idx);

	memset(p, 0, sim->pm[pool].elem_size);
	*(uint32_t *)p = ps->free;
	ps->free = idx;
	ps->nr_free++;
}

void pool_destroy_all(struct mmsim *sim)
{
	for (int i = 0; i < NR_POOLS; i++) {
		struct pool_mem *pm = &sim->pm[i];

		for (uint32_t c = 0; c < pm->nr_chunks; c++)
			sim_free(sim, pm->chunk[c], chunk_bytes(pm));
		sim_free(sim, pm->chunk, (size_t)pm->max_chunks * sizeof(*pm->chunk));
		pm->chunk = NULL;
		pm->nr_chunks = pm->max_chunks = 0;
	}
}

uint64_t mmsim_mem_bytes(const struct mmsim *sim)
{
	return sim->mem_bytes;
}
uint64_t mmsim_mem_peak(const struct mmsim *sim)
{
	return sim->mem_peak;
}

/* ------------------------------------------------------------- snapshots */

struct snap_header {
	uint32_t magic;
	uint32_t abi;
	uint64_t size;
};

uint64_t mmsim_snapshot_size(const struct mmsim *sim)
{
	uint64_t size = sizeof(struct snap_header) + sizeof(struct mmsim_state);

	for (int i = 0; i < NR_MUTABLE_POOLS; i++)
		size += (uint64_t)sim->s.pools[i].nr * sim->pm[i].elem_size;
	return size;
}

int mmsim_snapshot_save(const struct mmsim *sim, void *buf, uint64_t len)
{
	uint64_t size = mmsim_snapshot_size(sim);
	uint8_t *p = buf;
	struct snap_header h = { MMSIM_SNAP_MAGIC, MMSIM_ABI_VERSION, size };

	/* a restored capture is no place to resume from: snapshots stay at operation boundaries */
	if (sim->frozen)
		return MMSIM_ESTATE;
	if (len < size)
		return MMSIM_EINVAL;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	memcpy(p, &sim->s, sizeof(sim->s));
	p += sizeof(sim->s);
	for (int i = 0; i < NR_MUTABLE_POOLS; i++) {
		const struct pool_mem *pm = &sim->pm[i];
		uint32_t nr = sim->s.pools[i].nr, per = 1u << pm->shift;

		for (uint32_t c = 0; c * per < nr; c++) {
			uint32_t n = MIN(per, nr - c * per);

			memcpy(p, pm->chunk[c], (size_t)n * pm->elem_size);
			p += (size_t)n * pm->elem_size;
		}
	}
	return 0;
}

int mmsim_snapshot_restore(struct mmsim *sim, const void *buf, uint64_t len)
{
	const uint8_t *p = buf;
	struct snap_header h;
	struct mmsim_state s;
	uint64_t need;

	if (len < sizeof(h) + sizeof(s))
		return MMSIM_EINVAL;
	memcpy(&h, p, sizeof(h));
	if (h.magic != MMSIM_SNAP_MAGIC || h.abi != MMSIM_ABI_VERSION || h.size != len)
		return MMSIM_EINVAL;
	memcpy(&s, p + sizeof(h), sizeof(s));
	/* the program (immutable pools) must be the one the snapshot was taken with */
	for (int i = NR_MUTABLE_POOLS; i < NR_POOLS; i++)
		if (s.pools[i].nr != sim->s.pools[i].nr)
			return MMSIM_EINVAL;
	need = sizeof(h) + sizeof(s);
	for (int i = 0; i < NR_MUTABLE_POOLS; i++)
		need += (uint64_t)s.pools[i].nr * sim->pm[i].elem_size;
	if (need != len)
		return MMSIM_EINVAL;
	for (int i = 0; i < NR_MUTABLE_POOLS; i++)
		if (pool_reserve(sim, i, s.pools[i].nr))
			return MMSIM_ENOMEM;
	memcpy(&sim->s, &s, sizeof(s));
	p += sizeof(h) + sizeof(s);
	for (int i = 0; i < NR_MUTABLE_POOLS; i++) {
		const struct pool_mem *pm = &sim->pm[i];
		uint32_t nr = sim->s.pools[i].nr, per = 1u << pm->shift;

		for (uint32_t c = 0; c * per < nr; c++) {
			uint32_t n = MIN(per, nr - c * per);

			memcpy(pm->chunk[c], p, (size_t)n * pm->elem_size);
			p += (size_t)n * pm->elem_size;
		}
	}
	sim->nr_ev = 0;
	sim->op_start = 1;
	if (sim->frozen) {
		sim->frozen = 0;
		if (sim->load_msg == mmsim_frozen_msg)
			sim->load_msg = NULL;
	}
	return 0;
}

/* ------------------------------------------------------------- captures */

const char mmsim_frozen_msg[] = "the machine stands inside an operation (a restored capture): "
				"restore a snapshot before running it";

/*
 * trace_emit(): the event count reached capture_at. Disarm, and save the
 * state into the capture buffer, grown as needed; if the host refuses the
 * memory there is no capture (mmsim_capture_restore() says so), and the
 * refusal is not the run's business (host_refused stays as it was).
 */
void capture_now(struct mmsim *sim)
{
	uint64_t size = mmsim_snapshot_size(sim);

	sim->capture_at = UINT64_MAX;
	sim->capture_len = 0;
	if (size > sim->capture_cap) {
		uint32_t refused = sim->host_refused;
		uint64_t cap = size + size / 4; /* room for the next capture a few events later */

		sim_free(sim, sim->capture, (size_t)sim->capture_cap);
		sim->capture_cap = 0;
		sim->capture = cap == (size_t)cap ? sim_alloc(sim, (size_t)cap) : NULL;
		sim->host_refused = refused;
		if (!sim->capture)
			return;
		sim->capture_cap = cap;
	}
	if (mmsim_snapshot_save(sim, sim->capture, sim->capture_cap) == 0)
		sim->capture_len = size;
}

int mmsim_capture_at(struct mmsim *sim, uint64_t event)
{
	sim->capture_len = 0;
	sim->capture_at = UINT64_MAX;
	/* the count only grows: an event already recorded is never reached again */
	if (event <= sim->s.events_total)
		return MMSIM_EINVAL;
	sim->capture_at = event;
	return 0;
}

void mmsim_capture_release(struct mmsim *sim)
{
	sim_free(sim, sim->capture, (size_t)sim->capture_cap);
	sim->capture = NULL;
	sim->capture_cap = 0;
	sim->capture_len = 0;
	sim->capture_at = UINT64_MAX;
}

int mmsim_capture_restore(struct mmsim *sim)
{
	int err;

	if (!sim->capture_len)
		return MMSIM_EINVAL;
	err = mmsim_snapshot_restore(sim, sim->capture, sim->capture_len);
	if (err)
		return err;
	sim->frozen = 1;
	return 0;
}

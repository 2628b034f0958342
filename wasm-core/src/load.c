/*
 * load.c - a machine and its program: create, check, load.
 *
 * mmsim_create() makes an empty machine: every pool set up, nothing
 * allocated in it yet. mmsim_load() takes a program (the fixed-layout
 * records the TypeScript compiler writes: a header, files, processes,
 * steps and a u64 data table), copies it to an aligned buffer and
 * validates all of it before anything runs:
 *
 *     header  -> tunables in range (generated checks), counts under the limits
 *     files   -> sizes and flags
 *     procs   -> each process's threads take the next task ids, all of them
 *     steps   -> every operand in range; repeat bodies nested properly
 *     data    -> the slices steps point into lie inside the table
 *
 * so that the interpreter (run.c) never has to range-check a program field
 * again, and the mm code never sees one. A refused program gets an error code, the step at fault
 * (mmsim_last_error) and a short English reason (mmsim_load_message).
 *
 * A valid program is copied into the step and data pools (immutable from
 * then on, and not part of a snapshot); then the machine is set up as the
 * header says: the page allocator with machine.memory frames, one struct
 * file per file, an mm and a PGD per process present at the start, and the
 * tasks. The interpreter starts at step 0 with the preload of `cached`
 * files; work_total (for progress bars) is estimated here, from the
 * program alone.
 */
#include "internal.h"
#include "mmap.h"
#include "page_alloc.h"
#include "vmscan.h"
#include "writeback.h"

uint32_t mmsim_abi_version(void)
{
	return MMSIM_ABI_VERSION;
}

struct mmsim *mmsim_create(const struct mmsim_config *cfg)
{
	struct mmsim_config c;
	struct mmsim *sim;

	mmsim_config_default(&c);
	if (cfg) {
		c = *cfg;
		if (!c.alloc || !c.free) {
			struct mmsim_config d;

			mmsim_config_default(&d);
			c.alloc = d.alloc;
			c.free = d.free;
		}
		if (!c.max_bytes)
			c.max_bytes = UINT64_MAX;
		if (!c.event_capacity)
			c.event_capacity = 65536;
	}
	sim = c.alloc(sizeof(*sim), c.alloc_ctx);
	if (!sim)
		return NULL;
	memset(sim, 0, sizeof(*sim));
	sim->cfg = c;
	sim->trace = c.trace;
	sim->debug_vm = c.debug_vm;
	sim->soft_cap_ev = c.event_capacity;
	sim->mem_bytes = sim->mem_peak = sizeof(*sim);
	sim->s.cur_step = MMSIM_NONE;
	sim->s.cur_task = MMSIM_NONE;
	sim->s.err.step = MMSIM_NONE;
	sim->capture_at = UINT64_MAX;
	pool_init(sim, POOL_PAGE, sizeof(struct page), PAGE_CHUNK_SHIFT);
	pool_init(sim, POOL_PGTABLE, PTRS_PER_PTE * sizeof(uint64_t), PGT_CHUNK_SHIFT);
	pool_init(sim, POOL_XA, sizeof(struct xa_node), XA_POOL_SHIFT);
	pool_init(sim, POOL_VMA, sizeof(struct vm_area_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_MAPREC, sizeof(struct maprec), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_TASK, sizeof(struct task_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_MM, sizeof(struct mm_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_FILE, sizeof(struct file), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_ANON_VMA, sizeof(struct anon_vma), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_STEP, sizeof(struct mmsim_step), STEP_CHUNK_SHIFT);
	pool_init(sim, POOL_DATA, sizeof(uint64_t), DATA_CHUNK_SHIFT);
	return sim;
}

struct mmsim *mmsim_create_with(int trace, int debug_vm, uint32_t event_capacity,
				uint64_t max_bytes)
{
	struct mmsim_config cfg;

	mmsim_config_default(&cfg);
	cfg.trace = trace;
	cfg.debug_vm = debug_vm;
	cfg.event_capacity = event_capacity;
	cfg.max_bytes = max_bytes ? max_bytes : UINT64_MAX;
	return mmsim_create(&cfg);
}

void mmsim_destroy(struct mmsim *sim)
{
	if (!sim)
		return;
	pool_destroy_all(sim);
	sim_free(sim, sim->ev, (size_t)sim->cap_ev * sizeof(*sim->ev));
	sim_free(sim, sim->capture, (size_t)sim->capture_cap);
	sim->cfg.free(sim, sim->cfg.alloc_ctx);
}

const char *mmsim_load_message(const struct mmsim *sim)
{
	return sim->load_msg ? sim->load_msg : "";
}

/* ------------------------------------------------------------- checking */

/* MMSIM_MAX_FILES .. MMSIM_MAX_DATA come from the interface description (mmsim_gen.h) */
#define MMSIM_MAX_FILE_SIZE (1ull << 40) /* 1 TiB */

/* the refusals below spell the limits out */
_Static_assert(MMSIM_MAX_FILES == 1024 && MMSIM_MAX_PROCS == 1024 && MMSIM_MAX_TASKS == 4096 &&
		       MMSIM_MAX_MAPS == 65536 && MMSIM_MAX_STEPS == 1048576 &&
		       MMSIM_MAX_DATA == 16777216,
	       "update the program-too-large messages");

static int load_fail(struct mmsim *sim, uint32_t step, const char *why)
{
	sim->load_msg = why;
	sim->s.err.code = MMSIM_EINVAL;
	sim->s.err.step = step;
	return MMSIM_EINVAL;
}

static bool task_ok(const struct mmsim_prog_header *h, uint32_t task, bool all_ok)
{
	if (task & MMSIM_TASK_ALL)
		return all_ok && (task & ~MMSIM_TASK_ALL) < h->nr_procs;
	return task < h->nr_tasks;
}

static int validate(struct mmsim *sim, const struct mmsim_prog_header *h,
		    const struct mmsim_prog_file *files, const struct mmsim_prog_proc *procs,
		    const struct mmsim_step *steps, const uint64_t *data)
{
	uint32_t ends[MMSIM_MAX_LOOPS], depth = 0, tasks = 0;

	const char *why = mmsim_tunables_check(h); /* generated from the description */

	if (why)
		return load_fail(sim, MMSIM_NONE, why);
	/* the loader's limits (wasm-core/ts/limits.ts) are lower: these guard the core */
	if (h->nr_files > MMSIM_MAX_FILES)
		return load_fail(sim, MMSIM_NONE, "program too large: more than 1024 files");
	if (h->nr_procs > MMSIM_MAX_PROCS)
		return load_fail(sim, MMSIM_NONE, "program too large: more than 1024 processes");
	if (h->nr_tasks > MMSIM_MAX_TASKS)
		return load_fail(sim, MMSIM_NONE, "program too large: more than 4096 threads");
	if (h->nr_maps > MMSIM_MAX_MAPS)
		return load_fail(sim, MMSIM_NONE, "program too large: more than 65536 map names");
	if (h->nr_steps > MMSIM_MAX_STEPS)
		return load_fail(sim, MMSIM_NONE,
				 "program too large: more than 1048576 compiled steps");
	if (h->nr_data > MMSIM_MAX_DATA)
		return load_fail(sim, MMSIM_NONE,
				 "program too large: more than 16777216 data words (page lists)");
	for (uint32_t i = 0; i < h->nr_files; i++)
		if (files[i].size > MMSIM_MAX_FILE_SIZE ||
		    (files[i].flags & ~(MMSIM_FILE_CACHED | MMSIM_FILE_SHMEM | MMSIM_FILE_SPARSE |
					MMSIM_FILE_ORDER0)))
			return load_fail(sim, MMSIM_NONE, "file size out of range");
	for (uint32_t i = 0; i < h->nr_procs; i++) {
		if (!procs[i].threads || procs[i].first_task != tasks ||
		    procs[i].threads > h->nr_tasks - tasks)
			return load_fail(sim, MMSIM_NONE, "process table inconsistent");
		tasks += procs[i].threads;
	}
	if (tasks != h->nr_tasks)
		return load_fail(sim, MMSIM_NONE, "process table inconsistent");

	for (uint32_t pc = 0; pc < h->nr_steps; pc++) {
		const struct mmsim_step *st = &steps[pc];

		while (depth && pc == ends[depth - 1])
			depth--;
		switch (st->op) {
		case MMSIM_OP_NOP:
		case MMSIM_OP_SAY:
			break;
		case MMSIM_OP_MMAP:
			if (!task_ok(h, st->task, false) || st->map >= h->nr_maps ||
			    st->file > h->nr_files)
				return load_fail(sim, pc, "mmap: bad task, map or file");
			if (!st->file && !(st->flags & MMSIM_STEPF_LENGTH))
				return load_fail(sim, pc, "mmap: anonymous mapping without length");
			if ((st->offset | st->length) & (PAGE_SIZE - 1))
				return load_fail(sim, pc,
						 "mmap: offset and length must be page aligned");
			if ((st->flags & MMSIM_STEPF_FIXED) &&
			    ((st->addr & (PAGE_SIZE - 1)) || st->addr >= TASK_SIZE))
				return load_fail(sim, pc, "mmap: bad address");
			if ((st->flags & MMSIM_STEPF_SHARED) && !st->file) {
				sim->load_msg =
					"shared anonymous mappings (shmem) are not modelled";
				sim->s.err.code = MMSIM_ENOTIMPL;
				sim->s.err.step = pc;
				return MMSIM_ENOTIMPL;
			}
			break;
		case MMSIM_OP_MUNMAP:
		case MMSIM_OP_MADVISE:
			if (!task_ok(h, st->task, false) || st->map >= h->nr_maps)
				return load_fail(sim, pc, "bad task or map");
			if ((st->offset | st->length) & (PAGE_SIZE - 1))
				return load_fail(sim, pc, "offset and length must be page aligned");
			if (st->op == MMSIM_OP_MADVISE && st->kind > MMSIM_ADV_DONTNEED)
				return load_fail(sim, pc, "madvise: bad advice");
			break;
		case MMSIM_OP_ACCESS:
			if (!task_ok(h, st->task, true))
				return load_fail(sim, pc, "access: bad task");
			if (st->kind > MMSIM_PAT_LIST || !st->stride ||
			    (st->stride & (PAGE_SIZE - 1)) ||
			    ((st->offset | st->length) & (PAGE_SIZE - 1)))
				return load_fail(sim, pc,
						 "access: bad pattern, stride, offset or length");
			if (st->flags & MMSIM_STEPF_MAPLIST) {
				uint32_t n = (st->task & MMSIM_TASK_ALL) ?
						     procs[st->task & ~MMSIM_TASK_ALL].threads :
						     1;

				if (st->addr > h->nr_data || n > h->nr_data - st->addr)
					return load_fail(sim, pc, "access: map list out of range");
				for (uint32_t i = 0; i < n; i++)
					if (data[st->addr + i] >= h->nr_maps)
						return load_fail(sim, pc,
								 "access: bad map in list");
			} else if (st->map >= h->nr_maps) {
				return load_fail(sim, pc, "access: bad map");
			}
			if (st->kind == MMSIM_PAT_LIST &&
			    (st->data > h->nr_data || st->ndata > h->nr_data - st->data))
				return load_fail(sim, pc, "access: page list out of range");
			break;
		case MMSIM_OP_READ:
		case MMSIM_OP_WRITE:
		case MMSIM_OP_FADVISE:
		case MMSIM_OP_FSYNC:
			if (!task_ok(h, st->task, false) || st->file >= h->nr_files)
				return load_fail(sim, pc,
						 "read, write, fadvise, fsync: bad task or file");
			if (st->op == MMSIM_OP_FADVISE && st->kind != 0)
				return load_fail(sim, pc, "fadvise: bad advice");
			break;
		case MMSIM_OP_FORK:
			if (!task_ok(h, st->task, false) || st->file >= h->nr_procs ||
			    !(procs[st->file].flags & MMSIM_PROC_FORKED) ||
			    procs[st->file].threads != 1)
				return load_fail(sim, pc, "fork: bad task or child");
			break;
		case MMSIM_OP_EXIT:
			if (!task_ok(h, st->task, false))
				return load_fail(sim, pc, "exit: bad task");
			break;
		case MMSIM_OP_REPEAT:
			if (st->addr > h->nr_steps - pc - 1)
				return load_fail(sim, pc, "repeat: body runs past the end");
			if (depth == MMSIM_MAX_LOOPS)
				return load_fail(sim, pc, "repeat: nested too deep");
			if (depth && pc + 1 + st->addr > ends[depth - 1])
				return load_fail(sim, pc, "repeat: body crosses its parent's end");
			ends[depth++] = pc + 1 + (uint32_t)st->addr;
			break;
		case MMSIM_OP_EXPECT: {
			bool have_folio = false;

			if (st->data > h->nr_data || st->ndata > h->nr_data - st->data ||
			    (st->ndata & 1))
				return load_fail(sim, pc, "expect: data out of range");
			for (uint32_t i = 0; i < st->ndata; i += 2) {
				uint64_t key = data[st->data + i];

				switch (MMSIM_EXPECT_KIND(key)) {
				case MMSIM_EXPECT_COUNTER:
					if ((key & 0xffff) >= MMSIM_NR_COUNTERS)
						return load_fail(sim, pc, "expect: bad counter");
					break;
				case MMSIM_EXPECT_TASK_COUNTER:
					if ((key & 0xffff) >= MMSIM_NR_TASK_COUNTERS ||
					    ((key >> 16) & 0xffffffffffull) >= h->nr_tasks)
						return load_fail(sim, pc,
								 "expect: bad task counter");
					break;
				case MMSIM_EXPECT_FOLIO_AT:
					if ((key & 0xffff) >= h->nr_maps ||
					    ((key >> 16) & 0xffffffffffull) >= h->nr_tasks)
						return load_fail(sim, pc,
								 "expect: bad folio reference");
					have_folio = true;
					break;
				case MMSIM_EXPECT_FOLIO_FIELD:
					if (!have_folio || (key & 0xffff) >= MMSIM_NR_FOLIO_FIELDS)
						return load_fail(sim, pc,
								 "expect: bad folio field");
					break;
				default:
					return load_fail(sim, pc, "expect: bad item");
				}
			}
			break;
		}
		default:
			return load_fail(sim, pc, "unknown step");
		}
	}
	return 0;
}

/* length of each map name as its first mmap creates it, for progress estimates (one pass) */
static void map_lens_static(const struct mmsim_prog_header *h, const struct mmsim_prog_file *files,
			    const struct mmsim_step *steps, uint64_t *len, uint8_t *seen)
{
	for (uint32_t pc = 0; pc < h->nr_steps; pc++) {
		const struct mmsim_step *st = &steps[pc];

		if (st->op != MMSIM_OP_MMAP || seen[st->map])
			continue;
		seen[st->map] = 1;
		if (st->flags & MMSIM_STEPF_LENGTH)
			len[st->map] = st->length;
		else if (st->file && files[st->file - 1].size > st->offset)
			len[st->map] = ALIGN_UP(files[st->file - 1].size - st->offset, PAGE_SIZE);
	}
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* the number of operations the program will run (exact unless ranges change at run time) */
static uint64_t estimate_work(struct mmsim *sim, const struct mmsim_prog_header *h,
			      const struct mmsim_prog_file *files,
			      const struct mmsim_prog_proc *procs, const struct mmsim_step *steps,
			      const uint64_t *data)
{
	uint64_t total = 0, mult[MMSIM_MAX_LOOPS + 1] = { 1 };
	uint32_t ends[MMSIM_MAX_LOOPS], depth = 0;
	size_t lbytes = (size_t)h->nr_maps * (sizeof(uint64_t) + 1) + 1;
	uint64_t *maplen = sim_alloc(sim, lbytes);
	uint8_t *seen = (uint8_t *)(maplen + h->nr_maps);

	if (!maplen)
		return 0; /* progress shows no total; nothing else depends on it */
	memset(maplen, 0, lbytes);
	map_lens_static(h, files, steps, maplen, seen);

	for (uint32_t i = 0; i < h->nr_files; i++)
		if (files[i].flags & MMSIM_FILE_CACHED)
			total += DIV_ROUND_UP(files[i].size, PAGE_SIZE);
	for (uint32_t pc = 0; pc < h->nr_steps; pc++) {
		const struct mmsim_step *st = &steps[pc];
		uint64_t w = 1;

		while (depth && pc == ends[depth - 1])
			depth--;
		if (st->op == MMSIM_OP_REPEAT) {
			/* entering it, and the end of each iteration (run.c) */
			total = sat_add(total, sat_mul(mult[depth], sat_add(1, st->count)));
			ends[depth] = pc + 1 + (uint32_t)st->addr;
			mult[depth + 1] = sat_mul(mult[depth], st->count);
			depth++;
			continue;
		}
		if (st->op == MMSIM_OP_ACCESS) {
			uint32_t n = (st->task & MMSIM_TASK_ALL) ?
					     procs[st->task & ~MMSIM_TASK_ALL].threads :
					     1;

			for (uint32_t t = 0; t < n; t++) {
				uint32_t map = (st->flags & MMSIM_STEPF_MAPLIST) ?
						       (uint32_t)data[st->addr + t] :
						       st->map;
				uint64_t len = st->flags & MMSIM_STEPF_LENGTH ? st->length :
										maplen[map];

				if (!(st->flags & MMSIM_STEPF_LENGTH))
					len = len > st->offset ? len - st->offset : 0;
				if (st->kind == MMSIM_PAT_UNIFORM)
					w = sat_add(w, st->count);
				else if (st->kind == MMSIM_PAT_LIST)
					w = sat_add(w, st->ndata);
				else
					w = sat_add(w, DIV_ROUND_UP(len, st->stride));
			}
		}
		total = sat_add(total, sat_mul(w, mult[depth]));
	}
	sim_free(sim, maplen, lbytes);
	return total;
}

int mmsim_load(struct mmsim *sim, const void *prog, size_t len)
{
	const uint8_t *p = prog;
	struct mmsim_prog_header h;
	const struct mmsim_prog_file *files;
	const struct mmsim_prog_proc *procs;
	const struct mmsim_step *steps;
	const uint64_t *data;
	uint64_t need;
	int err;

	if (sim->s.loaded)
		return MMSIM_ESTATE;
	if (len < sizeof(h))
		return load_fail(sim, MMSIM_NONE, "program shorter than its header");
	memcpy(&h, p, sizeof(h));
	if (h.magic != MMSIM_PROG_MAGIC)
		return load_fail(sim, MMSIM_NONE, "not an mmsim program");
	if (h.abi != MMSIM_ABI_VERSION) {
		sim->load_msg = "program built for another ABI version";
		sim->s.err.code = MMSIM_EABI;
		return MMSIM_EABI;
	}
	need = sizeof(h) + (uint64_t)h.nr_files * sizeof(*files) +
	       (uint64_t)h.nr_procs * sizeof(*procs) + (uint64_t)h.nr_steps * sizeof(*steps) +
	       (uint64_t)h.nr_data * sizeof(*data);
	if (need != len)
		return load_fail(sim, MMSIM_NONE, "program length does not match its header");
	/* the program is copied into aligned pools; read it from an aligned copy */
	{
		void *copy = sim_alloc(sim, len);

		if (!copy)
			return MMSIM_ENOMEM;
		memcpy(copy, prog, len);
		files = (const void *)((uint8_t *)copy + sizeof(h));
		procs = (const void *)(files + h.nr_files);
		steps = (const void *)(procs + h.nr_procs);
		data = (const void *)(steps + h.nr_steps);
		err = validate(sim, &h, files, procs, steps, data);
		if (!err) {
			sim->s.hdr = h;
			sim->s.work_total = estimate_work(sim, &h, files, procs, steps, data);
			err = pool_reserve(sim, POOL_STEP, h.nr_steps + 1);
			if (!err)
				err = pool_reserve(sim, POOL_DATA, h.nr_data + 1);
			if (!err) {
				sim->s.pools[POOL_STEP].nr = h.nr_steps + 1;
				sim->s.pools[POOL_DATA].nr = h.nr_data + 1;
				for (uint32_t i = 0; i < h.nr_steps; i++)
					memcpy(pool_ptr(sim, POOL_STEP, i + 1), &steps[i],
					       sizeof(*steps));
				for (uint32_t i = 0; i < h.nr_data; i++)
					memcpy(pool_ptr(sim, POOL_DATA, i + 1), &data[i],
					       sizeof(*data));
			}
		}
		if (!err) {
			page_alloc_init(sim);
			setup_per_zone_wmarks(sim);
			writeback_init(sim);
			sim->s.fault_around_pages = h.fault_around_bytes >> PAGE_SHIFT;
			sim->s.ra_pages = h.readahead_kb / (PAGE_SIZE / 1024);
			for (uint32_t i = 0; i < h.nr_files && !err; i++) {
				struct file *f;

				if (pool_alloc(sim, POOL_FILE) != i + 1) {
					err = MMSIM_ENOMEM;
					break;
				}
				f = file_ptr(sim, i);
				f->i_size = files[i].size;
				f->flags = files[i].flags;
				f->f_ra.ra_pages = sim->s.ra_pages;
				f->f_ra.prev_pos =
					UINT64_MAX; /* file_ra_state_init(): -1, nothing read yet */
			}
			for (uint32_t i = 0; i < h.nr_procs && !err; i++)
				if (pool_alloc(sim, POOL_MM) != i + 1)
					err = MMSIM_ENOMEM;
			for (uint32_t i = 0; i < h.nr_tasks && !err; i++)
				if (pool_alloc(sim, POOL_TASK) != i + 1)
					err = MMSIM_ENOMEM;
			if (!err && !pool_alloc(sim, POOL_VMA)) /* vma 0: the NIL sentinel */
				err = MMSIM_ENOMEM;
			if (!err && !pool_reserve(sim, POOL_XA, 1))
				sim->s.pools[POOL_XA].nr = MAX(sim->s.pools[POOL_XA].nr, 1);
			for (uint32_t i = 0; i < h.nr_procs && !err; i++) {
				struct mm_struct *mm = mm_ptr(sim, i);

				mm->first_task = procs[i].first_task;
				mm->nr_threads = procs[i].threads;
				for (uint32_t t = 0; t < procs[i].threads; t++)
					task_ptr(sim, procs[i].first_task + t)->mm = i;
				if (procs[i].flags & MMSIM_PROC_FORKED)
					continue;
				err = mm_init_one(sim, i);
				mm->vmacache_seqnum = procs[i].vmacache_seqnum;
				for (uint32_t t = 0; t < procs[i].threads; t++)
					task_ptr(sim, procs[i].first_task + t)->alive = 1;
			}
			if (err == MMSIM_EOOM) {
				sim->load_msg =
					"machine.memory too small for the processes' page tables";
				sim->s.err.code = err;
			}
		}
		sim_free(sim, copy, len);
	}
	if (err)
		return err;
	sim->s.loaded = 1;
	sim->op_start = 1;
	return 0;
}

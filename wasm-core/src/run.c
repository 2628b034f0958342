/*
 * run.c - the machine's life: create, load a program, run it.
 *
 * The interpreter is resumable at every *operation*: one chunk of a
 * `cached: all` preload, one user-space touch of an access step (with the
 * fault it may take), or one whole other step. Its position (pc, loop
 * stack, each thread's place in the current access step) is part of the
 * state, so a snapshot taken between two operations resumes exactly, and
 * pausing for a budget never changes the event stream.
 *
 * repeat: iteration i adds i * stride to every offset of the steps inside
 * (nested loops add up); the body is not unrolled.
 */
#include "internal.h"

uint32_t mmsim_abi_version(void) { return MMSIM_ABI_VERSION; }

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
	pool_init(sim, POOL_PAGE, sizeof(struct page), PAGE_CHUNK_SHIFT);
	pool_init(sim, POOL_PGTABLE, PTRS_PER_PTE * sizeof(uint64_t), PGT_CHUNK_SHIFT);
	pool_init(sim, POOL_XA, sizeof(struct xa_node), XA_POOL_SHIFT);
	pool_init(sim, POOL_VMA, sizeof(struct vm_area_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_MAPREC, sizeof(struct maprec), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_TASK, sizeof(struct task_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_MM, sizeof(struct mm_struct), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_FILE, sizeof(struct file), SMALL_CHUNK_SHIFT);
	pool_init(sim, POOL_STEP, sizeof(struct mmsim_step), STEP_CHUNK_SHIFT);
	pool_init(sim, POOL_DATA, sizeof(uint64_t), DATA_CHUNK_SHIFT);
	return sim;
}

struct mmsim *mmsim_create_with(int trace, int debug_vm, uint32_t event_capacity, uint64_t max_bytes)
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
	sim->cfg.free(sim, sim->cfg.alloc_ctx);
}

int sim_error(struct mmsim *sim, int code, uint64_t addr, uint64_t detail)
{
	struct mmsim_error_info *e = &sim->s.err;

	if (!e->code) {
		e->code = code;
		e->step = sim->s.cur_step;
		e->task = sim->s.cur_task;
		e->addr = addr;
		e->detail = detail;
	}
	return code;
}

const struct mmsim_error_info *mmsim_last_error(const struct mmsim *sim) { return &sim->s.err; }
const char *mmsim_check_message(const struct mmsim *sim) { return sim->check_msg; }
const char *mmsim_load_message(const struct mmsim *sim) { return sim->load_msg ? sim->load_msg : ""; }
uint64_t mmsim_work_done(const struct mmsim *sim) { return sim->s.work_done; }
uint64_t mmsim_work_total(const struct mmsim *sim) { return sim->s.work_total; }
int mmsim_finished(const struct mmsim *sim) { return (int)sim->s.finished; }
uint32_t mmsim_steps_executed(const struct mmsim *sim) { return sim->s.steps_executed; }
uint32_t mmsim_nr_expect_failures(const struct mmsim *sim) { return sim->s.nr_fails; }

const struct mmsim_expect_failure *mmsim_expect_failure(const struct mmsim *sim, uint32_t i)
{
	return i < MIN(sim->s.nr_fails, MMSIM_MAX_FAILS) ? &sim->s.fails[i] : NULL;
}

/* ------------------------------------------------------------- loading */

#define MMSIM_MAX_TASKS 4096
#define MMSIM_MAX_PROCS 1024
#define MMSIM_MAX_FILES 1024
#define MMSIM_MAX_MAPS 65536
#define MMSIM_MAX_STEPS (1u << 20)
#define MMSIM_MAX_DATA (1u << 24)
#define MMSIM_MAX_FILE_SIZE (1ull << 40)   /* 1 TiB */

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
	if (h->nr_files > MMSIM_MAX_FILES || h->nr_procs > MMSIM_MAX_PROCS ||
	    h->nr_tasks > MMSIM_MAX_TASKS || h->nr_maps > MMSIM_MAX_MAPS ||
	    h->nr_steps > MMSIM_MAX_STEPS || h->nr_data > MMSIM_MAX_DATA)
		return load_fail(sim, MMSIM_NONE, "program too large");
	for (uint32_t i = 0; i < h->nr_files; i++)
		if (files[i].size > MMSIM_MAX_FILE_SIZE ||
		    (files[i].flags & ~(MMSIM_FILE_CACHED | MMSIM_FILE_SHMEM)))
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
			if (!task_ok(h, st->task, false) || st->map >= h->nr_maps || st->file > h->nr_files)
				return load_fail(sim, pc, "mmap: bad task, map or file");
			if (!st->file && !(st->flags & MMSIM_STEPF_LENGTH))
				return load_fail(sim, pc, "mmap: anonymous mapping without length");
			if ((st->offset | st->length) & (PAGE_SIZE - 1))
				return load_fail(sim, pc, "mmap: offset and length must be page aligned");
			if ((st->flags & MMSIM_STEPF_FIXED) && ((st->addr & (PAGE_SIZE - 1)) || st->addr >= TASK_SIZE))
				return load_fail(sim, pc, "mmap: bad address");
			if ((st->flags & MMSIM_STEPF_SHARED) && !st->file) {
				sim->load_msg = "shared anonymous mappings (shmem) are not modelled";
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
			if (st->kind > MMSIM_PAT_LIST || !st->stride || (st->stride & (PAGE_SIZE - 1)) ||
			    ((st->offset | st->length) & (PAGE_SIZE - 1)))
				return load_fail(sim, pc, "access: bad pattern, stride, offset or length");
			if (st->flags & MMSIM_STEPF_MAPLIST) {
				uint32_t n = (st->task & MMSIM_TASK_ALL) ? procs[st->task & ~MMSIM_TASK_ALL].threads : 1;

				if (st->addr > h->nr_data || n > h->nr_data - st->addr)
					return load_fail(sim, pc, "access: map list out of range");
				for (uint32_t i = 0; i < n; i++)
					if (data[st->addr + i] >= h->nr_maps)
						return load_fail(sim, pc, "access: bad map in list");
			} else if (st->map >= h->nr_maps) {
				return load_fail(sim, pc, "access: bad map");
			}
			if (st->kind == MMSIM_PAT_LIST && (st->data > h->nr_data || st->ndata > h->nr_data - st->data))
				return load_fail(sim, pc, "access: page list out of range");
			break;
		case MMSIM_OP_READ:
		case MMSIM_OP_WRITE:
		case MMSIM_OP_FADVISE:
		case MMSIM_OP_FSYNC:
			sim->load_msg = "read, write, fadvise and fsync steps are not modelled yet "
					"(they arrive with the LRU and writeback issue)";
			sim->s.err.code = MMSIM_ENOTIMPL;
			sim->s.err.step = pc;
			return MMSIM_ENOTIMPL;
		case MMSIM_OP_FORK:
			if (!task_ok(h, st->task, false) || st->file >= h->nr_procs ||
			    !(procs[st->file].flags & MMSIM_PROC_FORKED) || procs[st->file].threads != 1)
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

			if (st->data > h->nr_data || st->ndata > h->nr_data - st->data || (st->ndata & 1))
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
						return load_fail(sim, pc, "expect: bad task counter");
					break;
				case MMSIM_EXPECT_FOLIO_AT:
					if ((key & 0xffff) >= h->nr_maps || ((key >> 16) & 0xffffffffffull) >= h->nr_tasks)
						return load_fail(sim, pc, "expect: bad folio reference");
					have_folio = true;
					break;
				case MMSIM_EXPECT_FOLIO_FIELD:
					if (!have_folio || (key & 0xffff) >= MMSIM_NR_FOLIO_FIELDS)
						return load_fail(sim, pc, "expect: bad folio field");
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

/* length of a map name as its (first) mmap creates it, for progress estimates */
static uint64_t map_len_static(const struct mmsim_prog_header *h, const struct mmsim_prog_file *files,
			       const struct mmsim_step *steps, uint32_t map)
{
	for (uint32_t pc = 0; pc < h->nr_steps; pc++) {
		const struct mmsim_step *st = &steps[pc];

		if (st->op != MMSIM_OP_MMAP || st->map != map)
			continue;
		if (st->flags & MMSIM_STEPF_LENGTH)
			return st->length;
		if (st->file && files[st->file - 1].size > st->offset)
			return ALIGN_UP(files[st->file - 1].size - st->offset, PAGE_SIZE);
		return 0;
	}
	return 0;
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
static uint64_t estimate_work(const struct mmsim_prog_header *h, const struct mmsim_prog_file *files,
			      const struct mmsim_prog_proc *procs, const struct mmsim_step *steps,
			      const uint64_t *data)
{
	uint64_t total = 0, mult[MMSIM_MAX_LOOPS + 1] = { 1 };
	uint32_t ends[MMSIM_MAX_LOOPS], depth = 0;

	for (uint32_t i = 0; i < h->nr_files; i++)
		if (files[i].flags & MMSIM_FILE_CACHED)
			total += DIV_ROUND_UP(files[i].size, PAGE_SIZE);
	for (uint32_t pc = 0; pc < h->nr_steps; pc++) {
		const struct mmsim_step *st = &steps[pc];
		uint64_t w = 1;

		while (depth && pc == ends[depth - 1])
			depth--;
		if (st->op == MMSIM_OP_REPEAT) {
			ends[depth] = pc + 1 + (uint32_t)st->addr;
			mult[depth + 1] = sat_mul(mult[depth], st->count);
			depth++;
			continue;
		}
		if (st->op == MMSIM_OP_ACCESS) {
			uint32_t n = (st->task & MMSIM_TASK_ALL) ? procs[st->task & ~MMSIM_TASK_ALL].threads : 1;

			for (uint32_t t = 0; t < n; t++) {
				uint32_t map = (st->flags & MMSIM_STEPF_MAPLIST) ? (uint32_t)data[st->addr + t] : st->map;
				uint64_t len = st->flags & MMSIM_STEPF_LENGTH ? st->length
						: map_len_static(h, files, steps, map);

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
	need = sizeof(h) + (uint64_t)h.nr_files * sizeof(*files) + (uint64_t)h.nr_procs * sizeof(*procs) +
	       (uint64_t)h.nr_steps * sizeof(*steps) + (uint64_t)h.nr_data * sizeof(*data);
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
			sim->s.work_total = estimate_work(&h, files, procs, steps, data);
			err = pool_reserve(sim, POOL_STEP, h.nr_steps + 1);
			if (!err)
				err = pool_reserve(sim, POOL_DATA, h.nr_data + 1);
			if (!err) {
				sim->s.pools[POOL_STEP].nr = h.nr_steps + 1;
				sim->s.pools[POOL_DATA].nr = h.nr_data + 1;
				for (uint32_t i = 0; i < h.nr_steps; i++)
					memcpy(pool_ptr(sim, POOL_STEP, i + 1), &steps[i], sizeof(*steps));
				for (uint32_t i = 0; i < h.nr_data; i++)
					memcpy(pool_ptr(sim, POOL_DATA, i + 1), &data[i], sizeof(*data));
			}
		}
		if (!err) {
			page_alloc_init(sim);
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
				for (uint32_t t = 0; t < procs[i].threads; t++)
					task_ptr(sim, procs[i].first_task + t)->alive = 1;
			}
			if (err == MMSIM_EOOM) {
				sim->load_msg = "machine.memory too small for the processes' page tables";
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

/* ------------------------------------------------------------- running */

static uint64_t offset_adjust(const struct mmsim_state *s)
{
	uint64_t adj = 0;

	for (uint32_t i = 0; i < s->nr_loops; i++)
		adj += s->loops[i].i * s->loops[i].stride;
	return adj;
}

static int check_task(struct mmsim *sim, uint32_t task)
{
	if (!task_ptr(sim, task)->alive)
		return sim_error(sim, MMSIM_ENOTASK, 0, task);
	return 0;
}

static int preload_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t file = s->preload_file;
	struct file *f = file_ptr(sim, file);
	uint64_t total = DIV_ROUND_UP(f->i_size, PAGE_SIZE);
	uint32_t n;
	int trace_on = sim->trace, err;

	s->cur_step = MMSIM_NONE;
	s->cur_task = MMSIM_NONE;
	if (!(f->flags & MMSIM_FILE_CACHED) || !total) {
		s->preload_file++;
		return 0;
	}
	n = (uint32_t)MIN((uint64_t)MMSIM_PRELOAD_CHUNK, total - s->preload_pgoff);
	sim->trace = 0; /* one summary event, not one per page */
	err = file_preload(sim, file, s->preload_pgoff, n);
	sim->trace = trace_on;
	if (err)
		return sim_error(sim, err, 0, total);
	s->preload_pgoff += n;
	s->work_done += n;
	if (s->preload_pgoff == total) {
		trace(sim, MMSIM_EV_PRELOAD, 0, file, (uint32_t)total, 0, 0);
		s->preload_file++;
		s->preload_pgoff = 0;
	}
	return 0;
}

/* range [off, off + len) of a map name in the task's process */
static int map_range(struct mmsim *sim, uint32_t task, uint32_t map, uint64_t off, uint64_t len,
		     bool has_len, uint64_t *start, uint64_t *out_len)
{
	const struct maprec *m = maprec_find(sim, task_ptr(sim, task)->mm, map);

	if (!m)
		return sim_error(sim, MMSIM_ENOMAP, 0, map);
	if (off > m->len)
		return sim_error(sim, MMSIM_EINVAL, m->start + off, m->len);
	if (!has_len)
		len = m->len - off;
	if (len > m->len - off)
		return sim_error(sim, MMSIM_EINVAL, m->start + off, m->len);
	*start = m->start + off;
	*out_len = len;
	return 0;
}

static int access_begin(struct mmsim *sim, const struct mmsim_step *st, uint64_t adj)
{
	struct mmsim_state *s = &sim->s;
	uint32_t first, n, proc;
	uint64_t total = 0;

	if (st->task & MMSIM_TASK_ALL) {
		proc = st->task & ~MMSIM_TASK_ALL;
		first = mm_ptr(sim, proc)->first_task;
		n = mm_ptr(sim, proc)->nr_threads;
	} else {
		first = st->task;
		n = 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t task = first + i;
		struct task_struct *t = task_ptr(sim, task);
		uint32_t map = (st->flags & MMSIM_STEPF_MAPLIST) ? (uint32_t)prog_data(sim, (uint32_t)st->addr + i)
								 : st->map;
		uint64_t start, len;
		int err = check_task(sim, task);

		if (!err)
			err = map_range(sim, task, map, st->offset + adj, st->length,
					st->flags & MMSIM_STEPF_LENGTH, &start, &len);
		if (err)
			return err;
		t->acc_start = start;
		t->acc_stride = st->stride;
		t->acc_slots = DIV_ROUND_UP(len, st->stride);
		t->acc_pos = 0;
		t->acc_key = splitmix64(s->hdr.seed ^ splitmix64(((uint64_t)s->steps_executed << 16) | i));
		switch (st->kind) {
		case MMSIM_PAT_UNIFORM:
			t->acc_len = t->acc_slots ? st->count : 0;
			break;
		case MMSIM_PAT_LIST:
			t->acc_len = st->ndata;
			for (uint32_t k = 0; k < st->ndata; k++)
				if (prog_data(sim, st->data + k) >= len >> PAGE_SHIFT)
					return sim_error(sim, MMSIM_EINVAL, start, prog_data(sim, st->data + k));
			break;
		default:
			t->acc_len = t->acc_slots;
		}
		total += t->acc_len;
	}
	s->acc_task0 = first;
	s->acc_nthreads = n;
	s->acc_cur = 0;
	s->acc_write = (st->flags & MMSIM_STEPF_WRITE) != 0;
	s->acc_pattern = st->kind;
	s->acc_remaining = total;
	s->acc_active = total != 0;
	return 0;
}

static int debug_vm_check(struct mmsim *sim)
{
	if (!sim->debug_vm)
		return 0;
	if (mmsim_check(sim, sim->check_msg, sizeof(sim->check_msg)))
		return sim_error(sim, MMSIM_EINVARIANT, 0, 0);
	return 0;
}

/* the next touch of the current access step: which thread, which address (no side effects) */
static uint32_t next_touch(struct mmsim *sim, uint32_t *slot, uint64_t *addr)
{
	struct mmsim_state *s = &sim->s;
	const struct mmsim_step *st = step_ptr(sim, s->cur_step);
	uint32_t i = s->acc_cur;
	struct task_struct *t;

	for (uint32_t k = 0; k < s->acc_nthreads; k++, i = (i + 1) % s->acc_nthreads)
		if (task_ptr(sim, s->acc_task0 + i)->acc_pos < task_ptr(sim, s->acc_task0 + i)->acc_len)
			break;
	t = task_ptr(sim, s->acc_task0 + i);
	switch (s->acc_pattern) {
	case MMSIM_PAT_RANDOM:
		*addr = t->acc_start + permute_index(t->acc_key, t->acc_pos, t->acc_slots) * t->acc_stride;
		break;
	case MMSIM_PAT_UNIFORM:
		*addr = t->acc_start + random_index(t->acc_key, t->acc_pos, t->acc_slots) * t->acc_stride;
		break;
	case MMSIM_PAT_LIST:
		*addr = t->acc_start + prog_data(sim, st->data + (uint32_t)t->acc_pos) * PAGE_SIZE;
		break;
	default:
		*addr = t->acc_start + t->acc_pos * t->acc_stride;
	}
	*slot = i;
	return s->acc_task0 + i;
}

static int access_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t i, task;
	struct task_struct *t;
	uint64_t addr;
	int err;

	task = next_touch(sim, &i, &addr);
	t = task_ptr(sim, task);
	s->cur_task = task;
	err = handle_user_access(sim, task, addr, s->acc_write);
	t->acc_pos++;
	s->acc_remaining--;
	s->acc_cur = (i + 1) % s->acc_nthreads;
	s->work_done++;
	if (err)
		return err;
	if (!s->acc_remaining) {
		flush_access_run(sim);
		s->acc_active = 0;
		return debug_vm_check(sim);
	}
	/*
	 * Tracing: a run of fault-free touches is one event, emitted when the
	 * run ends. End it here, in the operation of its last touch, when the
	 * next touch will not extend it, so that the operation boundary before
	 * a fault has every earlier touch counted (a view stopped at the fault
	 * shows the touches that came before it).
	 */
	if (unlikely(sim->trace) && s->run_count) {
		uint32_t ni;
		uint64_t naddr;
		uint32_t ntask = next_touch(sim, &ni, &naddr);

		if (ntask != s->run_task || !user_access_would_hit(sim, ntask, naddr, s->acc_write))
			flush_access_run(sim);
	}
	return 0;
}

static uint64_t folio_field(const struct mmsim *sim, uint32_t pfn, uint32_t field)
{
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);

	switch (field) {
	case MMSIM_FOLIO_MAPCOUNT:
		return (uint64_t)folio_mapcount(sim, head);
	case MMSIM_FOLIO_ENTIRE_MAPCOUNT:
		return folio_test_large(folio) ? (uint64_t)(pfn_to_page(sim, head + 1)->_entire_mapcount + 1) : 0;
	case MMSIM_FOLIO_LIKELY_SHARED:
		return folio_likely_mapped_shared(sim, head);
	case MMSIM_FOLIO_ORDER:
		return folio_order(sim, head);
	case MMSIM_FOLIO_REFCOUNT:
		return (uint64_t)folio->_refcount;
	case MMSIM_FOLIO_PAGE_MAPCOUNT:
		return (uint64_t)(pfn_to_page(sim, pfn)->_mapcount + 1);
	}
	return MMSIM_UNLIMITED;
}

static int do_expect(struct mmsim *sim, const struct mmsim_step *st, uint64_t adj)
{
	struct mmsim_state *s = &sim->s;
	uint32_t failed = 0, pfn = MMSIM_NONE;

	for (uint32_t i = 0; i < st->ndata; i += 2) {
		uint64_t key = prog_data(sim, st->data + i), want = prog_data(sim, st->data + i + 1);
		uint64_t actual;

		switch (MMSIM_EXPECT_KIND(key)) {
		case MMSIM_EXPECT_COUNTER:
			actual = s->counters[key & 0xffff];
			break;
		case MMSIM_EXPECT_TASK_COUNTER:
			actual = task_ptr(sim, (uint32_t)(key >> 16))->counters[key & 0xffff];
			break;
		case MMSIM_EXPECT_FOLIO_AT: {
			uint32_t task = (uint32_t)(key >> 16);
			uint64_t start, len, *pte;
			int err = check_task(sim, task);

			if (!err)
				err = map_range(sim, task, (uint32_t)(key & 0xffff), want + adj, PAGE_SIZE, true,
						&start, &len);
			if (err)
				return err;
			pte = walk_pte(sim, mm_ptr(sim, task_ptr(sim, task)->mm), start);
			pfn = pte && pte_present(*pte) && !(*pte & MMSIM_PTE_SPECIAL) ? pte_pfn(*pte) : MMSIM_NONE;
			continue;
		}
		default: /* MMSIM_EXPECT_FOLIO_FIELD */
			actual = pfn == MMSIM_NONE ? MMSIM_UNLIMITED : folio_field(sim, pfn, key & 0xffff);
		}
		if (actual != want) {
			if (s->nr_fails < MMSIM_MAX_FAILS)
				s->fails[s->nr_fails] = (struct mmsim_expect_failure){
					.step = s->cur_step, .item = i / 2, .key = key,
					.expected = want, .actual = actual,
				};
			s->nr_fails++;
			failed++;
		}
	}
	trace(sim, MMSIM_EV_EXPECT, 0, failed == 0, st->ndata / 2, failed, 0);
	return 0;
}

static int step_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t pc = s->pc;
	const struct mmsim_step *st = step_ptr(sim, pc);
	uint64_t adj = offset_adjust(s);
	bool single = st->op == MMSIM_OP_MMAP || st->op == MMSIM_OP_MUNMAP ||
		      st->op == MMSIM_OP_MADVISE || st->op == MMSIM_OP_FORK || st->op == MMSIM_OP_EXIT;
	int err = 0;

	s->cur_step = pc;
	s->cur_task = single || (st->op == MMSIM_OP_ACCESS && !(st->task & MMSIM_TASK_ALL)) ? st->task
											     : MMSIM_NONE;
	if (st->op == MMSIM_OP_REPEAT) {
		s->pc++;
		if (st->count) {
			s->loops[s->nr_loops++] = (struct loop_state){
				.start = pc + 1, .end = pc + 1 + (uint32_t)st->addr, .i = 0,
				.times = st->count, .stride = st->stride,
			};
		} else {
			s->pc = pc + 1 + (uint32_t)st->addr;
		}
		return 0;
	}
	trace(sim, MMSIM_EV_STEP, 0, st->op, pc, 0, 0);
	s->work_done++;
	s->pc++;
	s->steps_executed++;
	if (single && (err = check_task(sim, st->task)))
		return err;
	switch (st->op) {
	case MMSIM_OP_MMAP:
		err = do_mmap(sim, st->task, st, adj);
		break;
	case MMSIM_OP_MUNMAP:
	case MMSIM_OP_MADVISE: {
		uint64_t start, len;

		err = map_range(sim, st->task, st->map, st->offset + adj, st->length,
				st->flags & MMSIM_STEPF_LENGTH, &start, &len);
		if (err)
			break;
		if (st->op == MMSIM_OP_MUNMAP)
			err = do_munmap(sim, mm_ptr(sim, task_ptr(sim, st->task)->mm), start, len);
		else
			err = do_madvise(sim, task_ptr(sim, st->task)->mm, start, len, st->kind);
		break;
	}
	case MMSIM_OP_ACCESS:
		err = access_begin(sim, st, adj);
		if (!err && !s->acc_active)
			err = debug_vm_check(sim);
		return err;
	case MMSIM_OP_FORK: {
		uint32_t parent = task_ptr(sim, st->task)->mm, child = st->file;
		struct mm_struct *cmm = mm_ptr(sim, child);

		if (cmm->alive || task_ptr(sim, cmm->first_task)->alive || cmm->pgd)
			return sim_error(sim, MMSIM_EEXIST, 0, child);
		err = dup_mm(sim, parent, child);
		if (err)
			return sim_error(sim, err, 0, child);
		task_ptr(sim, cmm->first_task)->alive = 1;
		trace(sim, MMSIM_EV_FORK, 0, parent, child, 0, 0);
		break;
	}
	case MMSIM_OP_EXIT: {
		uint32_t mmid = task_ptr(sim, st->task)->mm;
		struct mm_struct *mm = mm_ptr(sim, mmid);

		exit_mmap(sim, mmid);
		for (uint32_t t = 0; t < mm->nr_threads; t++)
			task_ptr(sim, mm->first_task + t)->alive = 0;
		trace(sim, MMSIM_EV_EXIT, 0, mmid, 0, 0, 0);
		break;
	}
	case MMSIM_OP_EXPECT:
		err = do_expect(sim, st, adj);
		break;
	case MMSIM_OP_SAY:
		trace(sim, MMSIM_EV_SAY, 0, st->data, 0, 0, 0);
		break;
	default:
		break;
	}
	if (err)
		return err;
	return debug_vm_check(sim);
}

static int run_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;

	if (s->preload_file < s->hdr.nr_files)
		return preload_op(sim);
	if (s->acc_active)
		return access_op(sim);
	while (s->nr_loops && s->pc == s->loops[s->nr_loops - 1].end) {
		struct loop_state *l = &s->loops[s->nr_loops - 1];

		if (++l->i < l->times)
			s->pc = l->start;
		else
			s->nr_loops--;
	}
	if (s->pc >= s->hdr.nr_steps) {
		s->finished = 1;
		s->cur_step = MMSIM_NONE;
		s->cur_task = MMSIM_NONE;
		return 0;
	}
	return step_op(sim);
}

int mmsim_run(struct mmsim *sim, uint64_t work_budget, uint64_t stop_event)
{
	struct mmsim_state *s = &sim->s;
	uint64_t budget_end;

	if (!s->loaded)
		return MMSIM_RUN_ERROR;
	if (s->err.code)
		return MMSIM_RUN_ERROR;
	budget_end = s->work_done + work_budget < s->work_done ? UINT64_MAX : s->work_done + work_budget;
	for (;;) {
		int err;

		if (s->finished)
			return MMSIM_RUN_DONE;
		if (sim->trace && s->events_total >= stop_event)
			return MMSIM_RUN_STOP_EVENT;
		if (s->work_done >= budget_end)
			return MMSIM_RUN_WORK;
		if (sim->trace && sim->nr_ev >= sim->soft_cap_ev)
			return MMSIM_RUN_EVENTS_FULL;
		sim->op_start = 1;
		err = run_op(sim);
		if (err) {
			sim_error(sim, err, 0, 0);
			trace(sim, MMSIM_EV_ERROR, s->err.addr, (uint32_t)-s->err.code, s->err.step, 0, 0);
			return MMSIM_RUN_ERROR;
		}
	}
}

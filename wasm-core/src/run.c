/*
 * run.c - the interpreter: run a loaded program, one operation at a time.
 *
 * The interpreter is resumable at every *operation*: one chunk of a
 * `cached: all` preload, one user-space touch of an access step (with the
 * fault it may take), or one whole other step. Its position (pc, loop
 * stack, each thread's place in the current access step) is part of the
 * state, so a snapshot taken between two operations resumes exactly, and
 * pausing for a budget never changes the event stream.
 *
 * It turns steps into calls of the mm code with plain arguments (an mm, a
 * range, mmap's prot and flags, a task and an address): the mm code never
 * reads the program or the interpreter's position. Scenario map names are
 * resolved here (map_range). It also sets what is running (cur_step,
 * cur_task), with which trace.c stamps events and errors.
 *
 * Tracing: a run of touches that fault nowhere is one MMSIM_EV_ACCESS
 * event, coalesced here and emitted by the operation of the run's last touch
 * (access_op). Events lost because the host refused memory for the buffer
 * (trace.c) stop the run at the next operation boundary with MMSIM_ENOMEM.
 *
 * repeat: iteration i adds i * stride to every offset of the steps inside
 * (nested loops add up); the body is not unrolled. Entering a loop and
 * ending each iteration are operations too (no events), so every loop of
 * the interpreter is bounded by the work budget.
 */
#include "internal.h"
#include "filemap.h"
#include "memory.h"
#include "mmap.h"
#include "prng.h"
#include "rmap.h"
#include "vmacache.h"
#include "vmscan.h"
#include "writeback.h"

const char *mmsim_check_message(const struct mmsim *sim)
{
	return sim->check_msg;
}
uint64_t mmsim_work_done(const struct mmsim *sim)
{
	return sim->s.work_done;
}
uint64_t mmsim_work_total(const struct mmsim *sim)
{
	return sim->s.work_total;
}
int mmsim_finished(const struct mmsim *sim)
{
	return (int)sim->s.finished;
}
uint32_t mmsim_steps_executed(const struct mmsim *sim)
{
	return sim->s.steps_executed;
}
uint32_t mmsim_nr_expect_failures(const struct mmsim *sim)
{
	return sim->s.nr_fails;
}

const struct mmsim_expect_failure *mmsim_expect_failure(const struct mmsim *sim, uint32_t i)
{
	return i < MIN(sim->s.nr_fails, MMSIM_MAX_FAILS) ? &sim->s.fails[i] : NULL;
}

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
		trace_mmsim_file_preload(sim, file, total);
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
		uint32_t map = (st->flags & MMSIM_STEPF_MAPLIST) ?
				       (uint32_t)prog_data(sim, (uint32_t)st->addr + i) :
				       st->map;
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
		t->acc_key = splitmix64(s->hdr.seed ^
					splitmix64(((uint64_t)s->steps_executed << 16) | i));
		switch (st->kind) {
		case MMSIM_PAT_UNIFORM:
			t->acc_len = t->acc_slots ? st->count : 0;
			break;
		case MMSIM_PAT_LIST:
			t->acc_len = st->ndata;
			for (uint32_t k = 0; k < st->ndata; k++)
				if (prog_data(sim, st->data + k) >= len >> PAGE_SHIFT)
					return sim_error(sim, MMSIM_EINVAL, start,
							 prog_data(sim, st->data + k));
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

/* the address of touch `pos` of a thread in a random order (next_touch()'s arithmetic) */
static inline uint64_t random_touch(uint32_t pattern, const struct task_struct *t, uint64_t pos)
{
	uint64_t slot = pattern == MMSIM_PAT_RANDOM ? permute_index(t->acc_key, pos, t->acc_slots) :
						      random_index(t->acc_key, pos, t->acc_slots);

	return t->acc_start + slot * t->acc_stride;
}

/*
 * Untraced, one thread in a random order: the touches' addresses are worked
 * out in batches, TOUCH_BATCH to 2 * TOUCH_BATCH touches ahead, and their
 * PTEs fetched together (mmu_prefetch), so that each walk finds its PTE in
 * the cache and the fetches' waits overlap.
 */
#define TOUCH_BATCH 4

static void touch_ahead(struct mmsim *sim, const struct task_struct *t, uint64_t *ring,
			uint64_t from, uint64_t to)
{
	uint64_t fetched = 0;

	if (to > t->acc_len)
		to = t->acc_len;
	/* the addresses first, then the fetches back to back: their waits overlap */
	for (uint64_t pos = from; pos < to; pos++)
		ring[pos % (2 * TOUCH_BATCH)] = random_touch(sim->s.acc_pattern, t, pos);
	for (uint64_t pos = from; pos < to; pos++)
		fetched ^= mmu_prefetch(sim, sim->s.acc_task0, ring[pos % (2 * TOUCH_BATCH)]);
	sim->prefetch_sink ^= fetched;
}

/* the next touch of the current access step: which thread, which address (no side effects) */
static uint32_t next_touch(struct mmsim *sim, uint32_t *slot, uint64_t *addr)
{
	struct mmsim_state *s = &sim->s;
	const struct mmsim_step *st = step_ptr(sim, s->cur_step);
	uint32_t i = s->acc_cur;
	struct task_struct *t;

	for (uint32_t k = 0; k < s->acc_nthreads; k++, i = (i + 1) % s->acc_nthreads)
		if (task_ptr(sim, s->acc_task0 + i)->acc_pos <
		    task_ptr(sim, s->acc_task0 + i)->acc_len)
			break;
	t = task_ptr(sim, s->acc_task0 + i);
	switch (s->acc_pattern) {
	case MMSIM_PAT_RANDOM:
	case MMSIM_PAT_UNIFORM:
		*addr = random_touch(s->acc_pattern, t, t->acc_pos);
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

/* end the coalesced run of fault-free touches: one MMSIM_EV_ACCESS, stamped with its task */
static void flush_access_run(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t task = s->cur_task;

	if (!s->run_count)
		return;
	s->cur_task = s->run_task;
	trace_mmsim_access(sim, s->run_first, s->run_count, s->run_write, s->run_last);
	s->cur_task = task;
	s->run_count = 0;
}

/* a fault-free touch joins the run (tracing only) */
static void access_run_add(struct mmsim *sim, uint32_t task, uint64_t addr, bool write)
{
	struct mmsim_state *s = &sim->s;

	if (s->run_count && (s->run_write != write || s->run_task != task))
		flush_access_run(sim);
	if (!s->run_count) {
		s->run_first = addr;
		s->run_task = task;
		s->run_write = write;
	}
	s->run_count++;
	s->run_last = addr;
}

/* one touch: through the MMU, or a page fault (which ends the run of fault-free touches first) */
static int touch(struct mmsim *sim, uint32_t task, uint64_t addr, bool write)
{
	if (likely(user_access(sim, task, addr, write))) {
		if (unlikely(sim->trace))
			access_run_add(sim, task, addr, write);
		return 0;
	}
	flush_access_run(sim);
	return handle_user_fault(sim, task, addr, write);
}

/*
 * An access step's touches, each an operation: a tick of the clock, a unit
 * of work. Traced, one per call: mmsim_run() checks between operations
 * what tracing needs (lost events, a stop event, a full buffer). Untraced,
 * none of that can change while a step's touches go on, so they run here
 * back to back up to the caller's budget, and the machine goes through the
 * same states as one operation at a time (a native test compares the
 * snapshots of both ways; the parity and golden tests, the counters and
 * events). One thread needs no turn-taking; in order, it takes its
 * addresses directly.
 */
static inline __attribute__((always_inline)) int access_ops(struct mmsim *sim, const bool traced,
							    const bool in_order, const bool ahead)
{
	struct mmsim_state *s = &sim->s;
	const uint64_t end = traced ? s->work_done + 1 : sim->budget_end;
	const bool one = s->acc_nthreads == 1;
	const bool write = s->acc_write;
	struct task_struct *t = task_ptr(sim, s->acc_task0);
	uint64_t ring[2 * TOUCH_BATCH];
	int err;

	if (ahead)
		touch_ahead(sim, t, ring, t->acc_pos, t->acc_pos + 2 * TOUCH_BATCH);
	do {
		uint32_t i = 0, task = s->acc_task0;
		uint64_t addr;

		if (in_order) {
			addr = t->acc_start + t->acc_pos * t->acc_stride;
		} else if (ahead) {
			/* worked out at least TOUCH_BATCH touches ago, its PTE fetched then */
			const uint64_t pos = t->acc_pos;

			addr = ring[pos % (2 * TOUCH_BATCH)];
			if ((pos + 1) % TOUCH_BATCH == 0)
				touch_ahead(sim, t, ring, pos + TOUCH_BATCH + 1,
					    pos + 2 * TOUCH_BATCH + 1);
		} else if (one)
			next_touch(sim, &i, &addr); /* the one thread's turn: task and t stay */
		else
			t = task_ptr(sim, task = next_touch(sim, &i, &addr));
		s->cur_task = task;
		/* untraced, the MMU or the fault (touch() joins runs of hits for the trace) */
		if (traced)
			err = touch(sim, task, addr, write);
		else
			err = likely(user_access(sim, task, addr, write)) ?
				      0 :
				      handle_user_fault(sim, task, addr, write);
		t->acc_pos++;
		s->acc_remaining--;
		if (!one)
			s->acc_cur = (i + 1) % s->acc_nthreads;
		s->work_done++;
		if (err)
			return err;
	} while (s->acc_remaining && s->work_done < end);
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
	if (traced && s->run_count) {
		uint32_t ni;
		uint64_t naddr;
		uint32_t ntask = next_touch(sim, &ni, &naddr);

		if (ntask != s->run_task || !user_access_would_hit(sim, ntask, naddr, s->acc_write))
			flush_access_run(sim);
	}
	return 0;
}

/*
 * The loop above made three times by the compiler: traced; untraced, one
 * thread in order (the common case: its addresses directly, no test of
 * tracing or of the pattern per touch); untraced, the rest.
 */
static int access_op(struct mmsim *sim)
{
	const struct mmsim_state *s = &sim->s;

	if (sim->trace)
		return access_ops(sim, true, false, false);
	if (s->acc_nthreads == 1 && s->acc_pattern == MMSIM_PAT_SEQUENTIAL)
		return access_ops(sim, false, true, false);
	if (s->acc_nthreads == 1 &&
	    (s->acc_pattern == MMSIM_PAT_RANDOM || s->acc_pattern == MMSIM_PAT_UNIFORM))
		return access_ops(sim, false, false, true);
	return access_ops(sim, false, false, false);
}

/*
 * An mmap step as mmap(2) arguments. The map name must be new in the
 * process; without a length the mapping runs from offset to the file's end.
 */
static int mmap_step(struct mmsim *sim, const struct mmsim_step *st, uint64_t adj)
{
	uint32_t mmid = task_ptr(sim, st->task)->mm, file = st->file; /* file id + 1, 0 anonymous */
	uint64_t offset = st->offset + adj, len = st->length;
	uint32_t prot = PROT_READ | (st->flags & MMSIM_STEPF_WRITE ? PROT_WRITE : 0);
	uint32_t flags = (st->flags & MMSIM_STEPF_SHARED ? MAP_SHARED : MAP_PRIVATE) |
			 (st->flags & MMSIM_STEPF_FIXED ? MAP_FIXED : 0);

	if (maprec_find(sim, mmid, st->map))
		return sim_error(sim, MMSIM_EEXIST, 0, st->map);
	if (!(st->flags & MMSIM_STEPF_LENGTH)) {
		uint64_t size = file ? file_ptr(sim, file - 1)->i_size : 0;

		if (!file || offset >= size)
			return sim_error(sim, MMSIM_EINVAL, offset, size);
		len = size - offset;
	}
	return do_mmap(sim, mmid, file, st->addr, len, prot, flags, offset, st->map);
}

static uint64_t folio_field(struct mmsim *sim, uint32_t pfn, uint32_t field)
{
	uint32_t head = compound_head(sim, pfn);
	const struct page *folio = pfn_to_page(sim, head);

	switch (field) {
	case MMSIM_FOLIO_MAPCOUNT:
		/* 6.9's folio_mapcount() of a large folio reads every page (unless none is PTE-mapped); 6.10 one field */
		if (folio_test_large(folio) && !sim->s.hdr.large_mapcount &&
		    (pfn_to_page(sim, head + 1)->_nr_pages_mapped & FOLIO_PAGES_MAPPED))
			count_vm_events(sim, MMSIM_MODEL_FOLIO_MAPCOUNT_PAGES_VISITED,
					1u << folio_order(sim, head));
		return (uint64_t)folio_mapcount(sim, head);
	case MMSIM_FOLIO_NR_PAGES_MAPPED:
		return folio_test_large(folio) ?
			       (uint64_t)pfn_to_page(sim, head + 1)->_nr_pages_mapped :
			       0;
	case MMSIM_FOLIO_LARGE_MAPCOUNT:
		return folio_test_large(folio) ?
			       (uint64_t)(pfn_to_page(sim, head + 1)->_large_mapcount + 1) :
			       (uint64_t)(folio->_mapcount + 1);
	case MMSIM_FOLIO_ENTIRE_MAPCOUNT:
		return folio_test_large(folio) ?
			       (uint64_t)(pfn_to_page(sim, head + 1)->_entire_mapcount + 1) :
			       0;
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
	uint64_t entry = 0;

	for (uint32_t i = 0; i < st->ndata; i += 2) {
		uint64_t key = prog_data(sim, st->data + i),
			 want = prog_data(sim, st->data + i + 1);
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
			uint64_t start, len;
			int err = check_task(sim, task);

			if (!err)
				err = map_range(sim, task, (uint32_t)(key & 0xffff), want + adj,
						PAGE_SIZE, true, &start, &len);
			if (err)
				return err;
			/* the page mapped there, by a PTE or a PMD leaf (MMSIM_NONE: none, or the zero page) */
			entry = 0;
			pfn = follow_page_pfn(sim, mm_ptr(sim, task_ptr(sim, task)->mm), start,
					      &entry);
			continue;
		}
		default: /* MMSIM_EXPECT_FOLIO_FIELD */
			/* no folio: MMSIM_UNLIMITED for nothing mapped, one less for the (huge) zero page */
			actual = pfn != MMSIM_NONE ? folio_field(sim, pfn, key & 0xffff) :
				 pte_present(entry) && (entry & MMSIM_PTE_SPECIAL) ?
						     MMSIM_UNLIMITED - 1 :
						     MMSIM_UNLIMITED;
		}
		if (actual != want) {
			if (s->nr_fails < MMSIM_MAX_FAILS)
				s->fails[s->nr_fails] = (struct mmsim_expect_failure){
					.step = s->cur_step,
					.item = i / 2,
					.key = key,
					.expected = want,
					.actual = actual,
				};
			s->nr_fails++;
			failed++;
		}
	}
	trace_mmsim_expect(sim, failed == 0, st->ndata / 2, failed);
	return 0;
}

static int step_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t pc = s->pc;
	const struct mmsim_step *st = step_ptr(sim, pc);
	uint64_t adj = offset_adjust(s);
	bool single = MMSIM_OP_ONE_TASK(st->op);
	int err = 0;

	s->cur_step = pc;
	s->cur_task = single || (st->op == MMSIM_OP_ACCESS && !(st->task & MMSIM_TASK_ALL)) ?
			      st->task :
			      MMSIM_NONE;
	if (st->op == MMSIM_OP_REPEAT) {
		s->work_done++; /* entering a loop is an operation (work_total counts it too) */
		s->pc++;
		if (st->count) {
			s->loops[s->nr_loops++] = (struct loop_state){
				.start = pc + 1,
				.end = pc + 1 + (uint32_t)st->addr,
				.i = 0,
				.times = st->count,
				.stride = st->stride,
			};
		} else {
			s->pc = pc + 1 + (uint32_t)st->addr;
		}
		return 0;
	}
	trace_mmsim_step(sim, st->op, pc);
	s->work_done++;
	s->pc++;
	s->steps_executed++;
	/* a step is a tick of the clock (a touch is one too: user_access) */
	if (st->op != MMSIM_OP_ACCESS)
		sim_tick(sim);
	if (single && (err = check_task(sim, st->task)))
		return err;
	switch (st->op) {
	case MMSIM_OP_MMAP:
		err = mmap_step(sim, st, adj);
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
		/* VC-7: copy_mm() flushes the child's slots; its seqnum is the forking task's (dup_task_struct) */
		vmacache_task_init(sim, cmm->first_task, st->task);
		/* the 2004 prefault's prediction is task_struct's: dup_task_struct copies it */
		task_ptr(sim, cmm->first_task)->anon_fault_next_addr =
			task_ptr(sim, st->task)->anon_fault_next_addr;
		task_ptr(sim, cmm->first_task)->anon_fault_order =
			task_ptr(sim, st->task)->anon_fault_order;
		trace_mmsim_fork(sim, parent, child);
		break;
	}
	case MMSIM_OP_EXIT: {
		uint32_t mmid = task_ptr(sim, st->task)->mm;
		struct mm_struct *mm = mm_ptr(sim, mmid);

		exit_mmap(sim, mmid);
		for (uint32_t t = 0; t < mm->nr_threads; t++)
			task_ptr(sim, mm->first_task + t)->alive = 0;
		trace_mmsim_exit(sim, mmid);
		break;
	}
	case MMSIM_OP_READ:
		err = generic_file_read(sim, st->file, st->offset + adj, st->length);
		break;
	case MMSIM_OP_WRITE:
		err = generic_file_write(sim, st->file, st->offset + adj, st->length);
		break;
	case MMSIM_OP_FADVISE:
		err = do_fadvise_dontneed(sim, st->file, st->offset + adj, st->length);
		break;
	case MMSIM_OP_FSYNC:
		err = do_fsync(sim, st->file);
		break;
	case MMSIM_OP_EXPECT:
		err = do_expect(sim, st, adj);
		break;
	case MMSIM_OP_SAY:
		trace_mmsim_say(sim, st->data);
		break;
	default:
		break;
	}
	if (err)
		return err;
	return debug_vm_check(sim);
}

/*
 * The machine's own work between operations, at each tick of the clock:
 * read I/O that is done, writeback that is done (rotating PG_reclaim
 * pages), one pass of kswapd if it is awake, the flusher if it was woken.
 * Read completions belong to the operation that ticked (as before the
 * clock drove anything else); the rest is nobody's task.
 */
void background_work(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;
	uint32_t task = s->cur_task;

	if (s->io_count)
		io_advance(sim);
	s->cur_task = MMSIM_NONE;
	if (s->wb_count)
		writeback_advance(sim);
	if (s->kswapd.running)
		kswapd_run(sim);
	if (s->flusher_woken)
		flusher_run(sim);
	s->cur_task = task;
}

static int run_op(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;

	if (s->preload_file < s->hdr.nr_files)
		return preload_op(sim);
	if (s->acc_active)
		return access_op(sim);
	/*
	 * The end of a loop's body is an operation of its own, one per
	 * iteration, so that an empty body (or one of only say steps) repeated
	 * 10^18 times is work like any other: the budget pauses it, and the
	 * estimate (load.c) counted it.
	 */
	if (s->nr_loops && s->pc == s->loops[s->nr_loops - 1].end) {
		struct loop_state *l = &s->loops[s->nr_loops - 1];

		s->work_done++;
		s->cur_step = MMSIM_NONE;
		s->cur_task = MMSIM_NONE;
		if (++l->i < l->times)
			s->pc = l->start;
		else
			s->nr_loops--;
		return 0;
	}
	if (s->pc >= s->hdr.nr_steps) {
		s->finished = 1;
		s->cur_step = MMSIM_NONE;
		s->cur_task = MMSIM_NONE;
		/*
		 * Every run ends with the cheap invariant checks, release builds
		 * too: a model that broke them can never report ok (debug_vm runs
		 * every check after every step as well)
		 */
		if (!sim->debug_vm &&
		    mmsim_check_cheap(sim, sim->check_msg, sizeof(sim->check_msg)))
			return MMSIM_EINVARIANT;
		return 0;
	}
	return step_op(sim);
}

/*
 * The event buffer could not grow (trace.c): the stream has a hole. Stop
 * here, at an operation boundary, and say so. The error event goes first,
 * so that the detail (events lost) counts it too if it was lost as well.
 */
static int events_dropped(struct mmsim *sim)
{
	struct mmsim_state *s = &sim->s;

	trace_mmsim_error(sim, 0, -MMSIM_ENOMEM, s->cur_step);
	sim->load_msg = "the host refused memory for the event buffer: events were lost "
			"(the error's detail says how many)";
	sim_error(sim, MMSIM_ENOMEM, 0, s->counters[MMSIM_MODEL_EVENTS_DROPPED]);
	return MMSIM_RUN_ERROR;
}

int mmsim_run(struct mmsim *sim, uint64_t work_budget, uint64_t stop_event)
{
	struct mmsim_state *s = &sim->s;
	uint64_t budget_end;

	if (!s->loaded)
		return MMSIM_RUN_ERROR;
	/* a restored capture: half an operation done, and its rest is not in the state */
	if (unlikely(sim->frozen)) {
		sim->load_msg = mmsim_frozen_msg;
		return MMSIM_RUN_ERROR;
	}
	if (s->err.code)
		return MMSIM_RUN_ERROR;
	budget_end = s->work_done + work_budget < s->work_done ? UINT64_MAX :
								 s->work_done + work_budget;
	sim->budget_end = budget_end;
	for (;;) {
		int err;

		if (unlikely(s->counters[MMSIM_MODEL_EVENTS_DROPPED]))
			return events_dropped(sim);
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
			trace_mmsim_error(sim, s->err.addr, -s->err.code, s->err.step);
			return MMSIM_RUN_ERROR;
		}
	}
}

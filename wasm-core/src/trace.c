/*
 * trace.c - what the core reports: the event stream, the error record, and
 * the names of events and counters.
 *
 * Events are appended to a host-side buffer; mmsim_run() returns
 * MMSIM_RUN_EVENTS_FULL at the next operation boundary once the buffer holds
 * event_capacity records. An operation that emits more (a huge munmap) grows
 * the buffer rather than lose events. With tracing off nothing is recorded
 * and the cost is one predictable branch per trace point.
 *
 * If the host refuses the memory to grow the buffer (mmsim_config.max_bytes,
 * or the allocator says no), the event is lost, but never silently: it
 * counts in the model counter events_dropped, and mmsim_run() stops at the
 * next operation boundary with MMSIM_ENOMEM (detail: events lost), so a host
 * never shows a stream with holes in it as if it were whole.
 *
 * Captures: a host that shows the machine between two events of one
 * operation arms mmsim_capture_at(e); the state is saved right after event
 * e - 1 is recorded (mem.c), before the code goes on. The mm code emits each
 * event once the change it reports is made (a PTE set, a table installed,
 * a page freed), so that saved state is the state event e - 1 describes:
 * the views at cursor e agree with the log.
 */
#include "internal.h"

static const char *const event_names[MMSIM_NR_EVENT_TYPES] = {
#define MMSIM_X_NAME(id, name) name,
	MMSIM_EVENTS(MMSIM_X_NAME)
#undef MMSIM_X_NAME
};

static const char *const counter_names[MMSIM_NR_COUNTERS] = {
#define MMSIM_X_NAME(id, name) name,
	MMSIM_COUNTERS(MMSIM_X_NAME)
#undef MMSIM_X_NAME
};

static const char *const task_counter_names[MMSIM_NR_TASK_COUNTERS] = {
#define MMSIM_X_NAME(id, name) name,
	MMSIM_TASK_COUNTERS(MMSIM_X_NAME)
#undef MMSIM_X_NAME
};

const char *mmsim_event_name(uint32_t type)
{
	type &= MMSIM_EV_TYPE_MASK;
	return type < MMSIM_NR_EVENT_TYPES ? event_names[type] : "";
}

const char *mmsim_counter_name(uint32_t id)
{
	return id < MMSIM_NR_COUNTERS ? counter_names[id] : "";
}

const char *mmsim_task_counter_name(uint32_t id)
{
	return id < MMSIM_NR_TASK_COUNTERS ? task_counter_names[id] : "";
}

void trace_emit(struct mmsim *sim, uint32_t type, uint64_t addr, uint32_t a, uint32_t b, uint32_t c,
		uint32_t d)
{
	struct mmsim_event *e;

	if (sim->nr_ev == sim->cap_ev) {
		uint32_t cap = sim->cap_ev ? sim->cap_ev * 2 : 1024;
		struct mmsim_event *n = sim_alloc(sim, (size_t)cap * sizeof(*n));

		if (!n) {
			count_vm_event(sim, MMSIM_MODEL_EVENTS_DROPPED);
			return;
		}
		if (sim->ev)
			memcpy(n, sim->ev, (size_t)sim->nr_ev * sizeof(*n));
		sim_free(sim, sim->ev, (size_t)sim->cap_ev * sizeof(*n));
		sim->ev = n;
		sim->cap_ev = cap;
	}
	e = &sim->ev[sim->nr_ev++];
	e->type = (uint16_t)(type | (sim->op_start ? MMSIM_EVF_OP_START : 0));
	e->task = (uint16_t)(sim->s.cur_task == MMSIM_NONE ? 0xffff : sim->s.cur_task);
	e->step = sim->s.cur_step;
	e->addr = addr;
	e->a = a;
	e->b = b;
	e->c = c;
	e->d = d;
	sim->op_start = 0;
	sim->s.events_total++;
	if (unlikely(sim->s.events_total == sim->capture_at))
		capture_now(sim);
}

/*
 * The run's error record: the first error wins (a SIGSEGV deep in the fault
 * path is what the host hears about, not the interpreter's report that the
 * step failed). Stamped, like an event, with the current step and task.
 */
int sim_error(struct mmsim *sim, int code, uint64_t addr, uint64_t detail)
{
	struct mmsim_error_info *e = &sim->s.err;

	/*
	 * The mm code turns every failed allocation into -ENOMEM / VM_FAULT_OOM,
	 * as the kernel does; here the two causes part again: the host refused
	 * simulator memory (MMSIM_ENOMEM, detail: bytes in use), or
	 * machine.memory has no free frame (MMSIM_EOOM).
	 */
	if (code == MMSIM_EOOM && sim->host_refused) {
		code = MMSIM_ENOMEM;
		detail = sim->mem_bytes;
	}
	if (!e->code) {
		e->code = code;
		e->step = sim->s.cur_step;
		e->task = sim->s.cur_task;
		e->addr = addr;
		e->detail = detail;
	}
	return code;
}

const struct mmsim_error_info *mmsim_last_error(const struct mmsim *sim)
{
	return &sim->s.err;
}

void mmsim_set_trace(struct mmsim *sim, int on)
{
	sim->trace = on;
}
const struct mmsim_event *mmsim_events(const struct mmsim *sim)
{
	return sim->ev;
}
uint32_t mmsim_nr_events(const struct mmsim *sim)
{
	return sim->nr_ev;
}
void mmsim_events_clear(struct mmsim *sim)
{
	sim->nr_ev = 0;
}
uint64_t mmsim_events_total(const struct mmsim *sim)
{
	return sim->s.events_total;
}

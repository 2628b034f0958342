/*
 * prog.h - build mmsim programs in C for the unit tests (the TypeScript
 * compiler builds them from scenarios; this is its smallest twin).
 */
#ifndef MMSIM_PROG_H
#define MMSIM_PROG_H
#include <stdlib.h>
#include <string.h>

#include "mmsim.h"

struct prog {
	struct mmsim_prog_header h;
	struct mmsim_prog_file files[16];
	struct mmsim_prog_proc procs[16];
	struct mmsim_step steps[512];
	uint64_t data[4096];
	uint8_t *bytes;
	size_t len;
};

static inline void prog_init(struct prog *p, uint64_t memory)
{
	memset(p, 0, sizeof(*p));
	p->h.magic = MMSIM_PROG_MAGIC;
	p->h.abi = MMSIM_ABI_VERSION;
	p->h.seed = 1;
	MMSIM_HEADER_DEFAULTS(&p->h);
	/* the tests were written for the seeds' order-0 page cache; 6.18's large folios have their own */
	p->h.pagecache_large_folios = 0;
	p->h.memory = memory;
}

static inline uint32_t prog_file(struct prog *p, uint64_t size, int cached)
{
	p->files[p->h.nr_files] =
		(struct mmsim_prog_file){ .size = size, .flags = cached ? MMSIM_FILE_CACHED : 0 };
	return p->h.nr_files++;
}

static inline uint32_t prog_proc(struct prog *p, uint32_t threads, int forked)
{
	p->procs[p->h.nr_procs] = (struct mmsim_prog_proc){
		.threads = threads,
		.first_task = p->h.nr_tasks,
		.flags = forked ? MMSIM_PROC_FORKED : 0,
	};
	p->h.nr_tasks += threads;
	return p->h.nr_procs++;
}

static inline struct mmsim_step *prog_step(struct prog *p, uint8_t op)
{
	struct mmsim_step *s = &p->steps[p->h.nr_steps++];

	memset(s, 0, sizeof(*s));
	s->op = op;
	return s;
}

/* mmap of a file (file id) or anonymous (file = -1), whole file when len == 0 */
static inline struct mmsim_step *prog_mmap(struct prog *p, uint32_t task, uint32_t map, int file,
					   uint64_t offset, uint64_t len, int shared, int write)
{
	struct mmsim_step *s = prog_step(p, MMSIM_OP_MMAP);

	s->task = task;
	s->map = map;
	s->file = file < 0 ? 0 : (uint32_t)file + 1;
	s->offset = offset;
	s->length = len;
	s->flags = (len ? MMSIM_STEPF_LENGTH : 0) | (shared ? MMSIM_STEPF_SHARED : 0) |
		   (write ? MMSIM_STEPF_WRITE : 0);
	if (map + 1 > p->h.nr_maps)
		p->h.nr_maps = map + 1;
	return s;
}

/* a process, a second one for it to fork into, and one private anonymous read-write mapping (map 0) of len bytes */
static inline void prog_anon_pair(struct prog *p, uint64_t memory, uint64_t len)
{
	prog_init(p, memory);
	prog_proc(p, 1, 0);
	prog_proc(p, 1, 1);
	prog_mmap(p, 0, 0, -1, 0, len, 0, 1);
}

static inline struct mmsim_step *prog_access(struct prog *p, uint32_t task, uint32_t map, int write,
					     uint8_t pattern, uint64_t offset, uint64_t len)
{
	struct mmsim_step *s = prog_step(p, MMSIM_OP_ACCESS);

	s->task = task;
	s->map = map;
	s->kind = pattern;
	s->offset = offset;
	s->length = len;
	s->stride = 4096;
	s->flags = (len ? MMSIM_STEPF_LENGTH : 0) | (write ? MMSIM_STEPF_WRITE : 0);
	return s;
}

/* an access of the listed page indexes */
static inline struct mmsim_step *prog_touch(struct prog *p, uint32_t task, uint32_t map, int write,
					    const uint64_t *pages, uint32_t n)
{
	struct mmsim_step *s = prog_access(p, task, map, write, MMSIM_PAT_LIST, 0, 0);

	s->data = p->h.nr_data;
	s->ndata = n;
	for (uint32_t i = 0; i < n; i++)
		p->data[p->h.nr_data++] = pages[i];
	return s;
}

/* read(2), write(2), fadvise(DONTNEED) of [offset, offset + len) of a file, and fsync */
static inline struct mmsim_step *prog_file_op(struct prog *p, uint8_t op, uint32_t task,
					      uint32_t file, uint64_t offset, uint64_t len)
{
	struct mmsim_step *s = prog_step(p, op);

	s->task = task;
	s->file = file;
	s->offset = offset;
	s->length = len;
	return s;
}

/* repeat: the steps added until prog_repeat_end() run `times` times, offsets + i x stride */
static inline uint32_t prog_repeat(struct prog *p, uint64_t times, uint64_t stride)
{
	struct mmsim_step *s = prog_step(p, MMSIM_OP_REPEAT);

	s->count = times;
	s->stride = stride;
	return p->h.nr_steps - 1;
}

static inline void prog_repeat_end(struct prog *p, uint32_t at)
{
	p->steps[at].addr = p->h.nr_steps - at - 1;
}

/* a step that does nothing but tick the clock */
static inline void prog_tick(struct prog *p)
{
	prog_step(p, MMSIM_OP_SAY);
}

static inline void prog_expect(struct prog *p, uint32_t counter, uint64_t value)
{
	struct mmsim_step *s = prog_step(p, MMSIM_OP_EXPECT);

	s->data = p->h.nr_data;
	s->ndata = 2;
	p->data[p->h.nr_data++] = ((uint64_t)MMSIM_EXPECT_COUNTER << 56) | counter;
	p->data[p->h.nr_data++] = value;
}

static uint8_t *prog_last_bytes; /* the builder owns one buffer, reused */

static inline size_t prog_build(struct prog *p)
{
	size_t n = sizeof(p->h) + p->h.nr_files * sizeof(p->files[0]) +
		   p->h.nr_procs * sizeof(p->procs[0]) + p->h.nr_steps * sizeof(p->steps[0]) +
		   p->h.nr_data * sizeof(p->data[0]);
	uint8_t *b;

	free(prog_last_bytes);
	p->bytes = b = prog_last_bytes = malloc(n);
	memcpy(b, &p->h, sizeof(p->h));
	b += sizeof(p->h);
	memcpy(b, p->files, p->h.nr_files * sizeof(p->files[0]));
	b += p->h.nr_files * sizeof(p->files[0]);
	memcpy(b, p->procs, p->h.nr_procs * sizeof(p->procs[0]));
	b += p->h.nr_procs * sizeof(p->procs[0]);
	memcpy(b, p->steps, p->h.nr_steps * sizeof(p->steps[0]));
	b += p->h.nr_steps * sizeof(p->steps[0]);
	memcpy(b, p->data, p->h.nr_data * sizeof(p->data[0]));
	p->len = n;
	return n;
}
#endif

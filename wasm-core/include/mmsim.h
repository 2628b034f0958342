/*
 * mmsim.h - a deterministic model of the Linux kernel's memory management
 *
 * What it is
 * ----------
 * One struct (struct mmsim) holds a whole simulated machine: page frames and
 * folios with the kernel's page flags, refcount and mapcount; processes (mm)
 * with threads (tasks); VMAs in a red-black tree; 4-level x86-64 page tables;
 * files with a page cache; the page-fault path with fault-around and
 * read-around; the LRU lists; vmstat counters. It runs a *program*: a scenario
 * compiled by the TypeScript loader (wasm-core/ts/compile.ts) into fixed-layout
 * records (struct mmsim_prog_header, _file, _proc, _step and a u64 data table).
 *
 * The core prints nothing and reads no files. It allocates only through
 * mmsim_config.alloc/free (malloc by default). It reports everything as
 * counters (enum mmsim_counter, kernel /proc/vmstat names) and as a stream of
 * fixed-layout events (struct mmsim_event, named like kernel tracepoints).
 * Native (gcc) and WebAssembly builds give bit-identical results: every choice
 * derives from the scenario's seed and no pointer value ever leaks into state
 * (everything is addressed by 32-bit indices).
 *
 * Usage
 * -----
 *     struct mmsim_config cfg;
 *     mmsim_config_default(&cfg);
 *     cfg.trace = 1;                            // record events
 *     struct mmsim *sim = mmsim_create(&cfg);
 *     int err = mmsim_load(sim, prog, prog_len); // < 0: bad program
 *     for (;;) {
 *         int st = mmsim_run(sim, MMSIM_UNLIMITED, MMSIM_UNLIMITED);
 *         // consume mmsim_events(sim)[0 .. mmsim_nr_events(sim)), then:
 *         mmsim_events_clear(sim);
 *         if (st != MMSIM_RUN_EVENTS_FULL) break;  // DONE or ERROR (or a budget)
 *     }
 *     uint64_t faults = mmsim_counter(sim, MMSIM_PGFAULT);
 *     mmsim_destroy(sim);
 *
 * mmsim_run() stops only between two *operations* (one user-space touch with
 * the fault it may take, or one whole non-access step), so a run interrupted by
 * a budget and resumed emits exactly the same events as an uninterrupted one.
 * The first event of each operation carries MMSIM_EVF_OP_START.
 *
 * Time travel: mmsim_snapshot_save() serialises the whole simulated state (not
 * the program, which is immutable once loaded); mmsim_snapshot_restore() puts
 * it back. Restore a snapshot taken at event e0 and call
 * mmsim_run(sim, MMSIM_UNLIMITED, e) to stand at the operation boundary e.
 *
 * Between two events of one operation (a fault half done): stand at the
 * operation's start, mmsim_capture_at(sim, e), run to the operation's end,
 * then mmsim_capture_restore(sim). The machine then holds the state events
 * 0 .. e-1 left, for the queries; it is *frozen* (mmsim_run() refuses) until
 * a snapshot is restored, since it cannot resume half an operation.
 *
 * Where the model follows which kernel is documented per mechanism at the top
 * of each src/ file; the rules come from docs/kernel.md.
 */
#ifndef MMSIM_H
#define MMSIM_H

#include <stddef.h>
#include <stdint.h>

/*
 * The interface shared with the hosts (enums, counters, events, the program
 * and query structs, the exported functions) is described once in
 * wasm-core/interface/ and generated into mmsim_gen.h.
 */
#include "mmsim_gen.h"

#define MMSIM_EXPECT_KIND(key) ((uint32_t)((key) >> 56))

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- config */

struct mmsim_config {
	int trace; /* record events */
	int debug_vm; /* run the invariant checker after every step */
	uint32_t event_capacity; /* event buffer size (records) */
	uint64_t max_bytes; /* refuse to allocate beyond this (host memory) */
	void *(*alloc)(size_t size, void *ctx);
	void (*free)(void *ptr, void *ctx);
	void *alloc_ctx;
};

/* --------------------------------------------------------------- C-only */

/* native hosts: a config with an allocator of their own (wasm hosts use mmsim_create_with) */
void mmsim_config_default(struct mmsim_config *cfg);
struct mmsim *mmsim_create(const struct mmsim_config *cfg);

#ifdef __cplusplus
}
#endif
#endif /* MMSIM_H */

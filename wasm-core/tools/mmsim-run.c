#define _POSIX_C_SOURCE 200809L
/*
 * mmsim-run - run a compiled program (the bytes wasm-core/ts/compile.ts
 * produces) with the native build of the core and print one JSON object:
 * counters, per-task counters, the status, a digest of the event stream,
 * timing and memory. The benchmark uses it as the native side, and the
 * parity test compares its output with the WebAssembly build's.
 *
 *   mmsim-run [--trace] [--debug-vm] [--repeat N] [--split W] PROGRAM...
 *
 * Several programs run one after another in the one process, each printing
 * its own line (the cold benchmark gives it every run the CLI makes).
 *
 * --split W times the first W operations (e.g. the cached: all preload)
 * of the programs named after it (a later --split changes it for those
 * that follow: the growth benchmark runs three sizes in one process)
 * apart from the rest ("preload_seconds" and "run_seconds" of the fastest
 * repeat; "runs" has every repeat's).
 *
 * This is a host program: it prints. The core it links does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mmsim.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* FNV-1a 64 over the event records, in order */
static uint64_t digest(uint64_t h, const struct mmsim_event *ev, uint32_t n)
{
	const uint8_t *p = (const uint8_t *)ev;

	for (size_t i = 0; i < (size_t)n * sizeof(*ev); i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* run to the end (or the budget), hashing and dropping events as they come */
static int run_drain(struct mmsim *sim, uint64_t budget, uint64_t *h, uint64_t *nev)
{
	uint64_t end = mmsim_work_done(sim) + budget < budget ? MMSIM_UNLIMITED :
								mmsim_work_done(sim) + budget;
	int status;

	for (;;) {
		status = mmsim_run(sim, end - mmsim_work_done(sim), MMSIM_UNLIMITED);
		*h = digest(*h, mmsim_events(sim), mmsim_nr_events(sim));
		*nev += mmsim_nr_events(sim);
		mmsim_events_clear(sim);
		if (status != MMSIM_RUN_EVENTS_FULL)
			return status;
	}
}

/* one program: load it, run it `repeat` times, print its JSON line; 0 when it ran to the end */
static int run_program(const char *path, int trace, int debug_vm, int repeat, uint64_t split)
{
	double best_split = 0, best_rest = 0;
	struct mmsim_config cfg;
	struct mmsim *sim = NULL;
	double best = 1e30;
	double *t_pre, *t_run;
	uint64_t h = 0, nev = 0;
	int status = MMSIM_RUN_ERROR;
	struct rusage ru;
	FILE *f;
	long len;
	char *buf;

	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 2;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len);
	if (len < 0 || !buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: read failed\n", path);
		free(buf);
		fclose(f);
		return 2;
	}
	fclose(f);
	if (repeat < 1)
		repeat = 1;
	t_pre = calloc((size_t)repeat, sizeof(double));
	t_run = calloc((size_t)repeat, sizeof(double));

	for (int r = 0; r < repeat; r++) {
		double t0, t1, t2;
		int err;

		if (sim)
			mmsim_destroy(sim);
		mmsim_config_default(&cfg);
		cfg.trace = trace;
		cfg.debug_vm = debug_vm;
		cfg.max_bytes = UINT64_MAX;
		sim = mmsim_create(&cfg);
		err = mmsim_load(sim, buf, (size_t)len);
		if (err) {
			printf("{\"status\":\"load-error\",\"code\":%d,\"message\":\"%s\",\"step\":%u}\n",
			       err, mmsim_load_message(sim), mmsim_last_error(sim)->step);
			mmsim_destroy(sim); /* LeakSanitizer would turn exit 2 into 1 */
			free(buf);
			free(t_pre);
			free(t_run);
			return 2;
		}
		h = 0xcbf29ce484222325ull;
		nev = 0;
		t0 = now();
		status = split ? run_drain(sim, split, &h, &nev) : MMSIM_RUN_WORK;
		t1 = now();
		if (status == MMSIM_RUN_WORK)
			status = run_drain(sim, MMSIM_UNLIMITED, &h, &nev);
		t2 = now();
		t_pre[r] = t1 - t0;
		t_run[r] = t2 - t1;
		if (t2 - t0 < best) {
			best = t2 - t0;
			best_split = t1 - t0;
			best_rest = t2 - t1;
		}
	}
	getrusage(RUSAGE_SELF, &ru);

	printf("{\"status\":\"%s\",", status == MMSIM_RUN_DONE ? "done" : "error");
	{
		const struct mmsim_error_info *e = mmsim_last_error(sim);

		printf("\"error\":{\"code\":%d,\"step\":%d,\"task\":%d,\"addr\":%llu,\"detail\":%llu},",
		       e->code, (int)e->step, (int)e->task, (unsigned long long)e->addr,
		       (unsigned long long)e->detail);
	}
	printf("\"counters\":{");
	for (uint32_t i = 0; i < MMSIM_NR_COUNTERS; i++)
		printf("%s\"%s\":%llu", i ? "," : "", mmsim_counter_name(i),
		       (unsigned long long)mmsim_counter(sim, i));
	printf("},\"tasks\":[");
	for (uint32_t t = 0; t < mmsim_nr_tasks(sim); t++) {
		struct mmsim_task_info ti;

		mmsim_task_info(sim, t, &ti);
		printf("%s{", t ? "," : "");
		for (uint32_t i = 0; i < MMSIM_NR_TASK_COUNTERS; i++)
			printf("%s\"%s\":%llu", i ? "," : "", mmsim_task_counter_name(i),
			       (unsigned long long)ti.counters[i]);
		printf("}");
	}
	printf("],\"expect_failures\":%u,\"steps\":%u,\"events\":%llu,\"event_digest\":\"%016llx\",",
	       mmsim_nr_expect_failures(sim), mmsim_steps_executed(sim), (unsigned long long)nev,
	       (unsigned long long)h);
	printf("\"preload_seconds\":%.6f,\"run_seconds\":%.6f,", best_split, best_rest);
	/* every repeat, in order, for medians and ranges */
	printf("\"runs\":[");
	for (int r = 0; r < repeat; r++)
		printf("%s{\"preload_seconds\":%.6f,\"run_seconds\":%.6f}", r ? "," : "", t_pre[r],
		       t_run[r]);
	printf("],");
	printf("\"work\":%llu,\"seconds\":%.6f,\"sim_bytes\":%llu,\"sim_peak_bytes\":%llu,\"max_rss_bytes\":%lld}\n",
	       (unsigned long long)mmsim_work_done(sim), best,
	       (unsigned long long)mmsim_mem_bytes(sim), (unsigned long long)mmsim_mem_peak(sim),
	       (long long)ru.ru_maxrss * 1024);
	mmsim_destroy(sim);
	free(buf);
	free(t_pre);
	free(t_run);
	return status == MMSIM_RUN_DONE ? 0 : 1;
}

int main(int argc, char **argv)
{
	int trace = 0, debug_vm = 0, repeat = 1, worst = 0, n = 0;
	uint64_t split = 0;
	const char **paths = calloc((size_t)argc, sizeof(*paths));
	uint64_t *splits = calloc((size_t)argc, sizeof(*splits));

	if (!paths || !splits) {
		free(paths);
		free(splits);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trace"))
			trace = 1;
		else if (!strcmp(argv[i], "--debug-vm"))
			debug_vm = 1;
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--split") && i + 1 < argc)
			split = strtoull(argv[++i], NULL, 10);
		else {
			splits[n] = split;
			paths[n++] = argv[i];
		}
	}
	if (!n) {
		fprintf(stderr,
			"usage: mmsim-run [--trace] [--debug-vm] [--repeat N] [--split W] PROGRAM...\n");
		free(paths);
		free(splits);
		return 2;
	}
	/* several programs: one after another in this process, a JSON line each (the cold benchmark's runs) */
	for (int i = 0; i < n; i++) {
		int rc = run_program(paths[i], trace, debug_vm, repeat, splits[i]);

		if (rc > worst)
			worst = rc;
		if (rc == 2)
			break;
	}
	free(paths);
	free(splits);
	return worst;
}

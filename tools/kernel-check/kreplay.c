/*
 * kreplay.c - replay mmplay's page-fault cases on the RUNNING Linux kernel.
 *
 * Part of tools/kernel-check (see README.md there): it measures what the real
 * kernel does, so that compare.mjs can put the model's numbers next to it.
 * It is a stand-alone diagnostic, NOT part of `npm test`, and it needs root
 * (drop_caches, /proc/kpageflags; run.sh also creates a loop device and mounts).
 *
 * Normally run through run.sh, which builds this file (gcc -O2 -static), sets
 * up the storage (ext4 data=journal on a --direct-io loop device with
 * read_ahead_kb 128, so the page cache holds order-0 folios, and a tmpfs with
 * huge=never) and runs every case:
 *
 *   sudo tools/kernel-check/run.sh [OUT]
 *
 * Direct use (DIR = a directory on the file system under test, RUNS = runs):
 *   kreplay DIR RUNS K1                   cold 1024-page file, read 0..1023
 *   kreplay DIR RUNS K2                   cold 1024-page file: touch 40, 300, 700
 *                                         via mapping W, then read 0..1023 via
 *                                         a second mapping M of the same fd
 *   kreplay DIR RUNS K3 a|b|c|d P         cold 1024-page file, miss at page P:
 *                                         a: P, then 0..1023   b: P, then P+1..1023
 *                                         c: P..1023           d: P, then P..1023
 *   kreplay DIR RUNS K4 N [pre]           cold N-page file read in order
 *                                         (pre: touch page N-5 first)
 *   kreplay DIR RUNS K5 i|ii|iii|sparse   DIR must be a tmpfs. 256 MiB file
 *                                         written with write(), mapped
 *                                         i: shared, NULL hint  ii: shared,
 *                                         2 MiB aligned  iii: private, NULL hint;
 *                                         read every page, then write every page.
 *                                         sparse: 4 MiB ftruncate'd file, shared
 *                                         read-only, 2 MiB aligned, read all.
 *   kreplay DIR RUNS K6                   3-page cached file mapped as 4 pages:
 *                                         touch page 0, then page 3 (SIGBUS)
 *   kreplay DIR RUNS K8 N P               cold N-page file: touch P, then
 *                                         read P+1..N-1
 *
 * Every run of a disk case starts cold (sync; drop_caches=3; mincore checks
 * that nothing is resident: "before: resident=0/N"). Every phase line prints
 * the getrusage(RUSAGE_SELF) ru_majflt/ru_minflt deltas taken right around the
 * touches only, plus the system-wide /proc/vmstat pgfault/pgmajfault deltas
 * read just outside that bracket (noisy on a busy machine). After each run the
 * resident pages (mincore) and a pagemap/kpageflags folio check (compound
 * head/tail counts: 0/0 means order-0 folios) are printed. The harness itself
 * is static, mlockall(MCL_CURRENT)'d and pre-faults its stack; the
 * "null-phase" lines check that an empty phase counts 0/0.
 *
 * Mappings of disk files are placed 2 MiB aligned (map_aligned), like the
 * model's default placement; K5 i/iii use a NULL hint and print the address.
 *
 * KTRACE=1 or KTRACE=2 in the environment turns on diagnostic traces (which
 * touches faulted / slow touches by rdtsc). They perturb timing and are not
 * used by run.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define PG 4096UL
#define MB2 (2UL << 20)

static char g_dir[256];
static int g_runs = 5;
static int g_vmfd = -1;
static char g_vmbuf[65536];
static struct rusage g_ra, g_rb;
static long g_vm_pgf_b, g_vm_pgmaj_b, g_vm_pgf_a, g_vm_pgmaj_a;
static sigjmp_buf g_jb;
static volatile int g_sigbus;
static volatile unsigned char g_sink;

static void die(const char *m)
{
	perror(m);
	exit(1);
}

/* ---------------- vmstat ---------------- */
static void vmstat_read(long *pgf, long *pgmaj)
{
	ssize_t n = pread(g_vmfd, g_vmbuf, sizeof(g_vmbuf) - 1, 0);
	if (n < 0)
		die("pread vmstat");
	g_vmbuf[n] = 0;
	char *p = strstr(g_vmbuf, "\npgfault ");
	*pgf = p ? atol(p + 9) : -1;
	p = strstr(g_vmbuf, "\npgmajfault ");
	*pgmaj = p ? atol(p + 12) : -1;
}

/* ---------------- measured phase ---------------- */
struct phase_res {
	long maj, min, vpgf, vpgmaj;
};

/* raw counters must be snapshotted with nothing but getrusage around touches */
#define PHASE_BEGIN()                                    \
	do {                                             \
		vmstat_read(&g_vm_pgf_b, &g_vm_pgmaj_b); \
		getrusage(RUSAGE_SELF, &g_rb);           \
	} while (0)
#define PHASE_END(res)                                       \
	do {                                                 \
		getrusage(RUSAGE_SELF, &g_ra);               \
		vmstat_read(&g_vm_pgf_a, &g_vm_pgmaj_a);     \
		(res).maj = g_ra.ru_majflt - g_rb.ru_majflt; \
		(res).min = g_ra.ru_minflt - g_rb.ru_minflt; \
		(res).vpgf = g_vm_pgf_a - g_vm_pgf_b;        \
		(res).vpgmaj = g_vm_pgmaj_a - g_vm_pgmaj_b;  \
	} while (0)

/* optional diagnostic traces. KTRACE=2: rdtsc around every touch (no syscall
   in the loop); touches slower than 1500 TSC cycles (~0.75 us at 1996 MHz) are
   listed as page(us) - a fault costs >= ~1.5 us, an I/O wait 25..1000 us.
   KTRACE=1: getrusage after every touch; records
   which touches faulted. Adds syscalls between touches, so it is NOT used for
   the reported numbers. */
static int g_trace;
static struct rusage g_t0, g_t1;
static __attribute__((noinline)) void touch_range(char *base, long from, long to_incl, int write)
{
	if (g_trace == 2) {
		/* low-perturbation trace: rdtsc per touch, print slow touches */
		static unsigned long long dts[1 << 16];
		long n = to_incl - from + 1;
		if (n > (1 << 16))
			n = 1 << 16;
		unsigned long long t0 = __builtin_ia32_rdtsc();
		for (long k = 0; k < n; k++) {
			long i = from + k;
			if (write)
				*(volatile char *)(base + i * PG) = 1;
			else
				g_sink += *(volatile char *)(base + i * PG);
			unsigned long long t1 = __builtin_ia32_rdtsc();
			dts[k] = t1 - t0;
			t0 = t1;
		}
		long slow = 0;
		for (long k = 0; k < n; k++)
			slow += dts[k] > 1500;
		printf("  trace[%ld..%ld%s] slow_touches=%ld:", from, to_incl, write ? " W" : "",
		       slow);
		long shown = 0;
		for (long k = 0; k < n && shown < 300; k++)
			if (dts[k] > 1500) {
				printf(" %ld(%.0f)", from + k, dts[k] / 1996.0);
				shown++;
			}
		printf("%s\n", slow > shown ? " ..." : "");
		return;
	}
	if (g_trace) {
		getrusage(RUSAGE_SELF, &g_t0);
		for (long i = from; i <= to_incl; i++) {
			if (write)
				*(volatile char *)(base + i * PG) = 1;
			else
				g_sink += *(volatile char *)(base + i * PG);
			getrusage(RUSAGE_SELF, &g_t1);
			if (g_t1.ru_majflt != g_t0.ru_majflt)
				printf(" M%ld", i);
			else if (g_t1.ru_minflt != g_t0.ru_minflt)
				printf(" m%ld", i);
			g_t0 = g_t1;
		}
		printf("\n");
		return;
	}
	for (long i = from; i <= to_incl; i++) {
		if (write)
			*(volatile char *)(base + i * PG) = 1;
		else
			g_sink += *(volatile char *)(base + i * PG);
	}
}

/* ---------------- mapping helpers ---------------- */
struct map {
	char *resv;
	size_t resvlen;
	char *addr;
	size_t len;
};

static struct map map_aligned(int fd, size_t len, int prot, int flags)
{
	struct map m;
	m.resvlen = len + 2 * MB2;
	m.resv = mmap(NULL, m.resvlen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		      0);
	if (m.resv == MAP_FAILED)
		die("mmap reserve");
	uintptr_t a = ((uintptr_t)m.resv + MB2 - 1) & ~(MB2 - 1);
	m.addr = mmap((void *)a, len, prot, flags | MAP_FIXED, fd, 0);
	if (m.addr == MAP_FAILED)
		die("mmap fixed");
	if ((uintptr_t)m.addr % MB2) {
		fprintf(stderr, "not aligned\n");
		exit(1);
	}
	m.len = len;
	return m;
}

static struct map map_hint_null(int fd, size_t len, int prot, int flags)
{
	struct map m;
	m.addr = mmap(NULL, len, prot, flags, fd, 0);
	if (m.addr == MAP_FAILED)
		die("mmap null");
	m.resv = m.addr;
	m.resvlen = len;
	m.len = len;
	return m;
}

static void map_free(struct map *m)
{
	munmap(m->resv, m->resvlen);
}

/* number of pages resident in page cache (mincore on the mapping) */
static long resident(struct map *m, long npages, char *vec)
{
	if (mincore(m->addr, npages * PG, (unsigned char *)vec))
		die("mincore");
	long c = 0;
	for (long i = 0; i < npages; i++)
		c += vec[i] & 1;
	return c;
}

/* print resident page ranges compactly, e.g. "0-31,40-71" */
static void resident_ranges(char *vec, long npages, char *out, size_t outlen)
{
	size_t o = 0;
	out[0] = 0;
	for (long i = 0; i < npages;) {
		if (!(vec[i] & 1)) {
			i++;
			continue;
		}
		long j = i;
		while (j + 1 < npages && (vec[j + 1] & 1))
			j++;
		o += snprintf(out + o, outlen > o ? outlen - o : 0, "%s%ld-%ld", o ? "," : "", i,
			      j);
		if (o >= outlen - 32) {
			snprintf(out + o, outlen - o, ",...");
			return;
		}
		i = j + 1;
	}
	if (!o)
		snprintf(out, outlen, "none");
}

/* check pagemap/kpageflags for mapped pages of m. prints counts */
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_THP 22
static void folio_check(struct map *m, long npages, char *out, size_t outlen)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0)
		die("open pagemap/kpageflags");
	long present = 0, head = 0, tail = 0, thp = 0, nopfn = 0;
	for (long i = 0; i < npages; i++) {
		uint64_t e, f;
		uintptr_t va = (uintptr_t)m->addr + i * PG;
		if (pread(pm, &e, 8, (va / PG) * 8) != 8)
			die("pread pagemap");
		if (!(e >> 63))
			continue;
		present++;
		uint64_t pfn = e & ((1ULL << 55) - 1);
		if (!pfn) {
			nopfn++;
			continue;
		}
		if (pread(kf, &f, 8, pfn * 8) != 8)
			die("pread kpageflags");
		head += (f >> KPF_COMPOUND_HEAD) & 1;
		tail += (f >> KPF_COMPOUND_TAIL) & 1;
		thp += (f >> KPF_THP) & 1;
	}
	close(pm);
	close(kf);
	snprintf(out, outlen, "ptes_present=%ld head=%ld tail=%ld thp=%ld pfn0=%ld", present, head,
		 tail, thp, nopfn);
}

/* ---------------- file helpers ---------------- */
static void make_file(const char *path, long npages)
{
	unlink(path);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0)
		die("create");
	static char buf[PG];
	for (long i = 0; i < npages; i++) {
		memset(buf, 'A' + (i % 26), PG);
		memcpy(buf, &i, sizeof(i));
		if (write(fd, buf, PG) != (ssize_t)PG)
			die("write");
	}
	if (fsync(fd))
		die("fsync");
	close(fd);
}

static void drop_caches(void)
{
	sync();
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0)
		die("open drop_caches");
	if (write(fd, "3\n", 2) != 2)
		die("write drop_caches");
	close(fd);
}

static void pr_phase(const char *tag, int run, const char *ph, struct phase_res *r)
{
	printf("%s run=%d %s maj=%ld min=%ld total=%ld | vmstat pgfault=%ld pgmajfault=%ld\n", tag,
	       run, ph, r->maj, r->min, r->maj + r->min, r->vpgf, r->vpgmaj);
}

static char g_vec[1 << 17];
static char g_str[8192];

static void post_report(const char *tag, int run, struct map *m, long npages)
{
	long res = resident(m, npages, g_vec);
	resident_ranges(g_vec, npages, g_str, sizeof(g_str));
	printf("%s run=%d after: resident=%ld/%ld [%s]\n", tag, run, res, npages, g_str);
	folio_check(m, npages, g_str, sizeof(g_str));
	printf("%s run=%d folios: %s\n", tag, run, g_str);
}

/* open + cold check; returns fd. map must be done by caller */
static int open_cold(const char *path)
{
	drop_caches();
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open");
	return fd;
}

static void check_cold(const char *tag, int run, struct map *m, long npages)
{
	long r = resident(m, npages, g_vec);
	printf("%s run=%d before: resident=%ld/%ld%s\n", tag, run, r, npages,
	       r ? "  *** NOT COLD ***" : "");
}

/* ---------------- cases ---------------- */
static void case_K1(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k1.dat", g_dir);
	long n = 1024;
	make_file(path, n);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open_cold(path);
		struct map m = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		check_cold("K1", run, &m, n);
		struct phase_res r;
		PHASE_BEGIN();
		touch_range(m.addr, 0, n - 1, 0);
		PHASE_END(r);
		pr_phase("K1", run, "ph1[0..1023]", &r);
		post_report("K1", run, &m, n);
		map_free(&m);
		close(fd);
	}
}

static void case_K2(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k2.dat", g_dir);
	long n = 1024;
	make_file(path, n);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open_cold(path);
		struct map w = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		check_cold("K2", run, &w, n);
		struct phase_res r1, r2;
		PHASE_BEGIN();
		touch_range(w.addr, 40, 40, 0);
		touch_range(w.addr, 300, 300, 0);
		touch_range(w.addr, 700, 700, 0);
		PHASE_END(r1);
		long res = resident(&w, n, g_vec);
		resident_ranges(g_vec, n, g_str, sizeof g_str);
		printf("K2 run=%d between: resident=%ld [%s]\n", run, res, g_str);
		struct map mm = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		PHASE_BEGIN();
		touch_range(mm.addr, 0, n - 1, 0);
		PHASE_END(r2);
		pr_phase("K2", run, "ph1[W:40,300,700]", &r1);
		pr_phase("K2", run, "ph2[M:0..1023]", &r2);
		printf("K2 run=%d sum maj=%ld min=%ld total=%ld\n", run, r1.maj + r2.maj,
		       r1.min + r2.min, r1.maj + r2.maj + r1.min + r2.min);
		post_report("K2", run, &mm, n);
		map_free(&w);
		map_free(&mm);
		close(fd);
	}
}

static void case_K3(char v, long P)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k3.dat", g_dir);
	long n = 1024;
	char tag[64];
	snprintf(tag, sizeof tag, "K3%c P=%ld", v, P);
	make_file(path, n);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open_cold(path);
		struct map m = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		check_cold(tag, run, &m, n);
		struct phase_res r1 = { 0 }, r2 = { 0 };
		char d1[64], d2[64];
		int two = 1;
		switch (v) {
		case 'a':
			PHASE_BEGIN();
			touch_range(m.addr, P, P, 0);
			PHASE_END(r1);
			PHASE_BEGIN();
			touch_range(m.addr, 0, n - 1, 0);
			PHASE_END(r2);
			snprintf(d1, sizeof d1, "ph1[%ld]", P);
			snprintf(d2, sizeof d2, "ph2[0..1023]");
			break;
		case 'b':
			PHASE_BEGIN();
			touch_range(m.addr, P, P, 0);
			PHASE_END(r1);
			PHASE_BEGIN();
			touch_range(m.addr, P + 1, n - 1, 0);
			PHASE_END(r2);
			snprintf(d1, sizeof d1, "ph1[%ld]", P);
			snprintf(d2, sizeof d2, "ph2[%ld..1023]", P + 1);
			break;
		case 'c':
			PHASE_BEGIN();
			touch_range(m.addr, P, n - 1, 0);
			PHASE_END(r1);
			snprintf(d1, sizeof d1, "ph1[%ld..1023]", P);
			two = 0;
			break;
		case 'd':
			PHASE_BEGIN();
			touch_range(m.addr, P, P, 0);
			PHASE_END(r1);
			PHASE_BEGIN();
			touch_range(m.addr, P, n - 1, 0);
			PHASE_END(r2);
			snprintf(d1, sizeof d1, "ph1[%ld]", P);
			snprintf(d2, sizeof d2, "ph2[%ld..1023]", P);
			break;
		default:
			fprintf(stderr, "bad variant\n");
			exit(2);
		}
		pr_phase(tag, run, d1, &r1);
		if (two) {
			pr_phase(tag, run, d2, &r2);
			printf("%s run=%d sum maj=%ld min=%ld total=%ld\n", tag, run,
			       r1.maj + r2.maj, r1.min + r2.min, r1.maj + r2.maj + r1.min + r2.min);
		}
		post_report(tag, run, &m, n);
		map_free(&m);
		close(fd);
	}
}

static void case_K4(long n, int pre)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k4_%ld.dat", g_dir, n);
	char tag[64];
	snprintf(tag, sizeof tag, "K4 N=%ld%s", n, pre ? " pre" : "");
	make_file(path, n);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open_cold(path);
		struct map m = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		check_cold(tag, run, &m, n);
		struct phase_res r1 = { 0 }, r2 = { 0 };
		char d[64];
		if (pre) {
			PHASE_BEGIN();
			touch_range(m.addr, n - 5, n - 5, 0);
			PHASE_END(r1);
			PHASE_BEGIN();
			touch_range(m.addr, 0, n - 1, 0);
			PHASE_END(r2);
			snprintf(d, sizeof d, "ph1[%ld]", n - 5);
			pr_phase(tag, run, d, &r1);
			snprintf(d, sizeof d, "ph2[0..%ld]", n - 1);
			pr_phase(tag, run, d, &r2);
			printf("%s run=%d sum maj=%ld min=%ld total=%ld\n", tag, run,
			       r1.maj + r2.maj, r1.min + r2.min, r1.maj + r2.maj + r1.min + r2.min);
		} else {
			PHASE_BEGIN();
			touch_range(m.addr, 0, n - 1, 0);
			PHASE_END(r1);
			snprintf(d, sizeof d, "ph1[0..%ld]", n - 1);
			pr_phase(tag, run, d, &r1);
		}
		post_report(tag, run, &m, n);
		map_free(&m);
		close(fd);
	}
}

/* K8: an N-page cold file: touch page P, then read P+1 .. N-1 in order */
static void case_K8(long n, long P)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k8_%ld.dat", g_dir, n);
	char tag[64];
	snprintf(tag, sizeof tag, "K8 N=%ld P=%ld", n, P);
	make_file(path, n);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open_cold(path);
		struct map m = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
		check_cold(tag, run, &m, n);
		struct phase_res r1 = { 0 }, r2 = { 0 };
		char d[64];
		PHASE_BEGIN();
		touch_range(m.addr, P, P, 0);
		PHASE_END(r1);
		PHASE_BEGIN();
		touch_range(m.addr, P + 1, n - 1, 0);
		PHASE_END(r2);
		snprintf(d, sizeof d, "ph1[%ld]", P);
		pr_phase(tag, run, d, &r1);
		snprintf(d, sizeof d, "ph2[%ld..%ld]", P + 1, n - 1);
		pr_phase(tag, run, d, &r2);
		printf("%s run=%d sum maj=%ld min=%ld total=%ld\n", tag, run, r1.maj + r2.maj,
		       r1.min + r2.min, r1.maj + r2.maj + r1.min + r2.min);
		post_report(tag, run, &m, n);
		map_free(&m);
		close(fd);
	}
}

static void case_K5(const char *v)
{
	char path[512];
	if (!strcmp(v, "sparse")) {
		long n = 1024;
		for (int run = 1; run <= g_runs; run++) {
			snprintf(path, sizeof path, "%s/k5sparse.dat", g_dir);
			unlink(path);
			int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
			if (fd < 0)
				die("open");
			if (ftruncate(fd, n * PG))
				die("ftruncate");
			struct map m = map_aligned(fd, n * PG, PROT_READ, MAP_SHARED);
			long r0 = resident(&m, n, g_vec);
			printf("K5sparse run=%d before: resident=%ld/%ld\n", run, r0, n);
			struct phase_res r;
			PHASE_BEGIN();
			touch_range(m.addr, 0, n - 1, 0);
			PHASE_END(r);
			pr_phase("K5sparse", run, "ph1[read_0..1023]", &r);
			post_report("K5sparse", run, &m, n);
			map_free(&m);
			close(fd);
			unlink(path);
		}
		return;
	}
	long n = 65536; /* 256 MiB */
	snprintf(path, sizeof path, "%s/k5.dat", g_dir);
	make_file(path, n);
	char tag[32];
	snprintf(tag, sizeof tag, "K5%s", v);
	for (int run = 1; run <= g_runs; run++) {
		int fd = open(path, O_RDWR);
		if (fd < 0)
			die("open");
		struct map m;
		if (!strcmp(v, "i"))
			m = map_hint_null(fd, n * PG, PROT_READ | PROT_WRITE, MAP_SHARED);
		else if (!strcmp(v, "ii"))
			m = map_aligned(fd, n * PG, PROT_READ | PROT_WRITE, MAP_SHARED);
		else if (!strcmp(v, "iii"))
			m = map_hint_null(fd, n * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE);
		else {
			fprintf(stderr, "bad K5 variant\n");
			exit(2);
		}
		uintptr_t a = (uintptr_t)m.addr;
		printf("%s run=%d addr=%p mod64K=0x%lx mod2M=0x%lx\n", tag, run, m.addr,
		       (unsigned long)(a % 65536), (unsigned long)(a % MB2));
		long r0 = resident(&m, n, g_vec);
		printf("%s run=%d before: resident=%ld/%ld\n", tag, run, r0, n);
		struct phase_res r1, r2;
		PHASE_BEGIN();
		touch_range(m.addr, 0, n - 1, 0);
		PHASE_END(r1);
		PHASE_BEGIN();
		touch_range(m.addr, 0, n - 1, 1);
		PHASE_END(r2);
		pr_phase(tag, run, "ph1[read_all]", &r1);
		pr_phase(tag, run, "ph2[write_all]", &r2);
		folio_check(&m, n, g_str, sizeof g_str);
		printf("%s run=%d folios: %s\n", tag, run, g_str);
		map_free(&m);
		close(fd);
	}
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	g_sigbus++;
	siglongjmp(g_jb, 1);
}

static void case_K6(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k6.dat", g_dir);
	make_file(path, 3);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		die("sigaction");
	/* the signal path needs no warming: stack and code are pre-faulted and locked */
	for (int run = 1; run <= g_runs; run++) {
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open");
		static char buf[3 * PG];
		if (read(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
			die("read");
		struct map m = map_aligned(fd, 4 * PG, PROT_READ, MAP_SHARED);
		long r0 = resident(&m, 3, g_vec);
		printf("K6 run=%d before: resident=%ld/3\n", run, r0);
		struct phase_res r1, r2;
		PHASE_BEGIN();
		touch_range(m.addr, 0, 0, 0);
		PHASE_END(r1);
		g_sigbus = 0;
		vmstat_read(&g_vm_pgf_b, &g_vm_pgmaj_b);
		getrusage(RUSAGE_SELF, &g_rb);
		if (sigsetjmp(g_jb, 1) == 0)
			touch_range(m.addr, 3, 3, 0);
		getrusage(RUSAGE_SELF, &g_ra);
		vmstat_read(&g_vm_pgf_a, &g_vm_pgmaj_a);
		r2.maj = g_ra.ru_majflt - g_rb.ru_majflt;
		r2.min = g_ra.ru_minflt - g_rb.ru_minflt;
		r2.vpgf = g_vm_pgf_a - g_vm_pgf_b;
		r2.vpgmaj = g_vm_pgmaj_a - g_vm_pgmaj_b;
		pr_phase("K6", run, "ph1[0]", &r1);
		pr_phase("K6", run, "ph2[3:beyond_EOF]", &r2);
		printf("K6 run=%d sigbus_delivered=%d\n", run, g_sigbus);
		folio_check(&m, 4, g_str, sizeof g_str);
		printf("K6 run=%d folios: %s\n", run, g_str);
		map_free(&m);
		close(fd);
	}
}

/* null phase: sanity check that the measuring harness itself does not fault */
static void null_phase(void)
{
	struct phase_res r;
	PHASE_BEGIN();
	PHASE_END(r);
	printf("null-phase maj=%ld min=%ld (vmstat pgfault=%ld, system-wide)\n", r.maj, r.min,
	       r.vpgf);
}

static __attribute__((noinline)) void prefault_stack(void)
{
	volatile char big[512 * 1024];
	for (size_t i = 0; i < sizeof big; i += 512)
		big[i] = 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: kreplay DIR RUNS K1|K2|K3 v P|K4 N [pre]|K5 v|K6|K8 N P"
				" (see the comment at the top of kreplay.c)\n");
		return 2;
	}
	snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
	g_runs = atoi(argv[2]);
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	g_trace = getenv("KTRACE") ? atoi(getenv("KTRACE")) : 0;
	g_vmfd = open("/proc/vmstat", O_RDONLY);
	if (g_vmfd < 0)
		die("open vmstat");
	prefault_stack();
	/* fault in and lock every current mapping (text, data, bss, stack, libc):
	   keeps our own pages from faulting or being dropped by drop_caches.
	   MCL_CURRENT only: later file mappings are not locked. */
	if (mlockall(MCL_CURRENT))
		die("mlockall");
	/* warm getrusage/vmstat paths */
	vmstat_read(&g_vm_pgf_b, &g_vm_pgmaj_b);
	getrusage(RUSAGE_SELF, &g_rb);
	printf("== kreplay dir=%s runs=%d case:", g_dir, g_runs);
	for (int i = 3; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	null_phase();

	const char *c = argv[3];
	if (!strcmp(c, "K1"))
		case_K1();
	else if (!strcmp(c, "K2"))
		case_K2();
	else if (!strcmp(c, "K3") && argc >= 6)
		case_K3(argv[4][0], atol(argv[5]));
	else if (!strcmp(c, "K4") && argc >= 5)
		case_K4(atol(argv[4]), argc >= 6 && !strcmp(argv[5], "pre"));
	else if (!strcmp(c, "K5") && argc >= 5)
		case_K5(argv[4]);
	else if (!strcmp(c, "K6"))
		case_K6();
	else if (!strcmp(c, "K8") && argc >= 6)
		case_K8(atol(argv[4]), atol(argv[5]));
	else {
		fprintf(stderr, "bad case (see the comment at the top of kreplay.c)\n");
		return 2;
	}
	null_phase();
	return 0;
}

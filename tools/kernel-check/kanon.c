/*
 * kanon.c - the anonymous-memory and fadvise cases of `npm run kernel-check`,
 * run on the real kernel. Each case prints "key value" lines: the fault
 * counts of one phase (getrusage, per process or per thread), the deltas of
 * /proc/vmstat counters and of the mTHP per-size statistics over it, and
 * page-cache residency (mincore). The THP and mTHP knobs are set by the
 * caller (tools/kernel-check/check.mjs), which also restores them.
 *
 *   kanon write MIB                  write one byte per page of MIB MiB (2 MiB aligned)
 *   kanon fork-exit-cow MIB STRIDE   write MIB, fork, the child exits, then one byte every STRIDE KiB
 *   kanon partial MIB STRIDE         write MIB, then madvise(DONTNEED) the first 4 KiB of every STRIDE KiB
 *   kanon threads N MIB              N threads, each writes its own MIB MiB mapping
 *   kanon fadvise-written DIR PAGES  write PAGES pages to DIR/f, fadvise(DONTNEED) at once, count resident
 *   kanon fadvise-tmpfs DIR PAGES    the same on a tmpfs (DIR): no backing device
 *   kanon mapread DIR MIB OFF WARM   a MIB MiB file in DIR, dropped from the page cache
 *                                    (fadvise of a clean file), read through a shared mapping
 *                                    OFF pages past a 2 MiB boundary, one byte per page; WARM 1:
 *                                    read once through another mapping first (the folios stay)
 *
 * System-wide counters (vmstat, mTHP stats) count every process: run on a
 * quiet machine; the caller takes the median of several runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096ul
#define MIB (1ul << 20)

static const char *const VMSTAT[] = { "thp_fault_alloc", "thp_deferred_split_page", "thp_split_pmd",
				      "pgreuse" };
#define NV (sizeof(VMSTAT) / sizeof(VMSTAT[0]))
static const char *const SIZES[] = { "64kB", "2048kB" };
#define NS (sizeof(SIZES) / sizeof(SIZES[0]))

struct snap {
	long long vm[NV];
	long long alloc[NS], split[NS];
	long minflt, majflt;
};

static long long sysfs_num(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = -1;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void take(struct snap *s)
{
	char line[256], path[256];
	FILE *f = fopen("/proc/vmstat", "r");
	struct rusage r;

	memset(s->vm, 0, sizeof(s->vm));
	while (f && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < NV; i++) {
			size_t n = strlen(VMSTAT[i]);

			if (!strncmp(line, VMSTAT[i], n) && line[n] == ' ')
				s->vm[i] = atoll(line + n + 1);
		}
	if (f)
		fclose(f);
	for (size_t i = 0; i < NS; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/hugepages-%s/stats/anon_fault_alloc",
			 SIZES[i]);
		s->alloc[i] = sysfs_num(path);
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/hugepages-%s/stats/split_deferred",
			 SIZES[i]);
		s->split[i] = sysfs_num(path);
	}
	getrusage(RUSAGE_SELF, &r);
	s->minflt = r.ru_minflt;
	s->majflt = r.ru_majflt;
}

static void report(const char *phase, const struct snap *a, const struct snap *b)
{
	printf("%s.minflt %ld\n%s.majflt %ld\n", phase, b->minflt - a->minflt, phase,
	       b->majflt - a->majflt);
	for (size_t i = 0; i < NV; i++)
		printf("%s.%s %lld\n", phase, VMSTAT[i], b->vm[i] - a->vm[i]);
	for (size_t i = 0; i < NS; i++) {
		if (a->alloc[i] >= 0)
			printf("%s.anon_fault_alloc_%s %lld\n", phase, SIZES[i],
			       b->alloc[i] - a->alloc[i]);
		if (a->split[i] >= 0)
			printf("%s.split_deferred_%s %lld\n", phase, SIZES[i],
			       b->split[i] - a->split[i]);
	}
}

/* an anonymous private mapping of len bytes, 2 MiB aligned (as the model places anonymous mappings) */
static char *map_aligned(size_t len)
{
	size_t al = 2 * MIB;
	char *p = mmap(NULL, len + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return (char *)(((uintptr_t)p + al - 1) & ~(al - 1));
}

static void touch(char *a, size_t len, size_t stride)
{
	for (size_t i = 0; i < len; i += stride)
		((volatile char *)a)[i] = 1;
}

struct thread_arg {
	size_t len;
	long minflt;
};

static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	struct rusage r0, r1;
	char *a = map_aligned(t->len);

	getrusage(RUSAGE_THREAD, &r0);
	touch(a, t->len, PAGE);
	getrusage(RUSAGE_THREAD, &r1);
	t->minflt = r1.ru_minflt - r0.ru_minflt;
	return NULL;
}

static long resident(int fd, size_t len)
{
	char *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char *v = malloc(len / PAGE);
	long n = 0;

	if (m == MAP_FAILED || !v || mincore(m, len, v)) {
		perror("mincore");
		exit(1);
	}
	for (size_t i = 0; i < len / PAGE; i++)
		n += v[i] & 1;
	munmap(m, len);
	free(v);
	return n;
}

static int fadvise_case(const char *dir, long pages)
{
	char path[512], *buf = calloc(1, PAGE);
	size_t len = (size_t)pages * PAGE;
	int fd;

	snprintf(path, sizeof(path), "%s/kanon-fadvise", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || !buf) {
		perror(path);
		return 1;
	}
	memset(buf, 1, PAGE);
	for (long i = 0; i < pages; i++)
		if (write(fd, buf, PAGE) != (ssize_t)PAGE) {
			perror("write");
			return 1;
		}
	printf("before.resident %ld\n", resident(fd, len));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	printf("after.resident %ld\n", resident(fd, len));
	close(fd);
	unlink(path);
	free(buf);
	return 0;
}

/* a shared read-only mapping of fd at a 2 MiB aligned address + off pages */
static char *map_file_at(int fd, size_t len, long off)
{
	size_t al = 2 * MIB;
	char *p = mmap(NULL, len + 2 * al, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *a;

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	a = (char *)(((uintptr_t)p + al - 1) & ~(al - 1)) + off * PAGE;
	if (mmap(a, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		perror("mmap file");
		exit(1);
	}
	return a;
}

static void read_pages(const char *a, size_t len)
{
	for (size_t i = 0; i < len; i += PAGE)
		(void)((volatile const char *)a)[i];
}

static int mapread_case(const char *dir, size_t mib, long off, int warm)
{
	char path[512], *buf = calloc(1, MIB), *a;
	size_t len = mib * MIB;
	struct rusage r0, r1;
	int fd;

	snprintf(path, sizeof(path), "%s/kanon-mapread-%zu", dir, mib);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || !buf) {
		perror(path);
		return 1;
	}
	if ((size_t)lseek(fd, 0, SEEK_END) != len) {
		memset(buf, 1, MIB);
		ftruncate(fd, 0);
		for (size_t i = 0; i < mib; i++)
			if (write(fd, buf, MIB) != (ssize_t)MIB) {
				perror("write");
				return 1;
			}
	}
	fsync(fd);
	/* clean and unmapped: the whole file leaves the page cache */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	printf("before.resident %ld\n", resident(fd, len));
	if (warm) {
		a = map_file_at(fd, len, 0);
		read_pages(a, len);
		munmap(a, len);
	}
	a = map_file_at(fd, len, off);
	getrusage(RUSAGE_SELF, &r0);
	read_pages(a, len);
	getrusage(RUSAGE_SELF, &r1);
	printf("read.minflt %ld\nread.majflt %ld\nread.faults %ld\n", r1.ru_minflt - r0.ru_minflt,
	       r1.ru_majflt - r0.ru_majflt,
	       r1.ru_minflt - r0.ru_minflt + r1.ru_majflt - r0.ru_majflt);
	munmap(a, len);
	close(fd);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct snap s0, s1;

	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "write") && argc == 3) {
		size_t len = strtoul(argv[2], NULL, 0) * MIB;
		char *a = map_aligned(len);

		take(&s0);
		take(&s0);
		touch(a, len, PAGE);
		take(&s1);
		report("write", &s0, &s1);
		return 0;
	}
	if (!strcmp(argv[1], "fork-exit-cow") && argc == 4) {
		size_t len = strtoul(argv[2], NULL, 0) * MIB,
		       stride = strtoul(argv[3], NULL, 0) * 1024;
		char *a = map_aligned(len);
		pid_t pid;

		touch(a, len, PAGE);
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
		/* the first snapshot writes the stack and heap pages fork write-protected: not part of the phase */
		take(&s0);
		take(&s0);
		touch(a, len, stride);
		take(&s1);
		report("cow", &s0, &s1);
		return 0;
	}
	if (!strcmp(argv[1], "partial") && argc == 4) {
		size_t len = strtoul(argv[2], NULL, 0) * MIB,
		       stride = strtoul(argv[3], NULL, 0) * 1024;
		char *a = map_aligned(len);

		touch(a, len, PAGE);
		take(&s0);
		take(&s0);
		for (size_t i = 0; i < len; i += stride)
			madvise(a + i, PAGE, MADV_DONTNEED);
		take(&s1);
		report("partial", &s0, &s1);
		return 0;
	}
	if (!strcmp(argv[1], "threads") && argc == 4) {
		int n = atoi(argv[2]);
		struct thread_arg t[64];
		pthread_t th[64];

		if (n < 1 || n > 64)
			goto usage;
		for (int i = 0; i < n; i++) {
			t[i].len = strtoul(argv[3], NULL, 0) * MIB;
			pthread_create(&th[i], NULL, thread_main, &t[i]);
			/* one after the other, as the model's steps run */
			pthread_join(th[i], NULL);
			printf("thread%d.minflt %ld\n", i, t[i].minflt);
		}
		return 0;
	}
	if ((!strcmp(argv[1], "fadvise-written") || !strcmp(argv[1], "fadvise-tmpfs")) && argc == 4)
		return fadvise_case(argv[2], atol(argv[3]));
	if (!strcmp(argv[1], "mapread") && argc == 6)
		return mapread_case(argv[2], strtoul(argv[3], NULL, 0), atol(argv[4]),
				    atoi(argv[5]));
usage:
	fprintf(stderr, "usage: see the comment at the top of kanon.c\n");
	return 2;
}

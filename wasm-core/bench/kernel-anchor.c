/*
 * The kernel the model is measured against, on this machine: the same
 * work as three of the bench's scenarios, done by the running kernel.
 *
 *   kernel-anchor seq    DIR MIB REPEAT   a MIB file on the tmpfs DIR, written
 *                                         (so cached), mapped shared and read
 *                                         one byte per page in order
 *   kernel-anchor random DIR MIB REPEAT   the same in a fixed random order
 *   kernel-anchor anon   -   MIB REPEAT   MIB of private anonymous memory
 *                                         (MADV_NOHUGEPAGE) written one byte
 *                                         per page
 *
 * Prints one JSON object: the seconds of each repeat (the touches only:
 * mmap, the file's writing and munmap are outside the clock) and the minor
 * faults the last repeat took (getrusage), so that the bench can check the
 * kernel did what the model's scenario does (fault-around: a fault per 16
 * pages). The file is removed at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096ul

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static long minflt(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_minflt;
}

static int fail(const char *what)
{
	fprintf(stderr, "kernel-anchor: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: kernel-anchor seq|random|anon DIR MIB REPEAT\n");
		return 2;
	}
	const char *mode = argv[1], *dir = argv[2];
	size_t len = strtoul(argv[3], NULL, 10) << 20, pages = len / PAGE;
	int repeat = atoi(argv[4]), anon = !strcmp(mode, "anon"), rnd = !strcmp(mode, "random");
	char path[4096] = "";
	int fd = -1;
	uint32_t *order = NULL;
	volatile char sink = 0;

	if (!anon) {
		snprintf(path, sizeof(path), "%s/mmplay-anchor-%d", dir, (int)getpid());
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			return fail(path);
		char *buf = malloc(1 << 20);
		memset(buf, 1, 1 << 20);
		for (size_t off = 0; off < len; off += 1 << 20)
			if (write(fd, buf, 1 << 20) != 1 << 20) {
				unlink(path);
				return fail("write");
			}
		free(buf);
	}
	if (rnd) {
		/* a fixed permutation (Fisher-Yates over an LCG), the same every run */
		order = malloc(pages * sizeof(*order));
		uint64_t x = 12345;
		for (size_t i = 0; i < pages; i++)
			order[i] = i;
		for (size_t i = pages - 1; i > 0; i--) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			size_t j = (x >> 33) % (i + 1);
			uint32_t t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
	}
	printf("{\"mode\":\"%s\",\"pages\":%zu,\"seconds\":[", mode, pages);
	/* the clock's and getrusage's first calls fault in pages of their own: not the run's (the bench
	   runs one repeat per process, interleaved with the model's) */
	(void)now();
	(void)minflt();
	fflush(stdout);
	long faults = 0;
	for (int r = 0; r < repeat; r++) {
		char *p = anon ? mmap(NULL, len, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) :
				 mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			if (path[0])
				unlink(path);
			return fail("mmap");
		}
		if (anon)
			madvise(p, len, MADV_NOHUGEPAGE);
		long f0 = minflt();
		double t0 = now();
		if (anon)
			for (size_t i = 0; i < pages; i++)
				p[i * PAGE] = 1;
		else if (rnd)
			for (size_t i = 0; i < pages; i++)
				sink += p[(size_t)order[i] * PAGE];
		else
			for (size_t i = 0; i < pages; i++)
				sink += p[i * PAGE];
		double t1 = now();
		faults = minflt() - f0;
		munmap(p, len);
		printf("%s%.6f", r ? "," : "", t1 - t0);
	}
	printf("],\"minflt\":%ld}\n", faults);
	if (path[0])
		unlink(path);
	free(order);
	return 0;
}

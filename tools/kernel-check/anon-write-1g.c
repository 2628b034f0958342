#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
int main(void)
{
	size_t len = 1ul << 30, al = 2ul << 20;
	char *p = mmap(NULL, len + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	char *a = (char *)(((uintptr_t)p + al - 1) & ~(al - 1));
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	for (size_t i = 0; i < len; i += 4096)
		a[i] = 1;
	getrusage(RUSAGE_SELF, &r1);
	printf("%ld\n", r1.ru_minflt - r0.ru_minflt);
	return 0;
}

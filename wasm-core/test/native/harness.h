/* harness.h - a minimal test harness: TEST(name) { ... CHECK(...); } */
#ifndef MMSIM_HARNESS_H
#define MMSIM_HARNESS_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};
extern struct test_case tests[];
extern int ntests;
static int failures, checks;
static const char *current;

#define TEST(name)                                                          \
	static void test_##name(void);                                      \
	__attribute__((constructor)) static void reg_##name(void)           \
	{                                                                   \
		tests[ntests++] = (struct test_case){ #name, test_##name }; \
	}                                                                   \
	static void test_##name(void)

#define CHECK(cond)                                                                          \
	do {                                                                                 \
		checks++;                                                                    \
		if (!(cond)) {                                                               \
			failures++;                                                          \
			fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, \
				current, #cond);                                             \
		}                                                                            \
	} while (0)

#define CHECK_EQ(a, b)                                                                        \
	do {                                                                                  \
		uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);                              \
		checks++;                                                                     \
		if (_a != _b) {                                                               \
			failures++;                                                           \
			fprintf(stderr,                                                       \
				"%s:%d: %s: %s == %" PRIu64 ", expected %s == %" PRIu64 "\n", \
				__FILE__, __LINE__, current, #a, _a, #b, _b);                 \
		}                                                                             \
	} while (0)

#endif

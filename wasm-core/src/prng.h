/* prng.h - prng.c: the seeded random choices */
#ifndef MMSIM_PRNG_H
#define MMSIM_PRNG_H

#include "internal.h"

/* prng.c */
uint64_t splitmix64(uint64_t x);
uint64_t random_index(uint64_t key, uint64_t i, uint64_t n);
uint64_t permute_index(uint64_t key, uint64_t i, uint64_t n);

/*
 * The width of permute_index()'s Feistel network over [0, n): the bits of
 * n - 1, at least 2, made even (a clz: counting them bit by bit cost a
 * third of a random touch).
 */
static inline unsigned permute_width(uint64_t n)
{
	unsigned bits = n > 4 ? 64 - (unsigned)__builtin_clzll(n - 1) : 2;

	return bits + (bits & 1);
}

#endif /* MMSIM_PRNG_H */

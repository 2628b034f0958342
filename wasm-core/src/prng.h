/* prng.h - prng.c: the seeded random choices */
#ifndef MMSIM_PRNG_H
#define MMSIM_PRNG_H

#include "internal.h"

/* prng.c */
uint64_t splitmix64(uint64_t x);
uint64_t random_index(uint64_t key, uint64_t i, uint64_t n);
uint64_t permute_index(uint64_t key, uint64_t i, uint64_t n);

#endif /* MMSIM_PRNG_H */

/*
 * prng.c - deterministic randomness, identical on every platform.
 *
 * Counter-based: the n-th draw of a stream is a pure function of (key, n),
 * so an access step can stop after any touch and resume (snapshots) without
 * keeping generator state. random_index() draws uniformly from [0, n) by
 * multiply-shift (Lemire); permute_index() is a bijection of [0, n): a
 * 4-round Feistel network on the next even power of two, cycle-walked back
 * into range.
 */
#include "internal.h"
#include "prng.h"

uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* high 64 bits of a * b, without __int128 */
static uint64_t mulhi64(uint64_t a, uint64_t b)
{
	uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
	uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
	uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;

	return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

uint64_t random_index(uint64_t key, uint64_t i, uint64_t n)
{
	return mulhi64(splitmix64(key ^ splitmix64(i)), n);
}

uint64_t permute_index(uint64_t key, uint64_t i, uint64_t n)
{
	unsigned half = permute_width(n) / 2;
	uint64_t mask = (1ull << half) - 1, x = i;

	do {
		uint64_t l = x >> half, r = x & mask;

		for (uint64_t round = 0; round < 4; round++) {
			uint64_t f = splitmix64(key ^ (round << 56) ^ r) & mask;
			uint64_t t = l ^ f;

			l = r;
			r = t;
		}
		x = (l << half) | r;
	} while (x >= n);
	return x;
}

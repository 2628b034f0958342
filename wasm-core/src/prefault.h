/* prefault.h - prefault.c: the 2004 anticipatory prefault */
#ifndef MMSIM_PREFAULT_H
#define MMSIM_PREFAULT_H

#include "internal.h"
#include "memory.h"

/* prefault.c: do_anon_prefault() returns this after a miss (the caller's ordinary fault follows) */
#define PREFAULT_MISS 0xffffffffu
uint32_t do_anon_prefault(struct mmsim *sim, struct vm_fault *vmf, uint64_t *pte);

#endif /* MMSIM_PREFAULT_H */

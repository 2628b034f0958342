/*
 * workingset.c - refault detection (Linux 3.15, Johannes Weiner,
 * "mm: thrash detection-based file cache sizing"), behind kernel.workingset.
 *
 * 2.6.39 forgets a page the moment reclaim evicts it: read again, it is a
 * new page on the inactive list like any other, and a working set bigger
 * than the inactive list can be pushed out by a stream of use-once pages
 * (the seed's nightly backup) without ever getting back in.
 *
 * 3.15 remembers. The zone counts evictions and activations on the
 * inactive file list (inactive_age). When reclaim evicts a page, the
 * count goes into the page cache slot the page leaves, as a *shadow*
 * entry (E). When the page is read again into that slot, the count now
 * (R) gives its refault distance R - E: the inactive-list events between
 * its eviction and its return, the least number of other pages that were
 * accessed in between. Had the active list been that much smaller, the
 * inactive list would have held the page, so
 *
 *     refault distance <= nr_active_file  ->  activate it on its way in
 *
 * The model keeps shadows whatever the tunable says (reclaim leaves one in
 * every slot it empties; fadvise's invalidation does not, as in 3.15), so
 * that workingset_refault counts refaults in both settings; only
 * kernel.workingset: true activates them (and counts workingset_activate).
 * The shadow holds the count modulo 2^31 (an XArray value entry here is 31
 * bits); the kernel's is as wide as a long less the node and zone bits.
 *
 * Not modelled: the shadow-node shrinker (3.15's workingset_shadow_nodes,
 * which frees radix-tree nodes that hold only shadows under memory pressure)
 * and 3.15's mark_page_accessed() (which can activate a page still in a
 * pagevec); the LRU otherwise stays 2.6.39's.
 */
#include "internal.h"
#include "vmscan.h"

#define SHADOW_MASK 0x7fffffffu

/* workingset_eviction(): the shadow of a page reclaim evicts (inactive_age after this eviction) */
uint32_t workingset_eviction(struct mmsim *sim)
{
	return (uint32_t)(++sim->s.inactive_age & SHADOW_MASK);
}

/* workingset_activation(): a file page was activated: an inactive-list event too */
void workingset_activation(struct mmsim *sim)
{
	sim->s.inactive_age++;
}

/*
 * workingset_refault(): a page is being added where reclaim left shadow;
 * counted always, activated (returns true) when kernel.workingset is on
 * and its refault distance fits in the active file list.
 */
bool workingset_refault(struct mmsim *sim, uint32_t file, uint64_t index, uint32_t shadow)
{
	uint32_t distance = (uint32_t)(sim->s.inactive_age - shadow) & SHADOW_MASK;
	bool activate = sim->s.hdr.workingset && distance <= sim->s.counters[MMSIM_NR_ACTIVE_FILE];

	count_vm_event(sim, MMSIM_WORKINGSET_REFAULT);
	if (activate)
		count_vm_event(sim, MMSIM_WORKINGSET_ACTIVATE);
	trace_mmsim_workingset_refault(sim, file, index, distance, activate);
	return activate;
}

/*
 * The registry of the core's interface: the core's own description and each
 * mechanism's, in this order (the order numbers counters, events and the
 * header's tunable fields). Adding a mechanism: add its file to
 * ./mechanisms and one line here.
 */
import * as core from './core.mjs';
import faultAround from './mechanisms/fault-around.mjs';
import vmaCache from './mechanisms/vma-cache.mjs';
import lru from './mechanisms/lru.mjs';
import largeFolios from './mechanisms/large-folios.mjs';
import prefault from './mechanisms/prefault.mjs';

export const ABI_VERSION = 3;
export const mechanisms = [faultAround, vmaCache, lru, largeFolios, prefault];
export { core };

/**
 * Every mechanism's views (React components), page side: the worker imports
 * registry.ts, which must stay free of them. Adding a mechanism with views
 * adds one line here; views/registry.ts shows a mechanism's views in its
 * gallery group's scenarios, after the shared ones.
 */
import type { ViewDef } from '../views/registry.js';
import { LARGE_FOLIOS } from './large-folios/index.js';
import { LARGE_FOLIO_VIEWS } from './large-folios/views.js';
import { LRU } from './lru/index.js';
import { LRU_VIEWS } from './lru/views.js';
import { PREFAULT } from './prefault/index.js';
import { PREFAULT_VIEWS } from './prefault/views.js';
import { VMA_CACHE } from './vma-cache/index.js';
import { VMA_CACHE_VIEWS } from './vma-cache/views.js';

export const MECHANISM_VIEWS: Record<string, ViewDef[]> = {
  [VMA_CACHE]: VMA_CACHE_VIEWS,
  [LRU]: LRU_VIEWS,
  [LARGE_FOLIOS]: LARGE_FOLIO_VIEWS,
  [PREFAULT]: PREFAULT_VIEWS,
};

/**
 * Every mechanism's event sentences (events.ts asks them for an event
 * that is not the core's). Adding a mechanism with events of its own adds
 * one line here.
 */
import type { Describer } from '../events.js';
import { describeLargeFolios } from './large-folios.js';
import { describeLru } from './lru.js';
import { describePrefault } from './prefault.js';
import { describeVmaCache } from './vma-cache.js';

export const MECHANISM_DESCRIBERS: Describer[] = [describeVmaCache, describeLru, describeLargeFolios, describePrefault];

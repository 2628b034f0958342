/**
 * Every mechanism's frame provider, for the worker's engines (no React).
 * Adding a mechanism with frame data of its own adds one line here.
 */
import type { FrameProvider } from '../../../wasm-core/ts/engine.js';
import { faultAroundFrames } from './fault-around/frame.js';
import { largeFolioFrames } from './large-folios/frame.js';
import { lruFrames } from './lru/frame.js';
import { prefaultFrames } from './prefault/frame.js';
import { vmaCacheFrames } from './vma-cache/frame.js';

export const FRAME_PROVIDERS: FrameProvider[] = [
  faultAroundFrames,
  vmaCacheFrames,
  lruFrames,
  largeFolioFrames,
  prefaultFrames,
];

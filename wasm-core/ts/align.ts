/**
 * Two runs of one scenario side by side (compare): stand both at the same
 * operation, whatever their event counts.
 *
 * Two runs of the same program with different tunables execute the same
 * steps and the same touches (the access patterns come from the program and
 * its seed, not from the tunables), but not the same operations: a touch
 * that faults is an operation of its own, while consecutive touches that hit
 * present PTEs are coalesced into one mmsim_access event (a=count). So an
 * operation is identified by the step it belongs to (the ordinal of the
 * mmsim_step event before it) and, within that step, by the touches done up
 * to its end; operations without touches (a step's own event, an mmap) by
 * their ordinal among the step's touchless operations. Aligning run A's
 * cursor to run B: find A's operation, then B's operation that contains A's
 * last touch (or the same touchless ordinal), at the same offset into the
 * operation, or at its end when A's operation is complete.
 */
import { EV, EV_TYPE_MASK, EVENT_OFFSETS, EVF_OP_START } from './abi.js';
import { lowerBound, upperBound } from './search.js';

export interface OpIndex {
  nEvents: number;
  /** first event of each operation */
  start: Uint32Array;
  /** ordinal of the mmsim_step event the operation belongs to (-1 before the first) */
  step: Int32Array;
  /** touches the operation did */
  touches: Float64Array;
  /** touches done in this step up to the end of the operation */
  touchEnd: Float64Array;
  /** for touchless operations: their ordinal among the step's touchless operations at the same touch count */
  ordinal: Uint32Array;
}

/** index the operations of a recorded event stream (32-byte records) */
export function buildOpIndex(events: Uint8Array, nEvents: number): OpIndex {
  const v = new DataView(events.buffer, events.byteOffset, nEvents * 32);
  const starts: number[] = [];
  for (let i = 0; i < nEvents; i++) if (i === 0 || v.getUint16(i * 32, true) & EVF_OP_START) starts.push(i);
  const n = starts.length;
  const idx: OpIndex = {
    nEvents,
    start: Uint32Array.from(starts),
    step: new Int32Array(n),
    touches: new Float64Array(n),
    touchEnd: new Float64Array(n),
    ordinal: new Uint32Array(n),
  };
  let step = -1,
    done = 0,
    touchless = 0;
  for (let k = 0; k < n; k++) {
    const end = k + 1 < n ? starts[k + 1] : nEvents;
    let touches = 0;
    for (let i = starts[k]; i < end; i++) {
      const t = v.getUint16(i * 32, true) & EV_TYPE_MASK;
      if (t === EV.mmsim_step) {
        step++;
        done = 0;
        touchless = 0;
      } else if (t === EV.mmsim_access) touches += v.getUint32(i * 32 + EVENT_OFFSETS.mmsim_access.count, true);
      else if (t === EV.page_fault_user && v.getUint32(i * 32 + EVENT_OFFSETS.page_fault_user.attempt, true) === 0)
        touches += 1; /* a retry is the same touch */
    }
    if (touches) touchless = 0;
    done += touches;
    idx.step[k] = step;
    idx.touches[k] = touches;
    idx.touchEnd[k] = done;
    idx.ordinal[k] = touches ? 0 : touchless++;
  }
  return idx;
}

/** the operation containing event i */
export function opAt(idx: OpIndex, i: number): number {
  return Math.max(0, upperBound(idx.start, i) - 1);
}

const opEnd = (idx: OpIndex, k: number) => (k + 1 < idx.start.length ? idx.start[k + 1] : idx.nEvents);

/** the operation of B that matches operation k of A, or -1 if B never got there */
export function matchOp(a: OpIndex, k: number, b: OpIndex): number {
  const step = a.step[k];
  /* B's operations of that step: a contiguous range, found by binary search */
  const lo = lowerBound(b.step, step);
  const p = a.touchEnd[k];
  let last = -1;
  for (let j = lo; j < b.start.length && b.step[j] === step; j++) {
    if (a.touches[k] > 0) {
      if (b.touches[j] > 0 && b.touchEnd[j] >= p) return j;
      continue;
    }
    /* a touchless operation (a step's own event, an I/O completion between two touches) at touch count p */
    if (b.touches[j] === 0 && b.touchEnd[j] === p && b.ordinal[j] === a.ordinal[k]) return j;
    if (b.touchEnd[j] > p)
      return last >= 0 && b.touchEnd[last] === p ? last : j; /* B has no such: where B has done p touches */
    last = j;
  }
  return last;
}

/** run B's cursor for run A's cursor c (events 0 .. c-1 of A have happened) */
export function alignCursor(a: OpIndex, cursor: number, b: OpIndex): number {
  if (cursor <= 0 || !a.start.length) return 0;
  const c = Math.min(cursor, a.nEvents);
  const k = opAt(a, c - 1);
  const complete = c === opEnd(a, k);
  const j = matchOp(a, k, b);
  if (j < 0) return b.nEvents; /* B stopped earlier (an error): show its end */
  const bStart = b.start[j],
    bEnd = opEnd(b, j);
  if (complete) return bEnd;
  return Math.max(bStart + 1, Math.min(bEnd - 1, bStart + (c - a.start[k])));
}

/** does B's cursor stand at the operation matching A's? (for tests) */
export function sameOperation(a: OpIndex, ca: number, b: OpIndex, cb: number): boolean {
  if (ca <= 0) return cb === 0;
  const k = opAt(a, ca - 1),
    j = cb > 0 ? opAt(b, cb - 1) : -1;
  if (j < 0 || a.step[k] !== b.step[j]) return false;
  const p = a.touchEnd[k];
  if (a.touches[k] > 0) return b.touches[j] > 0 && b.touchEnd[j] - b.touches[j] < p && p <= b.touchEnd[j];
  /* touchless: B at the same touch count of the step */
  return b.touchEnd[j] - b.touches[j] <= p && p <= b.touchEnd[j];
}

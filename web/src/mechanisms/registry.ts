/**
 * What the playground asks of the mechanisms, over the generated list of
 * their modules (../gen/mechanisms.ts, from their manifests: adding a
 * mechanism edits nothing here): a group's module, tunable labels, and the
 * jump targets every scenario has beside each mechanism's own.
 */
import { EV, FaultKind } from '../../../wasm-core/ts/abi.js';
import type { SimEvent } from '../../../wasm-core/ts/events.js';
import type { OfTypes } from '../frames/types.js';
import { MECHANISM_DEFS } from '../gen/mechanisms.js';
import { jump, type JumpDef, type MechanismDef } from './types.js';

export { MECHANISM_DEFS };

/** the mechanism of a gallery group (scenarios/<id>/): its module, or the first one's */
export const mechanismOf = (group: string | null | undefined): MechanismDef =>
  MECHANISM_DEFS.find((m) => m.id === group) ?? MECHANISM_DEFS[0];

/** a tunable value's label in the controls, by whichever mechanism knows better */
export function valueLabel(key: string, value: number): string | null {
  for (const m of MECHANISM_DEFS) {
    const l = m.valueLabel?.(key, value);
    if (l) return l;
  }
  return null;
}

/**
 * The jump targets every scenario has; mechanisms add theirs (MechanismDef
 * `jumps`). Steps and captions are the timeline's own lists (step: Shift+→,
 * beat: the next caption or step, PageDown).
 */
export const SHARED_JUMPS: JumpDef[] = [
  jump({
    id: 'fault',
    label: 'Fault',
    key: 'F',
    event: 'page_fault_user',
    where: (e) => e.attempt === 0,
    title: 'the next page fault, as the CPU traps (its handling follows, event by event)',
  }),
  jump({
    id: 'fault-end',
    label: 'Fault end',
    key: 'J',
    event: 'mm_fault_done',
    where: (e) => e.kind !== FaultKind.Retry,
    title: 'the end of this fault (or the next): everything it mapped, its window and skips drawn',
  }),
];

/** every jump target with a key, shared first */
export function jumpKeys(): JumpDef[] {
  return [...SHARED_JUMPS, ...MECHANISM_DEFS.flatMap((m) => m.jumps ?? [])];
}

/** the jump targets shown for a scenario of this group: the shared ones and its mechanism's */
export function jumpsOf(group: string | null | undefined): JumpDef[] {
  return [...SHARED_JUMPS, ...(mechanismOf(group).jumps ?? [])];
}

/**
 * Per jump target, the events it stops after (sorted), in one pass over a
 * recorded run's events of the jumps' types: the worker sends them with the timeline.
 */
export function computeMarks(
  nEvents: number,
  event: (i: number) => SimEvent,
  ofTypes?: OfTypes,
): Record<string, number[]> {
  const defs = jumpKeys();
  const byType = new Map<number, JumpDef[]>();
  for (const j of defs) {
    const type = (EV as Record<string, number>)[j.event];
    if (type === undefined) throw new Error(`jump ${j.id}: no event type ${j.event}`);
    byType.set(type, [...(byType.get(type) ?? []), j]);
  }
  const marks: Record<string, number[]> = Object.fromEntries(defs.map((j) => [j.id, []]));
  /* only the events of the jumps' types, where the run has an index of them */
  if (ofTypes) {
    /* a type whose every jump takes each of its events needs no event decoded: its index is the list */
    for (const [type, js] of byType)
      if (js.every((j) => !j.where)) {
        const all = ofTypes([type]);
        for (const j of js) marks[j.id] = Array.from(all);
        byType.delete(type);
      }
  }
  if (ofTypes) {
    /* a type at a time: each jump has one event type, so its marks come in order from that type's own list
       (merging the types' lists first cost a sort of all of them) */
    for (const [type, js] of byType) {
      const list = ofTypes([type]);
      for (let k = 0; k < list.length; k++) {
        const e = event(list[k]);
        for (const j of js) if (!j.where || j.where(e)) marks[j.id].push(list[k]);
      }
    }
    return marks;
  }
  for (let i = 0; i < nEvents; i++) {
    const e = event(i);
    const js = byType.get(e.type);
    if (js) for (const j of js) if (!j.where || j.where(e)) marks[j.id].push(i);
  }
  return marks;
}

/**
 * The mechanisms, in gallery order: the only list. Adding a mechanism is
 * adding its folder and one line here.
 */
import { faultAround } from './fault-around/index.js';
import type { MechanismDef } from './types.js';

export const MECHANISM_DEFS: MechanismDef[] = [faultAround];

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

/**
 * An exercise's parameters: what differs from one student to the next. A
 * tour may declare `params:`, each a range of integers or a list of values
 * to choose from; a seed (`--seed N` in the CLI, `&seed=N` in a link) draws
 * one value of each, the same in Node and in the browser (one generator,
 * mulberry32, drawn in the order the parameters are written), and `$name`
 * stands for the drawn value in a run's settings and in the text.
 *
 *   params:
 *     window: { choose: [16KiB, 32KiB, 64KiB] }
 *     cap: { range: [4, 16], step: 2 }
 */

/** a drawn value: a number, a word or size, or a list (for a list tunable such as mthp) */
export type ParamValue = string | number | (string | number)[];

/** a parameter as written: a range (lo..hi, both included, by step) or a list to choose from */
export type ParamSpec =
  | { kind: 'range'; lo: number; hi: number; step: number }
  | { kind: 'choose'; values: ParamValue[] };

export const PARAM_NAME = /^[a-z][a-z0-9_]*$/;
/** `$name` in text and as a whole setting value */
export const PARAM_REF = /\$([a-z][a-z0-9_]*)/g;

/** the largest seed: a link's and the CLI's seeds are integers 0 .. 2^31 - 1 */
export const MAX_SEED = 2 ** 31 - 1;

/** a seed as typed (a link's `seed=`, the CLI's --seed): an integer 0 .. 2^31 - 1, or why not */
export function parseSeed(text: string): number | { error: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) > MAX_SEED)
    return { error: `a seed is a whole number from 0 to ${MAX_SEED}, got '${text.slice(0, 40)}'` };
  return Number(t);
}

/** mulberry32: a small generator with a 32-bit state, the same sequence in every JavaScript engine */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** how many values a parameter can take */
export function paramCount(p: ParamSpec): number {
  return p.kind === 'choose' ? p.values.length : Math.floor((p.hi - p.lo) / p.step) + 1;
}

/** every parameter's value for this seed, in the order they are declared */
export function drawParams(specs: [string, ParamSpec][], seed: number): Record<string, ParamValue> {
  const next = mulberry32(seed ^ 0x5eed);
  const out: Record<string, ParamValue> = Object.create(null);
  for (const [name, p] of specs) {
    const k = Math.floor(next() * paramCount(p));
    out[name] = p.kind === 'choose' ? p.values[k] : p.lo + k * p.step;
  }
  return out;
}

/** a drawn value as text: 65,536; 16KiB; 16KiB, 64KiB */
export function paramText(v: ParamValue): string {
  return Array.isArray(v) ? v.join(', ') : typeof v === 'number' ? v.toLocaleString('en-US') : v;
}

/** text with each `$name` replaced by its value (a name that is not a parameter stays as written) */
export function fillParams(text: string, values: Record<string, ParamValue>): string {
  return text.replace(PARAM_REF, (m, name: string) => (Object.hasOwn(values, name) ? paramText(values[name]) : m));
}

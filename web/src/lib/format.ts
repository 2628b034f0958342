/* one formatter: n.toLocaleString('en-US') builds one per call, and the views format hundreds of figures a
   step (87 ms of the page's 1.1 s over 60 steps of fault-around/sequential); the output is the same */
const EN = new Intl.NumberFormat('en-US');
export const fmt = (n: number) => EN.format(n);
export { hex } from '../../../wasm-core/ts/events.js';

export function size(bytes: number): string {
  for (const [u, v] of [
    ['TiB', 2 ** 40],
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (bytes >= v) return `${+(bytes / v).toFixed(bytes % v ? 1 : 0)} ${u}`;
  return `${bytes} B`;
}

/**
 * A ratio as the figures show it: an increase as ×16 or ×1.5, a decrease as ÷16 when it is at least a
 * halving and as −43% when it is less, so that a drop never prints as "×0" or "×0.03".
 */
export function ratioText(r: number): string {
  const short = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(2).replace(/\.?0+$/, ''));
  if (!Number.isFinite(r) || r < 0) return '';
  if (r >= 1) return `×${short(r)}`;
  if (r === 0) return '\u2212100%';
  if (1 / r >= 2) return `÷${short(1 / r)}`;
  return `\u2212${Math.round((1 - r) * 100)}%`;
}

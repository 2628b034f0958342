export const fmt = (n: number) => n.toLocaleString('en-US');
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

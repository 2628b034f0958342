/** bytes in a page */
export const PAGE = 4096;

/** Sizes as people write them: 4 KiB, 2 MiB, 16 GiB (exact binary units, else bytes). */
export function formatSize(n: number): string {
  for (const [u, v] of [
    ['TiB', 2 ** 40],
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (n >= v && n % v === 0) return `${n / v} ${u}`;
  return `${n} B`;
}

/** median and range of a list of numbers (the benchmark's only statistic) */
export interface Stat {
  median: number;
  min: number;
  max: number;
}

export function stat(a: number[]): Stat {
  const s = [...a].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

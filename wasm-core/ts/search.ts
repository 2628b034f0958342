/** Binary searches over sorted arrays (event indexes, operation starts, history keys). */

/** the index of the first element >= k */
export function lowerBound(a: ArrayLike<number>, k: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] < k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** the index of the first element > k */
export function upperBound(a: ArrayLike<number>, k: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] <= k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

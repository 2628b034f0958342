/**
 * Keep a list's current row in view without scrolling the page: when the
 * row is within `above` px of the list's top or `below(row)` px of its
 * bottom (or out of view), scroll the list so that it sits a third of the
 * way down. The event log and the steps use it.
 */
import { useLayoutEffect, type DependencyList, type RefObject } from 'react';

export function useKeepInView(
  box: RefObject<HTMLElement | null>,
  current: (box: HTMLElement) => HTMLElement | null,
  deps: DependencyList,
  above = 0,
  below: (row: HTMLElement) => number = (row) => row.offsetHeight,
): void {
  useLayoutEffect(() => {
    const keep = () => {
      const b = box.current,
        c = b ? current(b) : null;
      if (!b || !c) return;
      const top = c.offsetTop - b.offsetTop;
      if (top < b.scrollTop + above || top > b.scrollTop + b.clientHeight - below(c))
        /* a third of the way down, or less where the box is short: the whole row in view */
        b.scrollTop = top - Math.max(0, Math.min(b.clientHeight / 3, b.clientHeight - c.offsetHeight - 8));
    };
    keep();
    /* and again when the list's box changes size (a comparison's second run, a panel shown or hidden) */
    const b = box.current;
    if (!b || typeof ResizeObserver === 'undefined') return;
    /* its first report comes after layout: by then the box may have its final size */
    const ro = new ResizeObserver(keep);
    ro.observe(b);
    return () => ro.disconnect();
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what moves the current row
  }, deps);
}

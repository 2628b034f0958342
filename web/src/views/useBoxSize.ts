/**
 * The size the layout gives an element, from a ResizeObserver: its reports
 * (the first at once) come after layout, so no layout is forced inside
 * React's commit. null until the first report. A view takes the space its
 * panel gives it and never the other way round: stepping moves nothing.
 *
 * Returns a callback ref (so an element that appears later, after a
 * placeholder, is observed too) and the size.
 */
import { useCallback, useLayoutEffect, useState } from 'react';

export interface BoxSize {
  w: number;
  h: number;
}

export function useBoxSize<T extends HTMLElement>(): [(el: T | null) => void, BoxSize | null] {
  const [el, setEl] = useState<T | null>(null);
  const [size, setSize] = useState<BoxSize | null>(null);
  const ref = useCallback((e: T | null) => setEl(e), []);
  useLayoutEffect(() => {
    if (!el) return;
    const ro = new ResizeObserver(([e]) => {
      const w = Math.round(e.contentRect.width),
        h = Math.round(e.contentRect.height);
      setSize((s) => (s && s.w === w && s.h === h ? s : { w, h }));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return [ref, size];
}

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
import { STAGE_TEXT } from '../store/state.js';
import { useStore } from '../store/store.js';

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

/** the size the views' SVG text is drawn at (CSS px in user units): about 12 px */
export const SVG_TEXT = 12;

/** what an SVG view spreads on its `<svg>`: its size on screen, and the user units it draws in */
export interface SvgBox {
  width: number;
  height: number;
  viewBox: string;
  style?: React.CSSProperties;
}

/**
 * A box for an SVG view that reads on stage: in presenter mode the drawing is made in user units k times
 * smaller than the box (k = the stage's smallest text / SVG_TEXT, 1.5 at 18 px) and scaled up by its
 * viewBox, so its 12 px labels and everything laid out around them read at 18 px, with the room to do so;
 * inside, no text is under SVG_TEXT user units. Off the stage, k is 1 and the box is the box.
 * Returns the ref, the size to draw in (user units) and the `<svg>`'s attributes.
 */
export function useStageBox<T extends HTMLElement>(): [(el: T | null) => void, BoxSize | null, SvgBox | null] {
  const [ref, box] = useBoxSize<T>();
  const stage = useStore((s) => (s.present ? STAGE_TEXT * s.fontScale : 0));
  const k = Math.max(1, stage / SVG_TEXT);
  if (!box) return [ref, null, null];
  const draw = k === 1 ? box : { w: Math.round(box.w / k), h: Math.round(box.h / k) };
  return [
    ref,
    draw,
    {
      width: box.w,
      height: box.h,
      viewBox: `0 0 ${draw.w} ${draw.h}`,
      style: k === 1 ? undefined : ({ '--text-min': `${SVG_TEXT}px` } as React.CSSProperties),
    },
  ];
}

/**
 * The presenter and the speaker's notes window kept in step: two windows of
 * one browser (the notes on the laptop, the presenter on the projector) talk
 * over a BroadcastChannel. The presenter says which beat is on screen; the
 * notes window asks for a beat (its own clicker keys and buttons) and, when
 * it opens, which beat is on screen now.
 */
export type TourMessage =
  | { kind: 'beat'; tour: string; index: number }
  | { kind: 'goto'; tour: string; index: number }
  | { kind: 'hello'; tour: string };

const NAME = 'mmplay-tour';

/** a channel, or null where the browser has none (messages are then dropped) */
export function tourChannel(onMessage: (m: TourMessage) => void): {
  post: (m: TourMessage) => void;
  close: () => void;
} {
  if (typeof BroadcastChannel === 'undefined') return { post: () => {}, close: () => {} };
  const ch = new BroadcastChannel(NAME);
  ch.onmessage = (e: MessageEvent) => {
    const m = e.data as TourMessage;
    if (m && typeof m === 'object' && typeof m.tour === 'string') onMessage(m);
  };
  return { post: (m) => ch.postMessage(m), close: () => ch.close() };
}

/** the notes window's address for a tour */
export const notesUrl = (tour: string) => `?tour=${encodeURIComponent(tour).replace('%2F', '/')}&notes=1`;

/**
 * A cursor kept across a re-run (a tunable changed): the step it was in and how far through that step's
 * events, placed again on the new run's steps. The store makes and places it (relativeCursor,
 * resolveCursor); the worker places it on a run still recording, to draw that moment before the run ends.
 */

/** the cursor's place among a run's steps: the step's index among its step events, and the fraction of its events */
export interface StepCursor {
  step: number;
  frac: number;
}

/**
 * A step cursor on a run's events: stepEvents are the indices of its step events, nEvents how many events
 * it has. `recording`: the run is still recording, and a step without the next one's start yet has no end:
 * null until then.
 */
export function placeStepCursor(
  t: { stepEvents: readonly number[]; nEvents: number },
  target: StepCursor,
  recording = false,
): number | null {
  const last = target.step + 1 >= t.stepEvents.length;
  if (recording && last) return null;
  if (target.step >= t.stepEvents.length) return t.nEvents;
  const start = t.stepEvents[target.step] + 1;
  const end = last ? t.nEvents : t.stepEvents[target.step + 1] + 1;
  return Math.max(0, Math.min(t.nEvents, Math.round(start + target.frac * (end - start))));
}

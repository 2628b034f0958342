/**
 * A tour beat's moment as a cursor in a recorded run (the kinds both the
 * CLI and the playground place; the playground's jump keys are its own).
 * Apart from quiz.ts so that the playground's main thread takes it without
 * the compiler and the recorder.
 */
import type { Moment } from './load/tour.js';
import { counterKey } from './load/tour-format.js';
import type { TimelineInfo } from './recorder.js';

type Marks = Pick<TimelineInfo, 'nEvents' | 'stepEvents' | 'stepOf' | 'sayEvents' | 'firsts'> & {
  /** counter moments located in the recorded run (Recorder.locateCounter), by counterKey */
  located?: Record<string, number | null>;
};

/**
 * A moment as a cursor in a run, or null when the run never gets there: the start or end, the start of a
 * step (as the step list numbers them; a repeat starts with its body) or its end (where the first step after its last execution starts),
 * just after the nth caption. The playground's momentCursor places its jump keys' moments and comes here
 * for these.
 */
export function momentAt(t: Marks, m: Exclude<Moment, { kind: 'jump' }>): number | null {
  switch (m.kind) {
    case 'start':
      return 0;
    case 'end':
      return t.nEvents;
    case 'say':
      return m.nth <= t.sayEvents.length ? t.sayEvents[m.nth - 1] + 1 : null;
    case 'event': {
      const f = t.firsts[m.event];
      return f && m.nth <= f.length ? f[m.nth - 1] + 1 : null;
    }
    case 'counter':
      return t.located?.[counterKey(m)] ?? null;
    case 'step': {
      const pc = m.step - 1;
      const first = t.stepOf.indexOf(pc);
      /* a step that runs nothing itself (a repeat: its body's steps run) starts where the first step after it does */
      if (first < 0 && !m.end) {
        const k = t.stepOf.findIndex((x) => x > pc);
        return k < 0 ? null : t.stepEvents[k] + 1;
      }
      if (first < 0) return null;
      if (!m.end) return t.stepEvents[first] + 1;
      const last = t.stepOf.lastIndexOf(pc);
      for (let k = last + 1; k < t.stepOf.length; k++) if (t.stepOf[k] > pc) return t.stepEvents[k];
      return t.nEvents;
    }
  }
}

/** a moment in words, for messages and the worksheet: "step 4", "step 4's end", "mmsim_fork 1", "pgfault reaching 1" */
export function momentText(m: Moment): string {
  switch (m.kind) {
    case 'step':
      return `step ${m.step}${m.end ? "'s end" : ''}`;
    case 'say':
      return `caption ${m.nth}`;
    case 'jump':
      return `${m.jump} ${m.nth}`;
    case 'event':
      return `${m.event} ${m.nth}`;
    case 'counter':
      return `${m.counter} reaching ${m.reaches}`;
    default:
      return `the run's ${m.kind}`;
  }
}

/**
 * The scenario's steps, the current one highlighted, with its source line;
 * say captions in italics. Click a step to go to its start. A scenario of
 * thousands of steps shows a window around the current one (the DOM of
 * 16,000 rows took seconds to lay out, and every frame re-rendered it).
 */
import { dispatch } from '../store/store.js';
import type { ViewProps } from './registry.js';

/** at most this many rows: a window around the current step */
export const STEPS_WINDOW = 120;

export function Steps({ frame, program, timeline }: ViewProps) {
  const go = (step: number) => {
    const k = timeline.stepOf.indexOf(step);
    if (k >= 0) dispatch({ type: 'seek', cursor: timeline.stepEvents[k] + 1 });
  };
  const n = program.steps.length;
  const cur = frame.step ?? 0;
  const from = n <= STEPS_WINDOW ? 0 : Math.max(0, Math.min(n - STEPS_WINDOW, cur - Math.floor(STEPS_WINDOW / 3)));
  const to = Math.min(n, from + STEPS_WINDOW);
  return (
    <ol className="steps" aria-label="Scenario steps" start={from + 1}>
      {from > 0 && <li className="more" aria-hidden="true">{from.toLocaleString('en-US')} earlier steps</li>}
      {program.steps.slice(from, to).map((s, k) => {
        const i = from + k;
        return (
          <li key={i} className={`${frame.step === i ? 'cur' : ''} ${s.kind === 'say' ? 'say' : ''}`} onClick={() => go(i)}
            style={{ paddingLeft: 8 + s.depth * 18 }} aria-current={frame.step === i ? 'step' : undefined}>
            <span className="no">{i + 1}</span>
            <span>{s.kind === 'say' ? `\u201c${s.summary}\u201d` : s.summary}</span>
            <span className="line">line {s.at.line}</span>
          </li>
        );
      })}
      {to < n && <li className="more" aria-hidden="true">{(n - to).toLocaleString('en-US')} later steps</li>}
    </ol>
  );
}

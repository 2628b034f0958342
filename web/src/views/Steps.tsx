/**
 * The scenario's steps, the current one highlighted, with its source line;
 * say captions in italics. Click a step to go to its start.
 */
import { dispatch } from '../store/store.js';
import type { ViewProps } from './registry.js';

export function Steps({ frame, program, timeline }: ViewProps) {
  const go = (step: number) => {
    const k = timeline.stepOf.indexOf(step);
    if (k >= 0) dispatch({ type: 'seek', cursor: timeline.stepEvents[k] + 1 });
  };
  return (
    <ol className="steps" aria-label="Scenario steps">
      {program.steps.map((s, i) => (
        <li key={i} className={`${frame.step === i ? 'cur' : ''} ${s.kind === 'say' ? 'say' : ''}`} onClick={() => go(i)}
          style={{ paddingLeft: 8 + s.depth * 18 }} aria-current={frame.step === i ? 'step' : undefined}>
          <span className="no">{i + 1}</span>
          <span>{s.kind === 'say' ? `\u201c${s.summary}\u201d` : s.summary}</span>
          <span className="line">line {s.at.line}</span>
        </li>
      ))}
    </ol>
  );
}

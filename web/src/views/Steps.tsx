/**
 * The scenario's steps, the current one highlighted, with its source line;
 * say captions in italics. Click a step, or move to it with ↑ ↓ (one tab
 * stop for the list), to go to its start. A scenario of thousands of steps
 * shows a window around the current one (the DOM of 16,000 rows took
 * seconds to lay out, and every frame re-rendered it).
 */
import { useRef } from 'react';
import { dispatch } from '../store/store.js';
import { useKeepInView } from './keepInView.js';
import type { ViewProps } from './types.js';

/** at most this many rows: a window around the current step */
export const STEPS_WINDOW = 120;

export function Steps({ frame, program, timeline }: ViewProps) {
  const box = useRef<HTMLOListElement>(null);
  const go = (step: number) => {
    const k = timeline.stepOf.indexOf(step);
    if (k >= 0) dispatch({ type: 'seek', cursor: timeline.stepEvents[k] + 1 });
  };
  const n = program.steps.length;
  const cur = frame.step ?? 0;
  const from = n <= STEPS_WINDOW ? 0 : Math.max(0, Math.min(n - STEPS_WINDOW, cur - Math.floor(STEPS_WINDOW / 3)));
  const to = Math.min(n, from + STEPS_WINDOW);
  useKeepInView(box, (b) => b.querySelector<HTMLElement>('li.cur'), [frame.step]);
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    /* the next or previous step that ran (a step inside a repeat runs many times; a skipped one never) */
    const here = frame.step ?? -1;
    const ran = [...new Set(timeline.stepOf)].sort((a, b) => a - b);
    const next = e.key === 'ArrowDown' ? ran.find((s) => s > here) : [...ran].reverse().find((s) => s < here);
    if (next !== undefined) go(next);
  };
  return (
    <ol
      className="steps"
      ref={box}
      aria-label="Scenario steps: ↑ ↓ to go to a step"
      start={from + 1}
      role="listbox"
      tabIndex={0}
      data-rows
      aria-activedescendant={frame.step !== null ? `step-${frame.step}` : undefined}
      onKeyDown={onKey}
    >
      {from > 0 && (
        <li className="more" aria-hidden="true">
          {from.toLocaleString('en-US')} earlier steps
        </li>
      )}
      {program.steps.slice(from, to).map((s, k) => {
        const i = from + k;
        return (
          <li
            key={i}
            id={`step-${i}`}
            role="option"
            aria-selected={frame.step === i}
            className={`${frame.step === i ? 'cur' : ''} ${s.kind === 'say' ? 'say' : ''}`}
            onClick={() => go(i)}
            style={{ paddingLeft: 8 + s.depth * 18 }}
          >
            <span className="no">{i + 1}</span>
            <span className="what">{s.kind === 'say' ? `\u201c${s.summary}\u201d` : s.summary}</span>
            <span className="line">line {s.at.line}</span>
          </li>
        );
      })}
      {to < n && (
        <li className="more" aria-hidden="true">
          {(n - to).toLocaleString('en-US')} later steps
        </li>
      )}
    </ol>
  );
}

/**
 * The event log: one plain sentence per event around the cursor, with the
 * kernel function that does it, linked to v6.19 source on elixir.bootlin.com.
 * Click a line, or move with ↑ ↓ (one tab stop for the list), to go there;
 * Enter opens the current event's kernel source.
 */
import { memo, useRef } from 'react';
import { EV } from '../../../wasm-core/ts/abi.js';
import { elixir } from '../../../wasm-core/ts/events.js';
import { changedTunables } from '../../../wasm-core/ts/multirun.js';
import { questionOpen } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';
import { useKeepInView } from './keepInView.js';
import type { ViewProps } from './types.js';

export function EventLog({ frame, program }: ViewProps) {
  /* an exercise's open question: the events after the cursor would tell its answer */
  const asking = useStore(questionOpen);
  /*
   * a run with other tunables than the scenario's own (run B of a comparison, a --set): its expects are
   * about another kernel, a comparison rather than a test (as the banner above the views says)
   */
  const own = useStore((s) => s.own);
  const notes = own !== null && changedTunables(own, program.scenario).length > 0;
  const box = useRef<HTMLDivElement>(null);
  const cur = useRef<HTMLLIElement>(null);
  useKeepInView(
    box,
    () => cur.current,
    [frame.cursor],
    24,
    (row) => row.offsetHeight + 8,
  );
  if (frame.big) {
    return (
      <div className="placeholder">
        A big run records no events (it would be millions): the views show its final state.
      </div>
    );
  }
  if (!frame.log.length) return <div className="placeholder">No events.</div>;
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      dispatch({ type: 'step', delta: e.key === 'ArrowDown' ? 1 : -1 });
      e.preventDefault();
    } else if (e.key === 'Enter' && frame.event?.fn) {
      window.open(elixir(frame.event.fn), '_blank', 'noopener');
      e.preventDefault();
    }
  };
  return (
    <div
      className="log"
      ref={box}
      role="region"
      tabIndex={0}
      data-rows
      data-export-around={8}
      onKeyDown={onKey}
      aria-label="Event log: ↑ ↓ to step, Enter opens the current event's kernel source"
    >
      <ol>
        {(asking ? frame.log.filter((l) => l.index < frame.cursor) : frame.log).map((l) => {
          const isCur = l.index === frame.cursor - 1;
          return (
            <Line
              key={l.index}
              index={l.index}
              text={
                notes && l.type === EV.mmsim_expect && l.label === 'expect FAILED'
                  ? l.text.replace(/FAILED$/, "differ: the scenario's numbers are for its own kernel")
                  : l.text
              }
              fn={l.fn}
              opStart={l.opStart}
              cur={isCur}
              future={l.index >= frame.cursor}
              lineRef={isCur ? cur : undefined}
            />
          );
        })}
      </ol>
    </div>
  );
}

/*
 * One line of the log, drawn again only when it changes: a step moves the cursor by one line, and the
 * other 119 lines keep their text (the frame brings them as new objects, so the props are their fields).
 */
const Line = memo(function Line({
  index,
  text,
  fn,
  opStart,
  cur,
  future,
  lineRef,
}: {
  index: number;
  text: string;
  fn: string | null;
  opStart: boolean;
  cur: boolean;
  future: boolean;
  lineRef: React.Ref<HTMLLIElement> | undefined;
}) {
  return (
    <li
      id={`ev-${index}`}
      aria-current={cur ? 'step' : undefined}
      ref={lineRef}
      className={`${cur ? 'cur' : ''} ${future ? 'future' : ''} ${opStart ? 'op' : ''}`}
      onClick={() => dispatch({ type: 'seek', cursor: index + 1 })}
    >
      <span className="i">{index + 1}</span>
      {/* the whole sentence on hover: half a panel wide (comparing) it is cut short and the function hidden */}
      <span className="what" title={fn ? `${text} (${fn}())` : text}>
        {text}
      </span>
      <span className="fn">
        {fn && (
          <a
            href={elixir(fn)}
            target="_blank"
            rel="noreferrer"
            tabIndex={-1}
            onClick={(e) => e.stopPropagation()}
            title={`${fn} in Linux v6.19 on elixir.bootlin.com`}
          >
            {fn}()
          </a>
        )}
      </span>
    </li>
  );
});
